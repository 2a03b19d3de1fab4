// Copyright 2026 The slicekit Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package testenv

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// DefaultStartTimeout bounds the start of each component (etcd, then
// kube-apiserver) when neither [Options.StartTimeout] nor
// $KUBEBUILDER_CONTROLPLANE_START_TIMEOUT is set. It is generous because on a
// loaded 2-core machine several test packages may start control planes at
// once.
const DefaultStartTimeout = 90 * time.Second

// DefaultAPIServerFlags are the kube-apiserver flags [New] sets on top of
// envtest's defaults (secure serving on 127.0.0.1, client-certificate
// authentication, RBAC authorization, the ServiceAccount admission plugin
// disabled). They trade features no
// test here needs for a faster start; [Options.APIServerFlags] overrides
// them, and an empty value there removes a flag.
var DefaultAPIServerFlags = map[string]string{
	// API Priority and Fairness writes its bootstrap FlowSchemas and
	// PriorityLevelConfigurations right after start and runs a config
	// controller; without it there is less start-up work, and tests that
	// hammer the server (envtest clients use QPS 1000) are never answered
	// 429 by a seat-starved priority level on a loaded machine.
	"enable-priority-and-fairness": "false",
	// Dual stack, in the ranges the regression cases in testdata/cases use
	// (10.96.0.x and fd00:10:96::x), so their Services can be created with
	// the clusterIPs they name and dual-stack Services work.
	"service-cluster-ip-range": "10.96.0.0/16,fd00:10:96::/112",
}

// DefaultEtcdFlags are the etcd flags [New] sets on top of envtest's defaults
// (which include --unsafe-no-fsync). [Options.EtcdFlags] overrides them.
var DefaultEtcdFlags = map[string]string{
	// A single-member etcd still waits out one randomised election timeout
	// (up to 1s with the 100ms/1000ms defaults) before it serves; with
	// 10ms/100ms it is ready within about 0.1s. With one member there are
	// no peers to miss heartbeats, so the short timeouts are safe.
	"heartbeat-interval": "10",
	"election-timeout":   "100",
}

// Options configures [New]. The zero value is valid.
type Options struct {
	// BinDir is the directory holding etcd and kube-apiserver. Empty means
	// the result of [BinDir].
	BinDir string

	// SecurePort is the port the API server serves on at 127.0.0.1. Zero
	// picks a free port.
	SecurePort int

	// APIServerFlags are kube-apiserver flags, without the leading "--",
	// merged over [DefaultAPIServerFlags]. An empty value removes the flag.
	APIServerFlags map[string]string

	// EtcdFlags are etcd flags, without the leading "--", merged over
	// [DefaultEtcdFlags]. An empty value removes the flag.
	EtcdFlags map[string]string

	// Output, if non-nil, receives the standard output and error of etcd and
	// kube-apiserver. If nil, only the last 16 KiB are kept, to be included
	// in the error of a failed start.
	Output io.Writer

	// StartTimeout bounds the start of each component. Zero means
	// $KUBEBUILDER_CONTROLPLANE_START_TIMEOUT if set, else
	// [DefaultStartTimeout].
	StartTimeout time.Duration
}

// Env is a running control plane: one etcd and one kube-apiserver, each in
// its own process, with temporary data and certificate directories that
// [Env.Stop] removes.
type Env struct {
	// Config is a REST config for an admin user (group system:masters).
	// Callers must not modify it; use rest.CopyConfig.
	Config *rest.Config

	// Client is a clientset built from Config.
	Client kubernetes.Interface

	// StartDuration is how long [New] took, from launching etcd until the
	// API server was serving and the "default" namespace existed.
	StartDuration time.Duration

	env      *envtest.Environment
	stopOnce sync.Once
	stopErr  error
}

// New starts etcd and kube-apiserver from the binary directory and waits
// until the API server serves requests. The caller must call [Env.Stop];
// tests should use [Start], [StartEnv] or [Shared], which do that.
//
// If a binary is missing, the error wraps [ErrBinariesMissing].
func New(opts Options) (*Env, error) {
	binDir := opts.BinDir
	if binDir == "" {
		var err error
		if binDir, err = BinDir(); err != nil {
			return nil, err
		}
	}
	if err := CheckBinaries(binDir); err != nil {
		return nil, err
	}

	begin := time.Now()
	useExisting := false
	te := &envtest.Environment{
		// Never attach to whatever cluster $USE_EXISTING_CLUSTER points at.
		UseExistingCluster: &useExisting,
		// Paths are set explicitly so that $KUBEBUILDER_ASSETS and
		// $TEST_ASSET_* cannot substitute other binaries.
		BinaryAssetsDirectory:    binDir,
		ControlPlaneStartTimeout: opts.StartTimeout,
	}
	if te.ControlPlaneStartTimeout == 0 && os.Getenv("KUBEBUILDER_CONTROLPLANE_START_TIMEOUT") == "" {
		te.ControlPlaneStartTimeout = DefaultStartTimeout
	}

	etcd := &envtest.Etcd{Path: filepath.Join(binDir, "etcd")}
	setFlags(etcd.Configure(), DefaultEtcdFlags, opts.EtcdFlags)
	api := &envtest.APIServer{Path: filepath.Join(binDir, "kube-apiserver")}
	if opts.SecurePort != 0 {
		// What the deprecated APIServer.SecurePort did: this port on
		// 127.0.0.1 (envtest picks a free port when either is empty).
		api.SecureServing.Address = "127.0.0.1"
		api.SecureServing.Port = strconv.Itoa(opts.SecurePort)
	}
	setFlags(api.Configure(), DefaultAPIServerFlags, opts.APIServerFlags)
	out := opts.Output
	var tail *tailBuffer
	if out == nil {
		// Keep the end of the logs to explain a failed start.
		tail = &tailBuffer{max: 16 << 10}
		out = tail
	}
	etcd.Out, etcd.Err = out, out
	api.Out, api.Err = out, out
	te.ControlPlane.Etcd = etcd
	te.ControlPlane.APIServer = api

	cfg, err := te.Start()
	if err != nil {
		// envtest leaves whatever did start running when a late step fails.
		_ = te.Stop()
		if tail != nil {
			return nil, fmt.Errorf("testenv: starting control plane from %s: %w\n--- last control-plane output ---\n%s", binDir, err, tail.String())
		}
		return nil, fmt.Errorf("testenv: starting control plane from %s: %w", binDir, err)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		_ = te.Stop()
		return nil, fmt.Errorf("testenv: building clientset: %w", err)
	}
	return &Env{Config: cfg, Client: client, StartDuration: time.Since(begin), env: te}, nil
}

// Stop stops the API server, then etcd, and removes their temporary
// directories. It is safe to call more than once and on a nil Env.
func (e *Env) Stop() error {
	if e == nil {
		return nil
	}
	e.stopOnce.Do(func() { e.stopErr = e.env.Stop() })
	return e.stopErr
}

// CertDir returns the API server's certificate directory. It holds the
// serving certificate (apiserver.crt, apiserver.key) and the service-account
// signing key pair (sa-signer.crt, sa-signer.key), which other components
// such as kube-controller-manager need. It is removed by [Env.Stop].
func (e *Env) CertDir() string {
	return e.env.ControlPlane.APIServer.CertDir
}

// Host returns the API server's URL, e.g. "https://127.0.0.1:34567".
func (e *Env) Host() string {
	return e.Config.Host
}

// KubeConfig returns an admin kubeconfig for the API server, with the
// certificates embedded and contextName as the cluster, user and current
// context name.
func (e *Env) KubeConfig(contextName string) ([]byte, error) {
	if contextName == "" {
		return nil, errors.New("testenv: empty kubeconfig context name")
	}
	c := clientcmdapi.NewConfig()
	c.Clusters[contextName] = &clientcmdapi.Cluster{
		Server:                   e.Config.Host,
		CertificateAuthorityData: e.Config.CAData,
	}
	c.AuthInfos[contextName] = &clientcmdapi.AuthInfo{
		ClientCertificateData: e.Config.CertData,
		ClientKeyData:         e.Config.KeyData,
	}
	c.Contexts[contextName] = &clientcmdapi.Context{Cluster: contextName, AuthInfo: contextName}
	c.CurrentContext = contextName
	return clientcmd.Write(*c)
}

// WriteKubeConfig writes [Env.KubeConfig] to path with mode 0600, creating
// its directory. The file is replaced atomically, so a reader never sees a
// partial kubeconfig.
func (e *Env) WriteKubeConfig(path, contextName string) error {
	data, err := e.KubeConfig(contextName)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// CreateTemp already uses mode 0600.
	return os.Rename(tmp.Name(), path)
}

// setFlags sets defaults overridden by overrides on args, in name order; an
// empty value removes the flag.
func setFlags(args *envtest.Arguments, defaults, overrides map[string]string) {
	flags := maps.Clone(defaults)
	maps.Copy(flags, overrides)
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		if v := flags[name]; v == "" {
			args.Disable(name)
		} else {
			args.Set(name, v)
		}
	}
}

// tailBuffer is an io.Writer that keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
