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

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/slicekit/slicekit/test/harness/procs"
)

// watchOnlyCommand is the first argument that makes benchlive the
// watch-only process instead of the benchmark (runWatchOnly).
const watchOnlyCommand = "watch-only"

// watchOnlySynced is the line the watch-only process prints once its
// caches are filled.
const watchOnlySynced = "watch-only: caches synced"

// runWatchOnly is the watch-only process: plain client-go shared informers
// (no transform, no handler) for the objects both controllers watch (Pods,
// Services, Nodes, EndpointSlices, every namespace), over protobuf as both
// controllers' clients, and nothing else, until ctx ends. Its CPU over a
// window is what receiving and decoding that window's watch events costs
// any client-go controller: the floor under both controllers' CPU.
// args: -kubeconfig FILE.
func runWatchOnly(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet(watchOnlyCommand, flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig of the API server")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *kubeconfig == "" {
		return errors.New("-kubeconfig is required")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return fmt.Errorf("reading %s: %w", *kubeconfig, err)
	}
	// The client settings both controllers use (KCM's options.go, slicekit's
	// pkg/manager): protobuf, no gzip.
	cfg.ContentType = runtime.ContentTypeProtobuf
	cfg.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	cfg.DisableCompression = true
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	synced := []cache.InformerSynced{
		factory.Core().V1().Pods().Informer().HasSynced,
		factory.Core().V1().Services().Informer().HasSynced,
		factory.Core().V1().Nodes().Informer().HasSynced,
		factory.Discovery().V1().EndpointSlices().Informer().HasSynced,
	}
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return ctx.Err()
	}
	fmt.Println(watchOnlySynced)
	<-ctx.Done()
	return nil
}

// startWatchOnly starts the watch-only process (this binary, runWatchOnly)
// with its log in dir and waits until its caches are filled.
func (b *bench) startWatchOnly(ctx context.Context, dir string) (*procs.Proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	p, err := procs.Start(dir, "watch-only", self, watchOnlyCommand, "-kubeconfig", b.kubeconfig)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(b.o.timeout)
	for {
		if log, err := os.ReadFile(p.LogPath); err == nil && strings.Contains(string(log), watchOnlySynced) {
			return p, nil
		}
		err := p.Exited()
		if err == nil && time.Now().After(deadline) {
			err = fmt.Errorf("watch-only process: caches not synced after %v", b.o.timeout)
		}
		if err == nil {
			err = settle(ctx, 100*time.Millisecond)
		}
		if err != nil {
			if serr := p.Stop(); serr != nil {
				err = errors.Join(err, serr)
			}
			return nil, err
		}
	}
}
