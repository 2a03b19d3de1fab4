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
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"golang.org/x/crypto/x509roots/fallback/bundle"
)

const (
	// DefaultSourceURL is the org.opencontainers.image.source label.
	DefaultSourceURL = "https://github.com/slicekit/slicekit"
	// BinaryPath is where the image holds slicekit; it is the entrypoint.
	BinaryPath = "/slicekit"
	// CACertificatesPath is where Go's crypto/x509 looks first on Linux.
	CACertificatesPath = "/etc/ssl/certs/ca-certificates.crt"
	// User is the image's user: distroless's "nonroot", which
	// config/manager/deployment.yaml and the chart also run as.
	User = "65532:65532"
	// versionPackage holds the variables -ldflags -X sets (pkg/manager/buildinfo.go).
	versionPackage = "github.com/slicekit/slicekit/pkg/manager"
)

// Platforms are the platforms of the image index, in index order, when
// BuildOptions.Platforms is empty: what `make image` and releases build.
var Platforms = []v1.Platform{{OS: "linux", Architecture: "amd64"}, {OS: "linux", Architecture: "arm64"}}

// ParsePlatforms reads a comma-separated list of os/arch[/variant]
// platforms (go-containerregistry's v1.ParsePlatform, the syntax of
// docker's --platform) for BuildOptions.Platforms. It returns an error for
// a list without linux/amd64 (the tarball's Docker archive half, what
// docker load reads, is the linux/amd64 image), a platform other than
// linux (the image holds a Linux binary and distroless files) and a
// platform named twice.
func ParsePlatforms(s string) ([]v1.Platform, error) {
	var out []v1.Platform
	seen := map[string]bool{}
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		p, err := v1.ParsePlatform(f)
		if err != nil {
			return nil, fmt.Errorf("platform %q: %w", f, err)
		}
		if p.OS != "linux" || p.Architecture == "" {
			return nil, fmt.Errorf("platform %q: want linux/<arch> (the image is a Linux image)", f)
		}
		if seen[p.String()] {
			return nil, fmt.Errorf("platform %q named twice", f)
		}
		seen[p.String()] = true
		out = append(out, *p)
	}
	if !seen["linux/amd64"] {
		return nil, fmt.Errorf("%q lacks linux/amd64 (the tarball's Docker archive half, what docker load reads, is the linux/amd64 image)", s)
	}
	return out, nil
}

// BuildOptions are the inputs of Build.
type BuildOptions struct {
	// Source is the repository root (the root module).
	Source string
	// Output is the tarball to write.
	Output string
	// Image is the reference docker load and containerd name the image by.
	Image string
	// Version, Revision: stamped into the binary and the labels; empty
	// means from git in Source.
	Version, Revision string
	// SourceURL is the org.opencontainers.image.source label.
	SourceURL string
	// Platforms are the index's platforms, in order; empty means Platforms
	// (linux/amd64 and linux/arm64).
	Platforms []v1.Platform
}

// BuildResult tells what Build wrote.
type BuildResult struct {
	Version, Revision, Created string
	IndexDigest                v1.Hash
	Platforms                  []string
}

// Build compiles slicekit for every platform and writes the image index
// as a tarball to o.Output. Its output depends only on the source tree, the
// Go toolchain and the inputs: the creation time is the commit's time, files
// in layers have that time and root ownership.
func Build(ctx context.Context, o BuildOptions) (BuildResult, error) {
	var res BuildResult
	ref, err := name.ParseReference(o.Image)
	if err != nil {
		return res, fmt.Errorf("-image: %w", err)
	}
	if o.SourceURL == "" {
		o.SourceURL = DefaultSourceURL
	}
	g, err := readGit(ctx, o.Source)
	if err != nil {
		return res, err
	}
	if o.Version == "" {
		o.Version = g.version
	}
	if o.Revision == "" {
		o.Revision = g.revision
	}
	res.Version, res.Revision, res.Created = o.Version, o.Revision, g.time.UTC().Format(time.RFC3339)

	tmp, err := os.MkdirTemp("", "slicekit-image-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)

	base, err := baseLayer(g.time)
	if err != nil {
		return res, fmt.Errorf("base layer: %w", err)
	}
	labels := map[string]string{
		"org.opencontainers.image.source":   o.SourceURL,
		"org.opencontainers.image.version":  o.Version,
		"org.opencontainers.image.revision": o.Revision,
		"org.opencontainers.image.created":  res.Created,
		"org.opencontainers.image.title":    "slicekit",
		"org.opencontainers.image.licenses": "Apache-2.0",
	}
	var idx v1.ImageIndex = mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	idx = mutate.Annotations(idx, labels).(v1.ImageIndex)
	platforms := o.Platforms
	if len(platforms) == 0 {
		platforms = Platforms
	}
	for _, p := range platforms {
		bin := filepath.Join(tmp, p.OS+"-"+p.Architecture, "slicekit")
		ldflags := fmt.Sprintf("-s -w -X %[1]s.version=%[2]s -X %[1]s.revision=%[3]s -X %[1]s.buildTime=%[4]s -X %[1]s.modified=%[5]t",
			versionPackage, o.Version, o.Revision, res.Created, g.dirty)
		if err := goBuild(ctx, o.Source, bin, p, ldflags); err != nil {
			return res, err
		}
		img, err := platformImage(base, bin, p, g.time, labels)
		if err != nil {
			return res, fmt.Errorf("%s image: %w", p, err)
		}
		pp := p
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &pp}})
		res.Platforms = append(res.Platforms, p.String())
	}
	if res.IndexDigest, err = idx.Digest(); err != nil {
		return res, err
	}
	if err := os.MkdirAll(filepath.Dir(o.Output), 0o755); err != nil {
		return res, err
	}
	if err := writeArchiveFile(o.Output, ref, idx, g.time); err != nil {
		return res, fmt.Errorf("writing %s: %w", o.Output, err)
	}
	return res, nil
}

// gitInfo is what Build stamps.
type gitInfo struct {
	version, revision string
	time              time.Time
	dirty             bool
}

// readGit asks git in dir for the version (git describe --tags --always
// --dirty), the commit, its time and whether the tree is modified.
func readGit(ctx context.Context, dir string) (gitInfo, error) {
	var g gitInfo
	out := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return strings.TrimSpace(string(b)), nil
	}
	var err error
	if g.version, err = out("describe", "--tags", "--always", "--dirty"); err != nil {
		return g, err
	}
	if g.revision, err = out("rev-parse", "HEAD"); err != nil {
		return g, err
	}
	ts, err := out("log", "-1", "--format=%ct")
	if err != nil {
		return g, err
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return g, fmt.Errorf("commit time %q: %w", ts, err)
	}
	g.time = time.Unix(sec, 0).UTC()
	g.dirty = strings.HasSuffix(g.version, "-dirty")
	return g, nil
}

// goBuild cross-compiles ./cmd/slicekit of the module in src to out: static
// (CGO_ENABLED=0), -trimpath, no VCS stamping (the version comes from
// ldflags, so a source archive without .git builds the same binary).
func goBuild(ctx context.Context, src, out string, p v1.Platform, ldflags string) error {
	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = "go"
	}
	cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", out, "./cmd/slicekit")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Architecture, "GOFLAGS=-mod=readonly")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %w", p, err)
	}
	return nil
}

// caBundle returns the PEM bundle of the unconstrained roots of Mozilla's
// NSS trust store as pinned by golang.org/x/crypto/x509roots/fallback (its
// version is in go.mod, so every build has the same certificates). Roots
// carrying a distrust-after constraint are left out: a PEM file cannot
// express the constraint.
func caBundle() ([]byte, int) {
	var b bytes.Buffer
	n := 0
	for r := range bundle.Roots() {
		if r.Constraint != nil {
			continue
		}
		_ = pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: r.Certificate})
		n++
	}
	return b.Bytes(), n
}

// tarEntry is one file or directory of a layer.
type tarEntry struct {
	name string
	mode int64
	data []byte // nil for a directory
	dir  bool
}

// layerFrom returns a gzip layer of entries, owned by root with time t.
func layerFrom(entries []tarEntry, t time.Time) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, ModTime: t, Format: tar.FormatPAX, Uname: "root", Gname: "root"}
		if e.dir {
			h.Typeflag = tar.TypeDir
			h.Name += "/"
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}, tarball.WithMediaType(types.OCILayer))
}

// baseLayer holds what every platform shares: CA certificates, the user
// and group 65532 (nonroot, home /: the root filesystem is meant to be
// read-only) for tools that resolve names, and a /tmp.
func baseLayer(t time.Time) (v1.Layer, error) {
	certs, n := caBundle()
	if n < 100 {
		return nil, fmt.Errorf("only %d CA certificates in golang.org/x/crypto/x509roots/fallback", n)
	}
	return layerFrom([]tarEntry{
		{name: "etc", mode: 0o755, dir: true},
		{name: "etc/group", mode: 0o644, data: []byte("root:x:0:\nnonroot:x:65532:\n")},
		{name: "etc/passwd", mode: 0o644, data: []byte("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/:/sbin/nologin\n")},
		{name: "etc/ssl", mode: 0o755, dir: true},
		{name: "etc/ssl/certs", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(CACertificatesPath, "/"), mode: 0o644, data: certs},
		{name: "tmp", mode: 0o1777, dir: true},
	}, t)
}

// platformImage returns the image of one platform: base, then the binary.
func platformImage(base v1.Layer, bin string, p v1.Platform, t time.Time, labels map[string]string) (v1.Image, error) {
	data, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	binLayer, err := layerFrom([]tarEntry{{name: strings.TrimPrefix(BinaryPath, "/"), mode: 0o755, data: data}}, t)
	if err != nil {
		return nil, err
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.AppendLayers(img, base, binLayer)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Variant = p.OS, p.Architecture, p.Variant
	cf.Created = v1.Time{Time: t}
	cf.Author = "The slicekit Authors"
	cf.Config.Entrypoint = []string{BinaryPath}
	cf.Config.Cmd = nil
	cf.Config.User = User
	cf.Config.WorkingDir = "/"
	cf.Config.Env = []string{"PATH=/", "SSL_CERT_FILE=" + CACertificatesPath}
	cf.Config.Labels = labels
	for i := range cf.History {
		cf.History[i].Created = v1.Time{Time: t}
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, err
	}
	if img, err = mutate.CreatedAt(img, v1.Time{Time: t}); err != nil {
		return nil, err
	}
	return mutate.Annotations(img, labels).(v1.Image), nil
}
