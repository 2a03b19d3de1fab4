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

// Package celpods is the source of slicekit's CEL EndpointSlice
// controllers: a profile's CEL expression chooses, for each Pod a Service
// selects, the IP addresses its endpoints carry, so that most custom
// "Pod → IPs" controllers become a few lines of configuration.
//
// # Profile file
//
// See Config. Each profile has a name (the value of the Service label
// service.kubernetes.io/endpoint-controller-name its controller answers
// to, and the managed-by value of its slices), an addresses expression, an
// optional ready expression, an optional maxEndpointsPerSlice and an
// optional costLimit.
//
// # Expressions
//
// The variables are pod and service, declared as map(string, dyn) and
// bound to the objects' JSON form (Activation: what `kubectl get -o json`
// shows, without managedFields). Declaring them as map(string, dyn) rather
// than as typed objects keeps the field names exactly those of the API
// (pod.status.podIPs, pod.metadata.annotations, service.spec.ports, ...)
// at the price of weaker type checking: field names are checked at run
// time. A missing field is an evaluation error; guard with has(...),
// optional selection (pod.metadata.?annotations[?"key"].orValue("")) or
// 'key' in map.
//
// addresses must be of type list(string) (list(dyn) and dyn are accepted
// by the type checker and checked at run time) and return at most
// MaxAddressesPerPod strings, each an IP address; ready must be of type
// bool (or dyn). The environment (NewEnv) has the standard library,
// optional types, the cel-go extensions strings, lists, sets, math,
// encoders, bindings, two-variable comprehensions and network (ip(),
// cidr(), isIP(), as in Kubernetes CEL), and parseJSON(string) -> dyn.
// Examples:
//
//	pod.status.podIPs.map(p, p.ip).filter(ip, ip.contains(':'))         // IPv6 pod IPs only
//	pod.metadata.annotations['example.com/storage-ips'].split(',')     // IPs from an annotation
//	parseJSON(pod.metadata.annotations['k8s.v1.cni.cncf.io/network-status'])
//	  .filter(n, n.name == 'ns-a/net-a').map(n, n.ips).flatten()       // a Multus network
//
// Expressions are compiled and type-checked at start-up (Compile,
// CompileConfig); errors name the profile and wrap ErrInvalidConfig. At run
// time every evaluation has a cost limit (cel.CostLimit; default
// DefaultCostLimit, Kubernetes' per-expression limit) and is interrupted
// when its context is done. An evaluation error, a cost overrun, a result
// of the wrong type or a string that is not an IP address leaves the Pod
// out: a source.Problem (Warning event on the Service, metric), never a
// failed sync or a crash.
//
// Endpoints: Program.Desired is source.Desired with Program.Source():
// one endpoint per address, families never mixed, duplicates resolved,
// and readiness (or the ready expression as the serving condition),
// terminating, nodeName, zone, hostname and named target ports as in KCM.
//
// Informer transforms: since an expression may read any Pod or Service
// field, the Pods must not be trimmed by an informer transform; see
// the package documentation of pkg/slicecontroller.
package celpods
