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

// Package secondarynetwork wires slicekit's secondary-network (Multus)
// EndpointSlice controller: an instance of slicekit's one Service
// controller (github.com/slicekit/slicekit/pkg/slicecontroller,
// Labelled ownership) with the network-status source
// (github.com/slicekit/slicekit/pkg/source/networkstatus).
//
// A Service handed to it with the KEP-4770 label
//
//	service.kubernetes.io/endpoint-controller-name: secondary-network.slicekit.dev
//
// (the controller's configured name) and naming its network(s) with the
// multus-service annotation
//
//	k8s.v1.cni.cncf.io/service-network: net-a            # the Service's namespace
//	k8s.v1.cni.cncf.io/service-network: ns-b/net-b, net-a@net2
//
// gets EndpointSlices, with managed-by = the controller's name, holding
// each selected Pod's addresses on those networks, read from the Pod's
// k8s.v1.cni.cncf.io/network-status annotation, and never its
// status.podIPs. Everything else about the endpoints (readiness,
// terminating, nodeName, zone, hostname, named target ports, packing,
// placeholders, labels, owner references, trigger time, hints) is the
// default controller's. Because of the label, slicekit's default
// EndpointSlice controller writes no slice for the Service (and deletes
// those it wrote), so consumers never see primary and secondary addresses
// under one service name, the fault of multus-service issues #6, #7 and
// #12 (testdata/cases/19-secondary-network-multus).
//
// The NetworkAttachmentDefinition custom resource is never read: the
// controller needs neither the CRD nor RBAC for it.
//
// Usage:
//
//	c, err := secondarynetwork.New(ctx, client, factory, secondarynetwork.Options{ControllerName: "secondary.example.com"})
//	factory.Start(ctx.Done())
//	err = c.Run(ctx, 5)
//
// New installs no informer transform, so the caches hold whole objects.
// To trim them as `slicekit run` does, compose the transforms of every
// controller on the factory before starting it; Registration.Reads keeps
// the network-status annotations:
//
//	err := informertransform.Compose(endpointslice.Registration.Reads, secondarynetwork.Registration.Reads).Install(factory)
package secondarynetwork
