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

// Package suite is the engine of the EndpointSlice controller conformance
// suite, modelled on gateway-api's conformance/utils/suite: the
// ConformanceTest type the tests register, the features they are tagged
// with, the ConformanceTestSuite that runs them (one namespace per test,
// fixtures applied from YAML, Pods made to run either through the status
// subresource or as real Pods), and the ConformanceReport it produces.
//
// Fixtures are plain Services, Pods and EndpointSlices without namespace.
// Container images are ImagePlaceholder. A Pod's initial readiness and
// (without kubelets) phase come from the annotations AnnotationReady and
// AnnotationPhase. A Service is handed to the controller under test with
// ServeLabels unless it names a controller itself or is annotated
// AnnotationServe "false".
package suite
