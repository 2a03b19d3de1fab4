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
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// StartEnv starts a control plane for the calling test (see [New]) and stops
// it with t.Cleanup. It fails the test, asking to run `make controlplane`
// first, if the binaries are missing; it never skips.
func StartEnv(t testing.TB) *Env {
	t.Helper()
	env, err := New(Options{})
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("testenv: stopping control plane: %v", err)
		}
	})
	t.Logf("testenv: control plane at %s started in %v", env.Host(), env.StartDuration.Round(time.Millisecond))
	return env
}

// Start starts a control plane for the calling test, stops it with
// t.Cleanup, and returns an admin REST config for it. See [StartEnv].
func Start(t testing.TB) *rest.Config {
	t.Helper()
	return StartEnv(t).Config
}

var shared struct {
	mu      sync.Mutex
	inMain  bool
	env     *Env
	err     error
	started bool
}

// Main runs a package's tests with a control plane shared by every test
// that calls [Shared], started by the first such test, and stopped after
// the last test. Call it from TestMain:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
// It calls os.Exit with the tests' exit code (1 if stopping fails).
func Main(m *testing.M) {
	shared.mu.Lock()
	shared.inMain = true
	shared.mu.Unlock()

	code := m.Run()

	shared.mu.Lock()
	env := shared.env
	shared.env = nil
	shared.mu.Unlock()
	if err := env.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "testenv: stopping shared control plane: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Shared returns the package's shared control plane, starting it on first
// use. It requires TestMain to call [Main], which stops it; without that the
// etcd and kube-apiserver processes would outlive the test binary, so
// Shared fails the test instead. If the start failed, every later call
// fails with the same error without retrying.
//
// Tests sharing a control plane see each other's objects: give each test
// its own namespace (see [Namespace]) and do not rely on cluster-wide
// state.
func Shared(t testing.TB) *Env {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.inMain {
		t.Fatalf("testenv.Shared needs the package's TestMain to call testenv.Main: func TestMain(m *testing.M) { testenv.Main(m) }")
	}
	if !shared.started {
		shared.started = true
		shared.env, shared.err = New(Options{})
		if shared.err == nil {
			t.Logf("testenv: shared control plane at %s started in %v",
				shared.env.Host(), shared.env.StartDuration.Round(time.Millisecond))
		}
	}
	if shared.err != nil {
		t.Fatalf("%v", shared.err)
	}
	return shared.env
}

// Namespace creates a namespace with a generated name ("test-" plus a
// random suffix) through client, returns its name, and deletes it with
// t.Cleanup. With no namespace controller running, a deleted namespace
// stays Terminating with its contents in place; that is harmless for tests.
func Namespace(t testing.TB, client kubernetes.Interface) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ns, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "test-"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("testenv: creating namespace: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// Cleanups run last-in first-out, so a control plane started
		// before this call is still running here.
		err := client.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("testenv: deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}
