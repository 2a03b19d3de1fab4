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

// Package conformance is an importable conformance suite for EndpointSlice
// controllers, modelled on gateway-api's conformance suite: a controller
// author points it at a cluster where their controller runs under a name,
// and it creates Services and Pods and asserts the EndpointSlice contract
// the controller must keep, then prints a report.
//
// # Running it
//
// From a test in the implementation's repository:
//
//	func TestConformance(t *testing.T) {
//		conformance.RunConformance(t, conformance.Options{
//			RestConfig:        cfg, // or Client
//			ControllerName:    "my-ctrl.example.com",
//			Implementation:    conformance.Implementation{Name: "my-ctrl", Version: "v0.1.0"},
//			SupportedFeatures: suite.LabelledControllerFeatures(),
//			PodMode:           conformance.PodModeRealPods, // or PodModeStatusSubresource without kubelets
//		})
//	}
//
// ControllerName is both the KEP-4770 label value
// (service.kubernetes.io/endpoint-controller-name) that hands a Service to
// the controller and the managed-by value its slices must carry. A default
// controller (one that serves unlabelled Services, like
// endpointslice-controller.k8s.io) claims suite.SupportDefaultController
// and gets unlabelled Services; any other controller claims
// suite.SupportControllerNameLabel and gets Services labelled with its
// name.
//
// # The contract
//
// The tests (package tests, one Go file and one YAML fixture each, tagged
// with features from package suite) assert: slices appear for the selected
// Pods with the Service-name and managed-by labels, one endpoint per Pod,
// ports resolved (SlicesPublished, NamedTargetPort); they are owned by the
// Service through a controller ownerReference (SlicesOwnedByService); only
// selected, running Pods are published, following relabels, creations and
// deletions (OnlySelectedPods, TerminalPodsExcluded); ready, serving and
// terminating follow readiness and termination, publishNotReadyAddresses
// included (ReadinessConditions, TerminationConditions,
// PublishNotReadyAddresses); nodeName and zone (EndpointTopology); what the
// slices' consumers (kube-proxy, CoreDNS, Istio, MetalLB, ...) assume, as
// the consumer rules of `slicekit check` judge it, under Local traffic
// policies, PreferClose and for a headless Service (ConsumerRules); a slice
// of another controller is never written (ForeignSlicesUntouched); and
// the KEP-4770 hand-over: a default controller stays away from Services
// labelled for another controller and hands them back when the label goes
// (LabelledForOtherController, LabelAddedHandsOver), a custom controller
// removes its slices when the label is removed or changed
// (LabelRemovalHandsBack, LabelChangeHandsOver) and ignores unlabelled
// Services (UnlabelledServicesIgnored). After each passing test,
// `slicekit check` (package pkg/check) must find no error on the
// controller's slices in the test's namespace.
//
// # Timeouts and the report
//
// Every wait comes from config.TimeoutConfig (package utils/config), whose
// fields document the largest value a conformant implementation may need;
// the report records the timeouts used and flags values outside those
// bounds. RunConformance logs the report as a table (test, result,
// features, detail) and returns it; Report.WriteYAML writes the YAML form,
// which RunConformance also writes to $SLICEKIT_CONFORMANCE_REPORT when
// set.
package conformance
