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

package inputfile

import (
	"errors"
	"runtime/debug"
	"sync"
	"time"

	"github.com/slicekit/slicekit/pkg/inputkinds"
	"k8s.io/apimachinery/pkg/runtime"
)

// dropEvery is how often decodeFile drops a mapped file's pages while it
// decodes it.
const dropEvery = 250 * time.Millisecond

// decodeFile is decodeObjects of one file. A mapped file's pages are
// dropped from memory every dropEvery while it is decoded, and once more
// after: the splitting and decoding read it about once, front to back, so
// what they read again comes back from the page cache, and the process
// never holds the whole file. A mapped file truncated while it is read
// (reading past its new end is a memory fault) is an error, not a crash.
func decodeFile(f File, kinds inputkinds.Table, compact func(runtime.Object) runtime.Object) ([]Object, []Ignored, error) {
	if f.drop == nil {
		return decodeObjects(f.Name, f.Data, kinds, compact)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(dropEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f.drop()
			}
		}
	})
	objs, ignored, err := decodeObjects(f.Name, f.Data, kinds, compact)
	close(done)
	wg.Wait()
	f.drop()
	return objs, ignored, err
}

// faults records memory faults met reading a mapped file, for the
// goroutines that read it: each calls guard first and defers catch.
type faults struct {
	mu    sync.Mutex
	first error
}

// guard makes a memory fault in the calling goroutine a panic that catch
// can recover (debug.SetPanicOnFault) rather than a crash.
func (*faults) guard() { debug.SetPanicOnFault(true) }

// catch, deferred, recovers a memory fault's panic, records it and calls
// onFault if set; any other panic goes on.
func (fs *faults) catch(onFault func()) {
	r := recover()
	if r == nil {
		return
	}
	if _, fault := r.(interface{ Addr() uintptr }); !fault {
		panic(r)
	}
	fs.mu.Lock()
	if fs.first == nil {
		fs.first = errors.New("the file changed while it was read (truncated?)")
	}
	fs.mu.Unlock()
	if onFault != nil {
		onFault()
	}
}

// err returns the first fault recorded, or nil.
func (fs *faults) err() error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.first
}
