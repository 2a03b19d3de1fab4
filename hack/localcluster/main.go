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

// Command localcluster runs a local Kubernetes control plane (etcd and
// kube-apiserver from bin/, built by `make controlplane`) for `make up` and
// demos, until it gets SIGTERM or SIGINT.
//
// Once the API server is ready it writes an admin kubeconfig (default
// .local/kubeconfig) and prints where it is; on SIGTERM/SIGINT it removes
// the kubeconfig and stops the API server and etcd, whose data and
// certificates live in temporary directories and are removed with them.
// There are no controllers, scheduler or kubelets.
//
// Usage:
//
//	localcluster [-kubeconfig PATH] [-port N] [-log PATH]
//	localcluster -check [-kubeconfig PATH] [-timeout D]
//
// With -check it does not start anything: it exits 0 once the API server
// named by the kubeconfig answers /readyz, or 1 after the timeout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/slicekit/slicekit/test/harness/testenv"
)

// contextName is the cluster, user and context name in the kubeconfig.
const contextName = "slicekit-local"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "localcluster: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	localDir := ".local"
	if root, err := testenv.RepoRoot(); err == nil {
		localDir = filepath.Join(root, ".local")
	}
	// A FlagSet of our own: controller-runtime registers a global
	// -kubeconfig flag on flag.CommandLine.
	fs := flag.NewFlagSet(filepath.Base(os.Args[0]), flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", filepath.Join(localDir, "kubeconfig"), "where to write the admin kubeconfig")
	port := fs.Int("port", 0, "API server port on 127.0.0.1 (0: any free port)")
	logPath := fs.String("log", filepath.Join(localDir, "controlplane.log"), "file for etcd and kube-apiserver output (\"-\": stderr)")
	check := fs.Bool("check", false, "only wait until the API server in -kubeconfig answers /readyz")
	timeout := fs.Duration("timeout", 2*time.Minute, "with -check: how long to wait")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	ctrllog.SetLogger(klog.NewKlogr())

	if *check {
		return waitReady(*kubeconfig, *timeout)
	}
	return serve(*kubeconfig, *port, *logPath)
}

func serve(kubeconfig string, port int, logPath string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	// A kubeconfig left by an earlier run points at a dead server.
	if err := os.Remove(kubeconfig); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}

	var out io.Writer = os.Stderr
	if logPath != "-" {
		if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
			return err
		}
		f, err := os.Create(logPath)
		if err != nil {
			return err
		}
		defer func() { _ = f.Close() }()
		out = f
	}

	fmt.Println("localcluster: starting etcd and kube-apiserver ...")
	env, err := testenv.New(testenv.Options{SecurePort: port, Output: out})
	if err != nil {
		return err
	}
	defer func() {
		fmt.Println("localcluster: stopping kube-apiserver and etcd ...")
		if err := env.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "localcluster: stopping: %v\n", err)
			return
		}
		fmt.Println("localcluster: stopped")
	}()
	if err := env.WriteKubeConfig(kubeconfig, contextName); err != nil {
		return err
	}
	defer func() { _ = os.Remove(kubeconfig) }()

	v, err := env.Client.Discovery().ServerVersion()
	if err != nil {
		return fmt.Errorf("reading server version: %w", err)
	}
	fmt.Printf("localcluster: kube-apiserver %s at %s ready in %v (pid %d)\n",
		v.GitVersion, env.Host(), env.StartDuration.Round(time.Millisecond), os.Getpid())
	fmt.Printf("localcluster: kubeconfig %s (context %s)\n", kubeconfig, contextName)
	fmt.Printf("localcluster: API server certificates and service-account keys in %s\n", env.CertDir())
	if logPath != "-" {
		fmt.Printf("localcluster: control-plane output in %s\n", logPath)
	}
	fmt.Println("localcluster: running until SIGTERM or SIGINT")

	<-ctx.Done()
	return nil
}

// waitReady polls /readyz on the API server named by kubeconfig until it
// answers "ok" or timeout passes. A missing kubeconfig counts as not ready:
// localcluster writes it only once the API server is up.
func waitReady(kubeconfig string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var last error
	for {
		if last = readyz(ctx, kubeconfig); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("API server in %s not ready after %v: %w", kubeconfig, timeout, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func readyz(ctx context.Context, kubeconfig string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.Timeout = 5 * time.Second
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	body, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
	if err != nil {
		return err
	}
	if string(body) != "ok" {
		return fmt.Errorf("/readyz: %q", body)
	}
	return nil
}
