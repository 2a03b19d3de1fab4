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

package manager

import (
	"runtime"
	"runtime/debug"
)

// Set at link time by release builds (tools/image, `make image`):
//
//	go build -ldflags "-X github.com/slicekit/slicekit/pkg/manager.version=v1.2.3 -X github.com/slicekit/slicekit/pkg/manager.revision=<commit>"
//
// They take precedence over runtime/debug.ReadBuildInfo, which reports
// "(devel)" and no revision when the build has no VCS stamping (for example
// with GOFLAGS=-buildvcs=false or from a source archive).
var (
	version  string
	revision string
	// buildTime is the commit time (RFC 3339) of revision.
	buildTime string
	// modified is "true" when the work tree had uncommitted changes.
	modified string
)

// BuildInfo describes the running binary, from runtime/debug.ReadBuildInfo
// and the link-time variables above.
type BuildInfo struct {
	// Module is the main module's path.
	Module string `json:"module"`
	// Version is the main module's version: a tag or pseudo-version when
	// built with VCS stamping or `go install m@v`, "(devel)" otherwise.
	Version string `json:"version"`
	// Revision is the VCS revision ("" when not stamped).
	Revision string `json:"revision,omitempty"`
	// Time is the VCS commit time ("" when not stamped).
	Time string `json:"time,omitempty"`
	// Modified reports uncommitted changes at build time.
	Modified bool `json:"modified,omitempty"`
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string `json:"goVersion"`
	// Platform is GOOS/GOARCH.
	Platform string `json:"platform"`
}

// ReadBuildInfo returns the build information of the running binary: the
// version, revision and time stamped with -ldflags -X when set, else those
// of runtime/debug.ReadBuildInfo. The fields are "unknown" or empty when the
// binary carries none (for example in some test binaries).
func ReadBuildInfo() BuildInfo {
	bi := readBuildInfo()
	if version != "" {
		bi.Version = version
	}
	if revision != "" {
		bi.Revision = revision
		bi.Modified = modified == "true"
	}
	if buildTime != "" {
		bi.Time = buildTime
	}
	return bi
}

// readBuildInfo returns what runtime/debug.ReadBuildInfo knows.
func readBuildInfo() BuildInfo {
	bi := BuildInfo{
		Module:    "github.com/slicekit/slicekit",
		Version:   "unknown",
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return bi
	}
	if info.Main.Path != "" {
		bi.Module = info.Main.Path
	}
	if info.Main.Version != "" {
		bi.Version = info.Main.Version
	}
	if info.GoVersion != "" {
		bi.GoVersion = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			bi.Revision = s.Value
		case "vcs.time":
			bi.Time = s.Value
		case "vcs.modified":
			bi.Modified = s.Value == "true"
		}
	}
	return bi
}

// UserAgent returns the user agent of slicekit's API clients:
// "slicekit/<version> (<platform>)".
func (b BuildInfo) UserAgent() string {
	return UserAgent + "/" + b.Version + " (" + b.Platform + ")"
}
