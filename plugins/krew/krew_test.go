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

package krew

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"

	"sigs.k8s.io/yaml"
)

// plugin is the part of krew's Plugin manifest
// (krew.googlecontainertools.github.com/v1alpha2) that the template fills;
// strict decoding rejects any other field.
type plugin struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version          string     `json:"version"`
		Homepage         string     `json:"homepage"`
		ShortDescription string     `json:"shortDescription"`
		Description      string     `json:"description"`
		Caveats          string     `json:"caveats"`
		Platforms        []platform `json:"platforms"`
	} `json:"spec"`
}

type platform struct {
	Selector struct {
		MatchLabels map[string]string `json:"matchLabels"`
	} `json:"selector"`
	URI    string `json:"uri"`
	SHA256 string `json:"sha256"`
	Bin    string `json:"bin"`
}

// render renders the template as krew-release-bot does for tag: the
// addURIAndSha function renders its URL template with the tag and returns
// the uri and sha256 lines (here the digest of the URL, as no archive is
// downloaded).
func render(t *testing.T, tag string) []byte {
	t.Helper()
	src, err := os.ReadFile("slicekit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	funcs := template.FuncMap{"addURIAndSha": func(url, tag string) (string, error) {
		var b bytes.Buffer
		if err := template.Must(template.New("url").Parse(url)).Execute(&b, map[string]string{"TagName": tag}); err != nil {
			return "", err
		}
		sum := sha256.Sum256(b.Bytes())
		return fmt.Sprintf("uri: %s\n    sha256: %s", b.String(), hex.EncodeToString(sum[:])), nil
	}}
	tmpl, err := template.New("slicekit.yaml").Funcs(funcs).Parse(string(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, map[string]string{"TagName": tag}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestManifest checks the rendered template against krew's manifest rules
// (krew's pkg/index/validation): the plugin name, a semantic version with
// a "v", a short description, and per platform a selector, an https uri, a
// sha256 and the binary; plus slicekit's archive names (make
// plugin-archives) and platforms.
func TestManifest(t *testing.T) {
	const tag = "v1.2.3"
	var p plugin
	if err := yaml.UnmarshalStrict(render(t, tag), &p); err != nil {
		t.Fatalf("rendered manifest: %v", err)
	}
	if p.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || p.Kind != "Plugin" {
		t.Errorf("apiVersion %q kind %q", p.APIVersion, p.Kind)
	}
	// kubectl runs the plugin kubectl-<name>; the binary acts as the
	// plugin under the name kubectl-slicekit (cmd/slicekit/app.PluginName).
	if p.Metadata.Name != "slicekit" {
		t.Errorf("name %q, want slicekit", p.Metadata.Name)
	}
	if p.Spec.Version != tag {
		t.Errorf("version %q, want %q", p.Spec.Version, tag)
	}
	if p.Spec.ShortDescription == "" || len(p.Spec.ShortDescription) > 50 || strings.Contains(p.Spec.ShortDescription, "\n") {
		t.Errorf("shortDescription %q: want one line of at most 50 characters", p.Spec.ShortDescription)
	}
	if !strings.HasPrefix(p.Spec.Homepage, "https://") || p.Spec.Description == "" {
		t.Errorf("homepage %q or description missing", p.Spec.Homepage)
	}
	var got []string
	sha := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for _, pl := range p.Spec.Platforms {
		osName, arch := pl.Selector.MatchLabels["os"], pl.Selector.MatchLabels["arch"]
		got = append(got, osName+"/"+arch)
		archive := fmt.Sprintf("/releases/download/%s/slicekit_%s_%s_%s.tar.gz", tag, tag, osName, arch)
		if !strings.HasPrefix(pl.URI, "https://") || !strings.HasSuffix(pl.URI, archive) {
			t.Errorf("%s/%s: uri %q, want https://...%s", osName, arch, pl.URI, archive)
		}
		if !sha.MatchString(pl.SHA256) {
			t.Errorf("%s/%s: sha256 %q", osName, arch, pl.SHA256)
		}
		want := "slicekit"
		if osName == "windows" {
			want += ".exe"
		}
		if pl.Bin != want {
			t.Errorf("%s/%s: bin %q, want %q", osName, arch, pl.Bin, want)
		}
	}
	slices.Sort(got)
	if want := []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64"}; !slices.Equal(got, want) {
		t.Errorf("platforms %v, want %v", got, want)
	}
}

// TestMakefileBuildsTheArchives keeps the Makefile's plugin-archives target
// and the template's platforms and archive names in step.
func TestMakefileBuildsTheArchives(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"PLUGIN_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64",
		"slicekit_$(PLUGIN_VERSION)_$${os}_$${arch}",
		`tar -C "$$dir" -czf "$$dir.tar.gz" "slicekit$$ext" LICENSE`,
	} {
		if !bytes.Contains(mk, []byte(want)) {
			t.Errorf("Makefile lacks %q", want)
		}
	}
}
