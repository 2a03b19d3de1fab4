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
	"fmt"
	"os"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// readIndex unpacks the tarball at p into dir and returns the image index
// its index.json names.
func readIndex(p, dir string) (v1.ImageIndex, error) {
	if err := extractArchive(p, dir); err != nil {
		return nil, err
	}
	l, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return nil, fmt.Errorf("%s as an OCI layout: %w", p, err)
	}
	m, err := l.IndexManifest()
	if err != nil {
		return nil, err
	}
	if len(m.Manifests) != 1 || !m.Manifests[0].MediaType.IsIndex() {
		return nil, fmt.Errorf("%s: index.json must name one image index, has %d entries", p, len(m.Manifests))
	}
	return l.ImageIndex(m.Manifests[0].Digest)
}

// Push pushes the image index of the tarball at p to ref (remote.WriteIndex,
// credentials from the Docker config as docker login and crane auth write
// them) and returns the pushed digest.
func Push(ctx context.Context, p, ref string) (v1.Hash, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return v1.Hash{}, err
	}
	dir, err := os.MkdirTemp("", "slicekit-image-push-")
	if err != nil {
		return v1.Hash{}, err
	}
	defer os.RemoveAll(dir)
	idx, err := readIndex(p, dir)
	if err != nil {
		return v1.Hash{}, err
	}
	if err := remote.WriteIndex(r, idx, remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		return v1.Hash{}, fmt.Errorf("pushing %s: %w", r, err)
	}
	return idx.Digest()
}
