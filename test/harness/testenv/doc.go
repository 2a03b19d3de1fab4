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

// Package testenv starts a real, local Kubernetes control plane (etcd and
// kube-apiserver) for integration tests and the local demo cluster.
//
// The binaries are built from source by `make controlplane`
// (hack/build-controlplane.sh) into the repository's bin/ directory; nothing
// is downloaded at test time. The control plane is started through
// sigs.k8s.io/controller-runtime/pkg/envtest, so it is a genuine API server
// with validation, defaulting, generateName, resourceVersions, generation
// bumps, RBAC and the built-in API groups, but with no controllers,
// scheduler or kubelets: nothing acts on the objects a test creates.
//
// A test that needs its own API server calls [Start] (or [StartEnv]); a start
// costs a few seconds, so a package whose tests can share one calls [Shared]
// and stops it from TestMain with [Main]:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		env := testenv.Shared(t)
//		ns := testenv.Namespace(t, env.Client)
//		...
//	}
//
// The binaries are looked up in $SLICEKIT_BIN_DIR if set, else in bin/ of
// the repository root, found by walking up from the working directory to
// the slicekit go.mod. If they are missing, tests fail (they are not
// skipped) and ask to run `make controlplane` first.
package testenv
