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

// Package procs starts and stops the Kubernetes components that tests and
// test/e2e run as separate processes beside test/harness/testenv's etcd and
// kube-apiserver: each in its own process group with its output in a log
// file, stopped with SIGTERM then SIGKILL. StartKubeControllerManager starts
// an unmodified kube-controller-manager (built by hack/build-controlplane.sh
// from tools/controlplane) against a testenv.Env.
package procs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

// StopGrace is how long a component gets between SIGTERM and SIGKILL.
const StopGrace = 10 * time.Second

// Proc is a component process started by Start, in its own process group so
// that stopping it stops its children too and nothing else.
type Proc struct {
	// Name is the component's name; LogPath its output.
	Name, LogPath string
	cmd           *exec.Cmd
	log           *os.File
	done          chan struct{}
	waitErr       error
}

// Start starts path with args, its output in dir/<name>.log. It returns an
// error when the log cannot be created or the process not started.
func Start(dir, name, path string, args ...string) (*Proc, error) {
	logPath := filepath.Join(dir, name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout = f
	cmd.Stderr = f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &Proc{Name: name, LogPath: logPath, cmd: cmd, log: f, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Pid returns the process id (also the process group id).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Exited returns nil while the process runs, else an error with its exit
// status and the last 2000 bytes of its log.
func (p *Proc) Exited() error {
	select {
	case <-p.done:
		// The exit status is described, not wrapped: it may be nil (exit 0),
		// and the error is the early exit itself.
		return fmt.Errorf("%s exited early (%v); last output:\n%s", p.Name, p.waitErr, Tail(p.LogPath, 2000)) //nolint:errorlint // see above
	default:
		return nil
	}
}

// Stop sends SIGTERM to the process group, and SIGKILL after StopGrace. It
// returns an error when the process survived SIGKILL for StopGrace.
func (p *Proc) Stop() error {
	defer func() { _ = p.log.Close() }()
	pgid := p.cmd.Process.Pid
	select {
	case <-p.done:
		return nil
	default:
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(StopGrace):
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-p.done:
		return nil
	case <-time.After(StopGrace):
		return fmt.Errorf("%s (pid %d) did not exit after SIGKILL", p.Name, pgid)
	}
}

// Tail returns about the last n bytes of the file at path (or the error
// reading it).
func Tail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer func() { _ = f.Close() }()
	if st, err := f.Stat(); err == nil && st.Size() > n {
		_, _ = f.Seek(st.Size()-n, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	return strings.TrimSpace(string(b))
}

// KubeControllerManager is the binary name of kube-controller-manager in
// the control-plane bin directory.
const KubeControllerManager = "kube-controller-manager"

// BuildKubeControllerManager is the command that builds it.
const BuildKubeControllerManager = "hack/build-controlplane.sh kube-controller-manager"

// KCMOptions configure StartKubeControllerManager.
type KCMOptions struct {
	// BinDir holds the kube-controller-manager binary.
	BinDir string
	// Dir receives the kubeconfig, the CA file and the log.
	Dir string
	// Controllers is KCM's --controllers value; "" means "*" (every
	// controller KCM enables by default).
	Controllers string
	// ExtraArgs are further flags, after the defaults (a later flag wins).
	ExtraArgs []string
}

// StartKubeControllerManager starts kube-controller-manager against env's
// kube-apiserver, unmodified, with what it needs to run its default
// controllers there: a kubeconfig and the CA in o.Dir, env's service
// account signing key, no leader election, no serving port, shared
// credentials. It returns an error naming BuildKubeControllerManager when
// the binary is missing.
func StartKubeControllerManager(env *testenv.Env, o KCMOptions) (*Proc, error) {
	bin := filepath.Join(o.BinDir, KubeControllerManager)
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s not found in %s (build it with `%s`, or `make test`, which builds it): %w",
			KubeControllerManager, o.BinDir, BuildKubeControllerManager, err)
	}
	if env == nil || env.Config == nil {
		return nil, errors.New("procs: no running kube-apiserver")
	}
	kubeconfig := filepath.Join(o.Dir, "kube-controller-manager.kubeconfig")
	if err := env.WriteKubeConfig(kubeconfig, "kube-controller-manager"); err != nil {
		return nil, err
	}
	caFile := filepath.Join(o.Dir, "ca.crt")
	if err := os.WriteFile(caFile, env.Config.CAData, 0o644); err != nil {
		return nil, err
	}
	controllers := o.Controllers
	if controllers == "" {
		controllers = "*"
	}
	args := []string{
		"--kubeconfig=" + kubeconfig,
		"--controllers=" + controllers,
		"--use-service-account-credentials=false",
		"--root-ca-file=" + caFile,
		"--service-account-private-key-file=" + filepath.Join(env.CertDir(), "sa-signer.key"),
		"--leader-elect=false",
		"--secure-port=0",
		"--v=2",
	}
	return Start(o.Dir, KubeControllerManager, bin, append(args, o.ExtraArgs...)...)
}
