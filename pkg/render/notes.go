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

package render

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// AnnotationStubNode marks a Node that StubNodes made up (its value says
// why); `render --with-inputs` prints such Nodes with it.
const AnnotationStubNode = "render.slicekit.dev/stub-node"

// StubNodes returns, when objs hold no Node at all but Pods (whole or
// compact records, ReadFilesCompact) that name one (spec.nodeName), a Node of each such name (no labels, so no zone; marked
// with AnnotationStubNode), sorted by name, and a note saying so; else nil
// and "".
//
// Why: KCM's EndpointSlice controller skips a Pod whose Node it does not
// know (k8s.io/endpointslice reconciler.go reconcileByAddressType, behaviour
// C18), and so does render, faithfully. In a cluster the Nodes of running
// Pods exist; a dump without any Node (`kubectl get svc,pods -o yaml`) left
// them out rather than describing a cluster without Nodes. Without stubs
// render would publish no Pod at all, while `slicekit check -f` on the same
// dump (which judges Node existence only when the input has Nodes) expects
// them published. With some Nodes in the input nothing is made up: a Pod
// on a Node the input lacks is skipped, as KCM skips it.
func StubNodes(objs []runtime.Object) ([]runtime.Object, string) {
	names := map[string]bool{}
	for _, o := range objs {
		if _, ok := o.(*corev1.Node); ok {
			return nil, ""
		}
		if pod, ok := podcache.FromObject(o); ok && pod.Spec.NodeName != "" {
			names[pod.Spec.NodeName] = true
		}
	}
	if len(names) == 0 {
		return nil, ""
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)
	stubs := make([]runtime.Object, 0, len(sorted))
	for _, n := range sorted {
		stubs = append(stubs, &corev1.Node{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: metav1.ObjectMeta{Name: n, Annotations: map[string]string{
				AnnotationStubNode: "the input has no Nodes; made up because a Pod names it",
			}},
		})
	}
	return stubs, fmt.Sprintf("the input has no Nodes: rendering as if the %d Node(s) its Pods name exist (%s), without zones; give the Nodes (kubectl get nodes -o yaml) for zones and topology hints",
		len(sorted), abbreviate(sorted, 5))
}

// Notes returns what a user of render should know about the result res of
// rendering in, beyond the controllers' warnings: the Pods that no
// controller can publish because their status has no IP (named, up to
// five), and each Service labelled service.kubernetes.io/endpoint-controller-name
// (KEP-4770) for a controller that wrote no slice of it: the built-in
// controllers step aside for it, so without that controller enabled
// (--controllers) it has no slices at all.
func Notes(in []runtime.Object, res *Result) []string {
	var notes, noIP []string
	written := map[string]bool{} // namespace/service-name/managed-by
	for _, s := range res.EndpointSlices {
		written[s.Namespace+"/"+s.Labels[discovery.LabelServiceName]+"/"+s.Labels[discovery.LabelManagedBy]] = true
	}
	for _, o := range in {
		if pod, ok := podcache.FromObject(o); ok {
			if pod.Status.PodIP == "" && len(pod.Status.PodIPs) == 0 && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed {
				noIP = append(noIP, pod.Namespace+"/"+pod.Name)
			}
			continue
		}
		switch o := o.(type) {
		case *corev1.Service:
			v, ok := o.Labels[wellknown.LabelEndpointControllerName]
			if ok && o.Spec.Type != corev1.ServiceTypeExternalName && !written[o.Namespace+"/"+o.Name+"/"+v] {
				notes = append(notes, fmt.Sprintf("Service %s/%s is labelled %s=%q (KEP-4770): the built-in controllers leave it to that controller, which wrote no slice of it here (render runs only slicekit's controllers, each when enabled with --controllers and named by its flag)",
					o.Namespace, o.Name, wellknown.LabelEndpointControllerName, v))
			}
		}
	}
	if len(noIP) > 0 {
		slices.Sort(noIP)
		notes = append([]string{fmt.Sprintf("%d Pod(s) have no IP in their status (not started yet, or the dump lacks status): no controller publishes them: %s",
			len(noIP), abbreviate(noIP, 5))}, notes...)
	}
	return notes
}

// abbreviate joins the first max names and says how many more there are.
func abbreviate(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}
