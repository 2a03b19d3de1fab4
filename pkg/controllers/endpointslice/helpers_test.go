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

package endpointslice

import (
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testobjects"
)

// Test objects of the transform and Run tests (the controller's own tests
// are in pkg/slicecontroller, dropin_*_test.go).

const (
	testNS = testobjects.Namespace
	self   = wellknown.EndpointSliceControllerName
	custom = "custom-ctrl.example.com"
)

// The shared test objects (test/harness/testobjects).
var (
	newService = testobjects.Service
	labelled   = testobjects.Labelled
	newPod     = testobjects.Pod
	newNode    = testobjects.Node
)
