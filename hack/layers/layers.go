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

// The declared architecture: layers from the top (may import everything
// below) to the bottom (imports nothing of this module above it), the rules
// beyond layering, and the known exceptions. Edit this file to change the
// architecture on purpose, then run `make architecture`.

// layer is one row of the architecture. A package belongs to the first layer,
// top down, that has a pattern matching its path (relative to the module):
// "a/b" matches that package, "a/b/..." it and every package below it.
type layer struct {
	name string
	// what the layer is, one line for the generated page.
	what     string
	patterns []string
	// independent: the layer's packages never import one another (a
	// package may import those below its own path).
	independent bool
}

// rule forbids imports that layering alone allows.
type rule struct {
	// from: the importing packages (patterns as in layer).
	from []string
	// to: forbidden import paths; patterns of this module's packages, or of
	// other modules when external is set.
	to []string
	// except: patterns of to that are allowed.
	except []string
	// external: the rule is about the transitive dependencies (go list's
	// Deps), of this module or not; otherwise about direct imports of this
	// module's packages.
	external bool
	why      string
}

// exception allows one direct import a rule or the layering forbids, until
// the code is fixed. An exception whose import no longer exists is an error,
// so that it is removed with the import.
type exception struct {
	from, to string
	why      string
}

var layers = []layer{
	{
		name:     "tests and tools",
		what:     "tests, the test harness, the demo helpers, the conformance suite; no product package imports them",
		patterns: []string{"test/...", "hack/...", "conformance/...", "config/...", "plugins/..."},
	},
	{
		name:     "main",
		what:     "the thin main",
		patterns: []string{"cmd/slicekit"},
	},
	{
		name:     "commands",
		what:     "the cobra commands run, render, check, version and the kubectl plugin",
		patterns: []string{"cmd/slicekit/app"},
	},
	{
		name:        "engines",
		what:        "what each command runs: the manager (run), render, check; none imports another",
		patterns:    []string{"pkg/manager", "pkg/render", "pkg/check"},
		independent: true,
	},
	{
		name:     "controller list",
		what:     "the one list of built-in registrations that run, render and check read",
		patterns: []string{"pkg/controllers/builtin"},
	},
	{
		name:        "controllers",
		what:        "one package per controller: a Registration and thin wiring; none imports another",
		patterns:    []string{"pkg/controllers/..."},
		independent: true,
	},
	{
		name:     "contract",
		what:     "what a controller registers and the options the controllers share",
		patterns: []string{"pkg/registry"},
	},
	{
		name:     "Service controller engine",
		what:     "the one Service → EndpointSlice controller and the queue scaffolding the controllers share",
		patterns: []string{"pkg/slicecontroller", "internal/controllerkit", "internal/workqueuemetrics", "internal/serviceindex"},
	},
	{
		name:     "sources and rules",
		what:     "desired endpoints (Service + Pods, Endpoints, network-status, CEL, ...), the address guard, the label rules",
		patterns: []string{"pkg/source/...", "pkg/policy/..."},
	},
	{
		name: "planning",
		what: "the generic reconciler: pure planning apart from writing",
		patterns: []string{"pkg/reconciler", "pkg/reconciler/metrics", "pkg/reconciler/topology",
			"pkg/reconciler/trafficdist", "pkg/reconciler/reconcilertest"},
	},
	{
		name: "foundation",
		what: "names, input kinds, caches and indexes, informer transforms, API-client helpers, input files, the in-memory API server",
		patterns: []string{"pkg/wellknown", "pkg/inputkinds", "pkg/podcache", "pkg/selectorindex", "pkg/informertransform",
			"pkg/admissionpolicy", "pkg/preflight", "pkg/ratelimit", "pkg/reconciler/labelindex", "internal/..."},
	},
}

var rules = []rule{
	{
		from: []string{"pkg/check"},
		to:   []string{"pkg/controllers/..."},
		why:  "check judges slices through the oracles that registrations provide, never through a controller's package",
	},
	{
		from: []string{"pkg/source/..."},
		to:   []string{"pkg/source/servicepods"},
		why:  "the source contract and the other sources share KCM's Pod rules through pkg/source/podendpoint, never through KCM's own source",
	},
	{
		from:     []string{"cmd/...", "pkg/...", "internal/..."},
		to:       []string{"k8s.io/kubernetes/..."},
		external: true,
		why:      "KCM's code is the tests' oracle, kept in modules of their own",
	},
	{
		from:     []string{"pkg/reconciler/..."},
		to:       []string{"github.com/spf13/...", "sigs.k8s.io/controller-runtime/..."},
		external: true,
		why:      "the library stays lean for the projects that import it",
	},
}

var exceptions = []exception{}
