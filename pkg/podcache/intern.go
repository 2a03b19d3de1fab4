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

package podcache

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"weak"

	corev1 "k8s.io/api/core/v1"
)

// The Pods of one workload share their labels (a ReplicaSet's Pods differ
// only in name) and their containers' names and ports, but every decoded
// Pod carries its own copies: a labels map of one or two entries is about
// 350 bytes, more than the rest of a record. Records share them instead:
// New looks each labels map and container list up by content in a table of
// weak pointers, so that a value lives as long as some record uses it and
// its table entry is removed after the last one is collected.

// shared is one interned value; records keep a pointer to it, which keeps
// it alive.
type shared[T any] struct {
	v T
}

// interner is a table of shared values by their content key. The zero
// value is ready to use; it is safe for concurrent use.
type interner[T any] struct {
	mu sync.Mutex
	m  map[string]weak.Pointer[shared[T]]
}

// get returns the shared value whose key is key, or makes one holding v.
func (in *interner[T]) get(key string, v T) *shared[T] {
	in.mu.Lock()
	defer in.mu.Unlock()
	if wp, ok := in.m[key]; ok {
		if s := wp.Value(); s != nil {
			return s
		}
	}
	if in.m == nil {
		in.m = map[string]weak.Pointer[shared[T]]{}
	}
	s := &shared[T]{v: v}
	in.m[key] = weak.Make(s)
	runtime.AddCleanup(s, in.forget, key)
	return s
}

// forget removes key's entry once its value was collected (a later value
// may have taken the key meanwhile: it stays).
func (in *interner[T]) forget(key string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if wp, ok := in.m[key]; ok && wp.Value() == nil {
		delete(in.m, key)
	}
}

// size returns the number of table entries (tests).
func (in *interner[T]) size() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.m)
}

var (
	labelSets     interner[map[string]string]
	containerSets interner[[]container]
)

// internLabels returns the shared labels map equal to labels, or nil for
// an empty one (labels is then used as it is).
func internLabels(labels map[string]string) *shared[map[string]string] {
	if len(labels) == 0 {
		return nil
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		writeField(&b, k)
		writeField(&b, labels[k])
	}
	return labelSets.get(b.String(), labels)
}

// internContainers returns the shared container list equal to cs, or nil
// for an empty one.
func internContainers(cs []container) *shared[[]container] {
	if len(cs) == 0 {
		return nil
	}
	return containerSets.get(internKeyOf(cs), cs)
}

// internKeyOf returns the content key of a container list: every field of
// every container and port, each length-prefixed or separated.
func internKeyOf(cs []container) string {
	var b strings.Builder
	for i := range cs {
		c := &cs[i]
		writeField(&b, c.name)
		b.WriteString(strconv.FormatBool(c.init))
		if c.restartPolicy == nil {
			b.WriteByte('-')
		} else {
			writeField(&b, string(*c.restartPolicy))
		}
		if c.ports == nil {
			b.WriteByte('-')
		} else {
			b.WriteString(strconv.Itoa(len(c.ports)))
		}
		b.WriteByte(':')
		for _, p := range c.ports {
			writePort(&b, p)
		}
	}
	return b.String()
}

// writePort appends every field of a container port to b.
func writePort(b *strings.Builder, p corev1.ContainerPort) {
	writeField(b, p.Name)
	writeField(b, string(p.Protocol))
	writeField(b, p.HostIP)
	b.WriteString(strconv.FormatInt(int64(p.HostPort), 10))
	b.WriteByte(',')
	b.WriteString(strconv.FormatInt(int64(p.ContainerPort), 10))
	b.WriteByte(',')
}

// writeField appends s to b, prefixed with its length so that no two
// different sequences of fields give the same key.
func writeField(b *strings.Builder, s string) {
	b.WriteString(strconv.Itoa(len(s)))
	b.WriteByte(':')
	b.WriteString(s)
}
