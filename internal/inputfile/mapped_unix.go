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

//go:build unix

package inputfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the regular file f (of size bytes) read-only. It returns
// the mapping and a function that drops the mapping's pages from the
// process's memory (MADV_DONTNEED: read again, they come back from the
// page cache or the file, the same bytes), or ok false when the file is
// not mapped (then the caller reads it).
func mapFile(f *os.File, size int64) (data []byte, drop func(), ok bool) {
	if size < mapMin || int64(int(size)) != size {
		return nil, nil, false
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	return data, func() { _ = unix.Madvise(data, unix.MADV_DONTNEED) }, true
}
