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

//go:build linux

package dataplane

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// netnsDir is where `ip netns add` mounts named network namespaces.
const netnsDir = "/run/netns"

// run runs a command and returns an error with its output when it fails.
func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// mustRun runs a command and fails t when it fails.
func mustRun(t testing.TB, name string, args ...string) {
	t.Helper()
	if err := run(name, args...); err != nil {
		t.Fatal(err)
	}
}

// addNetNS creates the named network namespace with its loopback up and
// deletes it (with its veths, rules and conntrack entries) at the end of
// the test.
func addNetNS(t testing.TB, name string) {
	t.Helper()
	_ = run("ip", "netns", "delete", name) // a leftover of an interrupted run
	mustRun(t, "ip", "netns", "add", name)
	t.Cleanup(func() {
		if err := run("ip", "netns", "delete", name); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	mustRun(t, "ip", "-n", name, "link", "set", "lo", "up")
}

// sysctl sets key=value inside the network namespace ns.
func sysctl(t testing.TB, ns, key, value string) {
	t.Helper()
	mustRun(t, "ip", "netns", "exec", ns, "sysctl", "-q", "-w", key+"="+value)
}

// setns moves the calling thread into the network namespace open as f.
func setns(f *os.File) error {
	return unix.Setns(int(f.Fd()), unix.CLONE_NEWNET)
}

// inNetNS runs fn on a thread inside the named network namespace: sockets
// fn creates live in that namespace for their whole life. The thread goes
// back to its namespace afterwards; if it cannot, it stays locked and the
// Go runtime discards it when the goroutine ends.
func inNetNS(ns string, fn func() error) error {
	target, err := os.Open(filepath.Join(netnsDir, ns))
	if err != nil {
		return err
	}
	defer func() { _ = target.Close() }()
	runtime.LockOSThread()
	orig, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer func() { _ = orig.Close() }()
	if err := setns(target); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("setns %s: %w", ns, err)
	}
	fnErr := fn()
	if err := setns(orig); err != nil {
		// Never unlock: this thread must not run other goroutines.
		return fmt.Errorf("setns back from %s: %w", ns, err)
	}
	runtime.UnlockOSThread()
	return fnErr
}

// listenIn opens a TCP listener on addr inside the network namespace ns.
func listenIn(ns, addr string) (net.Listener, error) {
	var ln net.Listener
	err := inNetNS(ns, func() error {
		var err error
		ln, err = net.Listen("tcp", addr)
		return err
	})
	return ln, err
}

// dialIn dials address from inside the network namespace ns.
func dialIn(ctx context.Context, ns, network, address string, timeout time.Duration) (net.Conn, error) {
	var c net.Conn
	err := inNetNS(ns, func() error {
		var err error
		c, err = (&net.Dialer{Timeout: timeout}).DialContext(ctx, network, address)
		return err
	})
	return c, err
}

// forwardInto listens on listenAddr inside ns and forwards each connection
// to target, dialled from the test process's own namespace (the host's
// loopback): components in ns reach the API server without any interface
// or route added to the host.
func forwardInto(t testing.TB, ns, listenAddr, target string) {
	t.Helper()
	ln, err := listenIn(ns, listenAddr)
	if err != nil {
		t.Fatalf("forwarder in %s: %v", ns, err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer func() { _ = in.Close() }()
				out, err := net.DialTimeout("tcp", target, 5*time.Second)
				if err != nil {
					return
				}
				defer func() { _ = out.Close() }()
				done := make(chan struct{}, 2)
				go func() { _, _ = io.Copy(out, in); done <- struct{}{} }()
				go func() { _, _ = io.Copy(in, out); done <- struct{}{} }()
				<-done
			}()
		}
	}()
}
