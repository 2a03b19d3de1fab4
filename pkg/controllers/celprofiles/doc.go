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

// Package celprofiles wires slicekit's CEL EndpointSlice controllers: one
// instance of slicekit's one Service controller
// (github.com/slicekit/slicekit/pkg/slicecontroller, Labelled
// ownership) per profile of a CEL profile file (github.com/slicekit/slicekit/pkg/source/celpods),
// so that choosing which IPs of a Pod back a Service needs a few lines of
// CEL instead of a custom controller.
//
// A profile names the controller (the value of the Service label
// service.kubernetes.io/endpoint-controller-name it answers to, and the
// managed-by value of its slices) and gives an addresses expression over
// pod and service returning the Pod's IPs, optionally a ready expression
// and a max endpoints per slice. Everything else about the endpoints is the
// default controller's.
//
// Every expression is compiled and type-checked by New; a bad one is an
// error naming its profile and wrapping celpods.ErrInvalidConfig (exit code
// 2 in `slicekit run`). At run time each evaluation is cost-limited and
// interruptible; an evaluation error, or a result that is not a list of IP
// strings, leaves the Pod out with a Warning event on the Service and the
// endpoint_slice_cel_controller_pod_problems metrics.
//
// Usage:
//
//	c, err := celprofiles.New(ctx, client, factory, celprofiles.Options{ConfigFile: "profiles.yaml"})
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 5)
//
// New installs no informer transform, so the caches hold whole objects,
// which is what CEL needs: an expression may read any Pod or Service field.
// Registration.Reads declares exactly that (AllPodFields,
// AllServiceFields), so the manager keeps Pods and Services whole while it
// still trims Nodes and EndpointSlices (informertransform.Compose).
package celprofiles
