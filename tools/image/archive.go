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
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The tarball's format. It is an OCI image layout (oci-layout, index.json,
// blobs/sha256/...) whose index.json names one image index (linux/amd64 and
// linux/arm64), plus a Docker archive manifest.json listing the linux/amd64
// image by its blobs, the layout 'docker save' itself writes since Docker
// 25. Each reader takes the part it understands:
//
//   - docker load: manifest.json (the classic image store loads the amd64
//     image, tagged with the reference); Docker with the containerd image
//     store reads index.json and loads every platform.
//   - kind load image-archive, ctr images import: containerd reads
//     index.json and names the image by its io.containerd.image.name
//     annotation; the index keeps both platforms.
//   - crane push FILE REF: a file is read as a Docker archive
//     (manifest.json): it pushes the amd64 image. To push the multi-arch
//     index, use 'make image-push', or unpack the tarball and run
//     'crane push --index DIR REF' (a directory is read as an OCI layout).
//
// A plain Docker archive (tarball.MultiRefWriteToFile) cannot hold the
// index; a plain OCI layout tarball is not read by the classic 'docker
// load' nor by crane push; this format serves both.

// Annotations on index.json's entry naming the image (as docker save
// writes them).
const (
	annotationContainerdName = "io.containerd.image.name"
	annotationRefName        = "org.opencontainers.image.ref.name"
)

// dockerManifestEntry is one entry of a Docker archive's manifest.json.
type dockerManifestEntry struct {
	Config   string
	RepoTags []string
	Layers   []string
}

func blobPath(h v1.Hash) string { return path.Join("blobs", h.Algorithm, h.Hex) }

// writeArchiveFile writes idx as the tarball described above to p, files
// dated t, the amd64 image named ref in manifest.json.
func writeArchiveFile(p string, ref name.Reference, idx v1.ImageIndex, t time.Time) error {
	blobs := map[string][]byte{}
	var layers []v1.Layer // compressed layers, streamed rather than buffered
	layerPaths := map[string]bool{}
	addRaw := func(h v1.Hash, b []byte) { blobs[blobPath(h)] = b }

	rawIdx, err := idx.RawManifest()
	if err != nil {
		return err
	}
	idxDigest, err := idx.Digest()
	if err != nil {
		return err
	}
	addRaw(idxDigest, rawIdx)
	im, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	var docker []dockerManifestEntry
	for _, desc := range im.Manifests {
		img, err := idx.Image(desc.Digest)
		if err != nil {
			return err
		}
		raw, err := img.RawManifest()
		if err != nil {
			return err
		}
		addRaw(desc.Digest, raw)
		cfgName, err := img.ConfigName()
		if err != nil {
			return err
		}
		rawCfg, err := img.RawConfigFile()
		if err != nil {
			return err
		}
		addRaw(cfgName, rawCfg)
		ls, err := img.Layers()
		if err != nil {
			return err
		}
		entry := dockerManifestEntry{Config: blobPath(cfgName)}
		for _, l := range ls {
			d, err := l.Digest()
			if err != nil {
				return err
			}
			entry.Layers = append(entry.Layers, blobPath(d))
			if !layerPaths[blobPath(d)] {
				layerPaths[blobPath(d)] = true
				layers = append(layers, l)
			}
		}
		if desc.Platform != nil && desc.Platform.OS == "linux" && desc.Platform.Architecture == "amd64" {
			if tag, ok := ref.(name.Tag); ok {
				entry.RepoTags = []string{tag.String()}
			}
			docker = append(docker, entry)
		}
	}
	if len(docker) != 1 {
		return fmt.Errorf("the index has %d linux/amd64 images, want 1", len(docker))
	}

	topIndex := v1.IndexManifest{
		SchemaVersion: 2,
		MediaType:     types.OCIImageIndex,
		Manifests: []v1.Descriptor{{
			MediaType: types.OCIImageIndex,
			Digest:    idxDigest,
			Size:      int64(len(rawIdx)),
			Annotations: map[string]string{
				annotationContainerdName: ref.Name(),
				annotationRefName:        ref.Identifier(),
			},
		}},
	}
	indexJSON, err := json.Marshal(topIndex)
	if err != nil {
		return err
	}
	manifestJSON, err := json.Marshal(docker)
	if err != nil {
		return err
	}

	f, err := os.Create(p + ".tmp")
	if err != nil {
		return err
	}
	defer os.Remove(p + ".tmp")
	tw := tar.NewWriter(f)
	write := func(name string, size int64, r io.Reader) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: size, ModTime: t, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		n, err := io.Copy(tw, r)
		if err == nil && n != size {
			err = fmt.Errorf("%s: wrote %d bytes, want %d", name, n, size)
		}
		return err
	}
	for _, d := range []string{"blobs", "blobs/sha256"} {
		if err := tw.WriteHeader(&tar.Header{Name: d + "/", Mode: 0o755, ModTime: t, Typeflag: tar.TypeDir, Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	for _, e := range []struct {
		name string
		data []byte
	}{{"oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)}, {"index.json", indexJSON}, {"manifest.json", manifestJSON}} {
		if err := write(e.name, int64(len(e.data)), bytes.NewReader(e.data)); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(blobs))
	for n := range blobs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := write(n, int64(len(blobs[n])), bytes.NewReader(blobs[n])); err != nil {
			return err
		}
	}
	sort.Slice(layers, func(i, j int) bool {
		di, _ := layers[i].Digest()
		dj, _ := layers[j].Digest()
		return di.String() < dj.String()
	})
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return err
		}
		size, err := l.Size()
		if err != nil {
			return err
		}
		rc, err := l.Compressed()
		if err != nil {
			return err
		}
		err = write(blobPath(d), size, rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(p+".tmp", p)
}

// extractArchive unpacks the tarball at p into dir (an OCI image layout
// directory afterwards).
func extractArchive(p, dir string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		clean := filepath.Clean(h.Name)
		if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return fmt.Errorf("%s: entry %q outside the archive", p, h.Name)
		}
		target := filepath.Join(dir, clean)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			out, err := os.Create(target)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, tr)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}
