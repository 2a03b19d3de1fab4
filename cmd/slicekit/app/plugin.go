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

package app

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// PluginName is the file name under which kubectl finds slicekit as a
// plugin: with an executable kubectl-slicekit on PATH (a copy of, or a
// symbolic link to, the slicekit binary, or a krew install),
// `kubectl slicekit check|render|version` runs it.
const PluginName = "kubectl-slicekit"

// pluginDisplayName is how the plugin names itself in help and errors.
const pluginDisplayName = "kubectl slicekit"

// IsPlugin reports whether argv0, the program name the process was started
// with, is the kubectl plugin's: its base name is PluginName, with ".exe"
// on Windows. kubectl starts plugins with the plugin's path as argv[0].
func IsPlugin(argv0 string) bool {
	// Both separators: argv[0] of a Windows path seen on any system.
	base := argv0[strings.LastIndexAny(argv0, `/\`)+1:]
	if ext := filepath.Ext(base); strings.EqualFold(ext, ".exe") {
		base = strings.TrimSuffix(base, ext)
	}
	return base == PluginName
}

// MainArgv runs the command line argv (argv[0] is the program name) and
// returns the exit code: as the kubectl plugin (NewPluginCommand) when
// IsPlugin(argv[0]), else as slicekit (NewRootCommand).
func MainArgv(ctx context.Context, argv []string, s Streams) int {
	if len(argv) == 0 {
		return Main(ctx, nil, s)
	}
	if !IsPlugin(argv[0]) {
		return Main(ctx, argv[1:], s)
	}
	root := NewPluginCommand(s)
	root.SetArgs(argv[1:])
	cmd, err := root.ExecuteContextC(ctx)
	path := root.CommandPath()
	if cmd != nil {
		path = cmd.CommandPath() // "kubectl slicekit check", as in usage errors
	}
	return exitCode(path, err, s.Err)
}

// NewPluginCommand returns the kubectl plugin's command, `kubectl slicekit`:
// check (with kubectl's connection flags --kubeconfig, --context,
// -n/--namespace, -A/--all-namespaces, --as, ...), render and version, as
// `slicekit` runs them. The controller manager (run) is not part of the
// plugin: it runs in the cluster.
func NewPluginCommand(s Streams) *cobra.Command {
	root := NewRootCommand(s)
	root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: pluginDisplayName}
	root.Short = "Check and render EndpointSlices (slicekit as a kubectl plugin)"
	root.Long = `kubectl slicekit checks the EndpointSlices of a cluster or of dumps against the
EndpointSlice contract, for any controller (check), and renders offline what
slicekit's EndpointSlice controllers would write (render).

Install: put the slicekit binary on PATH as kubectl-slicekit (a copy or a
symbolic link; make install-plugin), or with krew (plugins/krew/slicekit.yaml).`
	for _, c := range root.Commands() {
		if c.Name() == "run" {
			root.RemoveCommand(c)
		}
	}
	return root
}
