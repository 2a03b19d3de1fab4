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
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// TestParsePlatforms: the -platforms flag of image build (make image's
// IMAGE_PLATFORMS).
func TestParsePlatforms(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "linux/amd64,linux/arm64", want: "linux/amd64 linux/arm64"},
		{in: " linux/arm64 , linux/amd64 ", want: "linux/arm64 linux/amd64"},
		{in: "linux/amd64,linux/arm/v7", want: "linux/amd64 linux/arm/v7"},
		{in: "linux/amd64", want: "linux/amd64"},
		{in: "", err: "lacks linux/amd64"},
		{in: ",", err: "lacks linux/amd64"},
		{in: "linux/arm64", err: "lacks linux/amd64"},
		{in: "linux/amd64,windows/amd64", err: "want linux/<arch>"},
		{in: "linux", err: "want linux/<arch>"},
		{in: "linux/amd64,linux/amd64", err: "named twice"},
	} {
		got, err := ParsePlatforms(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePlatforms(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.err)
			}
			continue
		}
		var s []string
		for _, p := range got {
			s = append(s, p.String())
		}
		if err != nil || strings.Join(s, " ") != tc.want {
			t.Errorf("ParsePlatforms(%q) = %v, %v; want %s", tc.in, s, err, tc.want)
		}
	}
	// The default (make image, releases) is both platforms.
	if len(Platforms) != 2 || Platforms[0].String() != "linux/amd64" || Platforms[1].String() != "linux/arm64" {
		t.Errorf("default platforms %v", Platforms)
	}
}

// TestBuild builds the image tarball as 'make image' does, then reads it
// back the way each consumer does (an OCI layout for containerd/kind and
// make image-push, a Docker archive for docker load and crane push), checks
// the index, the configs, the layers, and runs the amd64 binary. It builds
// the linux/amd64 platform only: the arm64 half is the same code path with
// another GOARCH, and cross-compiling slicekit for it costs CI about five
// minutes on a cold cache (docs/testing.md); `make image` builds both.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles slicekit")
	}
	const ref = "registry.example/slicekit/slicekit:test"
	out := filepath.Join(t.TempDir(), "slicekit-image.tar")
	amd64 := []v1.Platform{{OS: "linux", Architecture: "amd64"}}
	res, err := Build(t.Context(), BuildOptions{Source: "../..", Output: out, Image: ref, Platforms: amd64})
	if err != nil {
		t.Fatal(err)
	}
	if res.Version == "" || res.Version == "(devel)" || len(res.Revision) != 40 {
		t.Fatalf("version %q revision %q", res.Version, res.Revision)
	}

	// The OCI layout: index.json names the index with both platforms.
	idx, err := readIndex(out, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := idx.Digest(); d != res.IndexDigest {
		t.Errorf("index digest %s, Build reported %s", d, res.IndexDigest)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	var platforms []string
	images := map[string]v1.Image{}
	for _, d := range im.Manifests {
		if d.Platform == nil {
			t.Fatalf("index entry %s has no platform", d.Digest)
		}
		platforms = append(platforms, d.Platform.String())
		img, err := idx.Image(d.Digest)
		if err != nil {
			t.Fatal(err)
		}
		images[d.Platform.String()] = img
	}
	if want := []string{"linux/amd64"}; !slices.Equal(platforms, want) || !slices.Equal(res.Platforms, want) {
		t.Errorf("platforms %v, want %v", platforms, want)
	}
	topAnnotations := readTopIndexAnnotations(t, out)
	if topAnnotations[annotationContainerdName] != ref || topAnnotations[annotationRefName] != "test" {
		t.Errorf("index.json annotations %v do not name %s", topAnnotations, ref)
	}

	wantLabels := map[string]string{
		"org.opencontainers.image.source":   DefaultSourceURL,
		"org.opencontainers.image.version":  res.Version,
		"org.opencontainers.image.revision": res.Revision,
	}
	for p, img := range images {
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		if got := cf.OS + "/" + cf.Architecture; got != p {
			t.Errorf("%s: config platform %s", p, got)
		}
		if !slices.Equal(cf.Config.Entrypoint, []string{BinaryPath}) || cf.Config.User != "65532:65532" {
			t.Errorf("%s: entrypoint %q user %q", p, cf.Config.Entrypoint, cf.Config.User)
		}
		for k, v := range wantLabels {
			if cf.Config.Labels[k] != v {
				t.Errorf("%s: label %s=%q, want %q", p, k, cf.Config.Labels[k], v)
			}
		}
		files := layerFiles(t, img)
		for name := range files {
			base := filepath.Base(name)
			if base == "sh" || base == "bash" || base == "busybox" || strings.HasPrefix(name, "bin/") {
				t.Errorf("%s: the image holds %s (no shell wanted)", p, name)
			}
		}
		if _, ok := files["slicekit"]; !ok {
			t.Errorf("%s: no /slicekit", p)
		}
		checkCABundle(t, files[strings.TrimPrefix(CACertificatesPath, "/")])
		if !strings.Contains(string(files["etc/passwd"]), ":65532:65532:") {
			t.Errorf("%s: /etc/passwd lacks user 65532", p)
		}
	}

	// The Docker archive half, as docker load and crane push read it.
	dimg, err := tarball.ImageFromPath(out, mustTag(t, ref))
	if err != nil {
		t.Fatalf("reading %s as a Docker archive: %v", out, err)
	}
	// A Docker archive has no manifest of its own: compare config and layers.
	dc, _ := dimg.ConfigName()
	ac, _ := images["linux/amd64"].ConfigName()
	if dc != ac {
		t.Errorf("manifest.json's image has config %s, the amd64 image %s", dc, ac)
	}
	dl, _ := dimg.Layers()
	al, _ := images["linux/amd64"].Layers()
	if len(dl) != len(al) {
		t.Errorf("manifest.json's image has %d layers, the amd64 image %d", len(dl), len(al))
	}
	for i := range min(len(dl), len(al)) {
		d1, _ := dl[i].Digest()
		d2, _ := al[i].Digest()
		if d1 != d2 {
			t.Errorf("layer %d: manifest.json %s, index %s", i, d1, d2)
		}
	}

	// make image-push: push the index to a registry (go-containerregistry's
	// in-memory one) and read it back.
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer srv.Close()
	pushRef := strings.TrimPrefix(srv.URL, "http://") + "/slicekit/slicekit:pushed"
	pushed, err := Push(t.Context(), out, pushRef)
	if err != nil {
		t.Fatalf("Push: %v", err)
	}
	if pushed != res.IndexDigest {
		t.Errorf("pushed %s, built %s", pushed, res.IndexDigest)
	}
	remoteIdx, err := remote.Index(mustTag(t, pushRef))
	if err != nil {
		t.Fatalf("reading the pushed index: %v", err)
	}
	if d, _ := remoteIdx.Digest(); d != res.IndexDigest {
		t.Errorf("registry serves index %s, built %s", d, res.IndexDigest)
	}
	if rm, err := remoteIdx.IndexManifest(); err != nil {
		t.Errorf("pushed index: %v", err)
	} else if len(rm.Manifests) != len(amd64) {
		t.Errorf("pushed index has %d manifests, want %d", len(rm.Manifests), len(amd64))
	}

	// Run the amd64 binary from its layer.
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("cannot run linux/amd64 binaries on %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	bin := filepath.Join(t.TempDir(), "slicekit")
	if err := os.WriteFile(bin, layerFiles(t, images["linux/amd64"])["slicekit"], 0o755); err != nil {
		t.Fatal(err)
	}
	outb, err := exec.Command(bin, "version", "-o", "json").Output()
	if err != nil {
		t.Fatalf("slicekit version: %v", err)
	}
	var bi struct{ Version, Revision, Platform string }
	if err := json.Unmarshal(outb, &bi); err != nil {
		t.Fatalf("slicekit version -o json: %v\n%s", err, outb)
	}
	if bi.Version != res.Version || bi.Revision != res.Revision || bi.Platform != "linux/amd64" {
		t.Errorf("slicekit version says %+v, want version %s revision %s on linux/amd64", bi, res.Version, res.Revision)
	}
	text, err := exec.Command(bin, "version").Output()
	if err != nil || strings.Contains(string(text), "(devel)") || !strings.Contains(string(text), "slicekit "+res.Version) {
		t.Errorf("slicekit version: %v\n%s", err, text)
	}
}

func mustTag(t *testing.T, ref string) *name.Tag {
	t.Helper()
	tag, err := name.NewTag(ref)
	if err != nil {
		t.Fatal(err)
	}
	return &tag
}

// readTopIndexAnnotations returns the annotations of index.json's entry.
func readTopIndexAnnotations(t *testing.T, p string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if err := extractArchive(p, dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m v1.IndexManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Manifests) != 1 {
		t.Fatalf("index.json has %d entries", len(m.Manifests))
	}
	return m.Manifests[0].Annotations
}

// layerFiles returns the regular files of img's layers by path.
func layerFiles(t *testing.T, img v1.Image) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	ls, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		rc, err := l.Uncompressed()
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Uid != 0 || h.Gid != 0 {
				t.Errorf("%s owned by %d:%d, want root", h.Name, h.Uid, h.Gid)
			}
			if h.Typeflag == tar.TypeReg {
				var b bytes.Buffer
				if _, err := io.Copy(&b, tr); err != nil {
					t.Fatal(err)
				}
				files[h.Name] = b.Bytes()
			}
		}
		rc.Close()
	}
	return files
}

func checkCABundle(t *testing.T, data []byte) {
	t.Helper()
	n := 0
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if _, err := x509.ParseCertificate(b.Bytes); err != nil {
			t.Errorf("CA bundle: %v", err)
		}
		n++
	}
	if n < 100 || len(bytes.TrimSpace(data)) != 0 {
		t.Errorf("CA bundle: %d certificates, %d trailing bytes", n, len(data))
	}
}

// TestRunUsage checks the command line of the tool.
func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"build", "extra"}, {"push"}, {"build", "-image", "Not A Ref"}} {
		if err := run(t.Context(), args); err == nil {
			t.Errorf("run %q: no error", args)
		}
	}
}
