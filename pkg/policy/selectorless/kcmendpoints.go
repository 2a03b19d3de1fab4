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

package selectorless

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// KCMFieldManager is the field manager under which the API server records
// kube-controller-manager's writes in metadata.managedFields: KCM's
// controllers set no fieldManager, so the API server takes the part of the
// User-Agent before its first "/", the binary's name
// (k8s.io/apiserver handlers/fieldmanager prefixFromUserAgent;
// k8s.io/client-go rest.DefaultKubernetesUserAgent).
const KCMFieldManager = "kube-controller-manager"

// How KCMEndpoints recognised an Endpoints object: by the managed-by label
// (kube-controller-manager 1.33 and later, and slicekit's Endpoints
// controller) or by the managedFields entry of kube-controller-manager
// (every version; the only mark of a 1.32 or older KCM).
const (
	ByLabel         = "label"
	ByManagedFields = "managedFields"
)

// fieldSubsets is the fieldsV1 key of Endpoints.subsets (an atomic list:
// one key, owned by whoever last changed the list).
const fieldSubsets = "f:subsets"

// KCMEndpoints reports whether ep was written by kube-controller-manager's
// Endpoints controller, and by which mark (ByLabel, ByManagedFields):
//
//   - it carries wellknown.LabelEndpointsManagedBy=wellknown.EndpointsControllerName
//     (set by KCM since 1.33, kubernetes PR #130564); or
//   - it carries no wellknown.LabelEndpointsManagedBy label at all (a
//     value naming another controller is that controller's claim), has
//     a managedFields entry of KCMFieldManager with operation Update on
//     the main resource (KCM creates and updates Endpoints with plain
//     Create and Update calls), and no other manager owns subsets: its
//     addresses are the ones KCM last wrote, or none. An object whose
//     addresses someone else wrote after KCM is theirs and not KCM's.
//
// The second mark is what Endpoints written by KCM 1.32 and older carry,
// and what objects KCM wrote before an upgrade keep, since KCM never
// rewrites the Endpoints of a Service that selects no Pods. Objects read
// without managedFields (a `kubectl get -o yaml` dump, which hides them
// unless --show-managed-fields is given) are recognised by the label only.
//
// Both marks can be forged by anyone allowed to write the object (any
// request may name its fieldManager or set managedFields). That grants
// nothing: callers use the answer only to publish fewer addresses (delete
// the object, not mirror it, report it), never to publish one, and whoever
// can write the object can already empty it or set the label. KCMEndpoints
// never panics; an entry whose fieldsV1 does not parse owns nothing.
func KCMEndpoints(ep *corev1.Endpoints) (ok bool, by string) { //nolint:staticcheck // v1 Endpoints are what KCM's Endpoints controller writes
	if ep == nil {
		return false, ""
	}
	v, labelled := ep.Labels[wellknown.LabelEndpointsManagedBy]
	if labelled {
		if v == wellknown.EndpointsControllerName {
			return true, ByLabel
		}
		return false, ""
	}
	kcm := false
	for i := range ep.ManagedFields {
		e := &ep.ManagedFields[i]
		if e.Manager == KCMFieldManager && e.Operation == metav1.ManagedFieldsOperationUpdate && e.Subresource == "" {
			kcm = true
			continue
		}
		if ownsTopLevel(e.FieldsV1, fieldSubsets) {
			return false, ""
		}
	}
	if kcm {
		return true, ByManagedFields
	}
	return false, ""
}

// ownsTopLevel reports whether the fieldsV1 set f holds the top-level
// field key (e.g. "f:subsets"). A nil or unparsable set holds nothing.
func ownsTopLevel(f *metav1.FieldsV1, key string) bool {
	if f == nil || len(f.GetRawBytes()) == 0 {
		return false
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(f.GetRawBytes(), &top); err != nil {
		return false
	}
	_, ok := top[key]
	return ok
}
