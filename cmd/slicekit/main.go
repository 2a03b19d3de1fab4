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

// Command slicekit runs and renders slicekit's EndpointSlice controllers.
// See `slicekit --help` and package
// github.com/slicekit/slicekit/cmd/slicekit/app. Installed as
// kubectl-slicekit it is the kubectl plugin `kubectl slicekit`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/slicekit/slicekit/cmd/slicekit/app"
)

func main() {
	os.Exit(run())
}

// run returns the exit code, so that deferred calls run before os.Exit.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return app.MainArgv(ctx, os.Args, app.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
}
