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
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/wellknown"
)

// kcm132Endpoints is an Endpoints object as kube-controller-manager v1.32
// writes it (no managed-by label), read with the API server's YAML
// decoding (sigs.k8s.io/yaml, as kubectl does).
const kcm132Endpoints = `
apiVersion: v1
kind: Endpoints
metadata:
  name: web
  namespace: default
  annotations:
    endpoints.kubernetes.io/last-change-trigger-time: "2026-12-01T10:00:00Z"
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          .: {}
          f:endpoints.kubernetes.io/last-change-trigger-time: {}
      f:subsets: {}
    manager: kube-controller-manager
    operation: Update
    time: "2026-12-01T10:00:00Z"
subsets:
- addresses:
  - ip: 10.244.0.5
  ports:
  - port: 8080
    protocol: TCP
`

func TestKCMEndpoints(t *testing.T) {
	var base corev1.Endpoints //nolint:staticcheck // v1 Endpoints under test
	if err := yaml.UnmarshalStrict([]byte(kcm132Endpoints), &base); err != nil {
		t.Fatal(err)
	}
	entry := func(manager string, op metav1.ManagedFieldsOperationType, sub, fields string) metav1.ManagedFieldsEntry {
		e := metav1.ManagedFieldsEntry{Manager: manager, Operation: op, APIVersion: "v1", Subresource: sub, FieldsType: "FieldsV1"}
		if fields != "" {
			e.FieldsV1 = metav1.NewFieldsV1(fields)
		}
		return e
	}
	kcm := entry(KCMFieldManager, metav1.ManagedFieldsOperationUpdate, "", `{"f:subsets":{}}`)
	kcmMetaOnly := entry(KCMFieldManager, metav1.ManagedFieldsOperationUpdate, "", `{"f:metadata":{"f:annotations":{}}}`)
	userSubsets := entry("kubectl-edit", metav1.ManagedFieldsOperationUpdate, "", `{"f:subsets":{}}`)
	userLabels := entry("kubectl-label", metav1.ManagedFieldsOperationUpdate, "", `{"f:metadata":{"f:labels":{"f:x":{}}}}`)

	tests := []struct {
		name   string
		labels map[string]string
		mf     []metav1.ManagedFieldsEntry
		keep   bool // keep base's managedFields (the decoded 1.32 object)
		want   bool
		by     string
	}{
		{name: "KCM 1.32 object as the API server returns it", keep: true, want: true, by: ByManagedFields},
		{name: "label (KCM 1.33+)", labels: map[string]string{wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}, want: true, by: ByLabel},
		{name: "label and KCM entry", labels: map[string]string{wellknown.LabelEndpointsManagedBy: wellknown.EndpointsControllerName}, mf: []metav1.ManagedFieldsEntry{kcm}, want: true, by: ByLabel},
		{name: "label naming another controller wins over KCM's entry", labels: map[string]string{wellknown.LabelEndpointsManagedBy: "other"}, mf: []metav1.ManagedFieldsEntry{kcm}},
		{name: "empty label value", labels: map[string]string{wellknown.LabelEndpointsManagedBy: ""}, mf: []metav1.ManagedFieldsEntry{kcm}},
		{name: "hand-written: no marks"},
		{name: "hand-written: other manager only", mf: []metav1.ManagedFieldsEntry{userSubsets}},
		{name: "KCM entry, other manager changed the labels only", mf: []metav1.ManagedFieldsEntry{kcm, userLabels}, want: true, by: ByManagedFields},
		{name: "KCM entry without subsets (KCM wrote no addresses)", mf: []metav1.ManagedFieldsEntry{kcmMetaOnly}, want: true, by: ByManagedFields},
		{name: "addresses rewritten by someone after KCM", mf: []metav1.ManagedFieldsEntry{kcmMetaOnly, userSubsets}},
		{name: "addresses rewritten, entry order reversed", mf: []metav1.ManagedFieldsEntry{userSubsets, kcmMetaOnly}},
		{name: "KCM by server-side apply is not the Endpoints controller", mf: []metav1.ManagedFieldsEntry{entry(KCMFieldManager, metav1.ManagedFieldsOperationApply, "", `{"f:subsets":{}}`)}},
		{name: "KCM on a subresource", mf: []metav1.ManagedFieldsEntry{entry(KCMFieldManager, metav1.ManagedFieldsOperationUpdate, "status", `{"f:subsets":{}}`)}},
		{name: "manager name differs in case", mf: []metav1.ManagedFieldsEntry{entry("Kube-Controller-Manager", metav1.ManagedFieldsOperationUpdate, "", `{"f:subsets":{}}`)}},
		{name: "unparsable fieldsV1 of another manager owns nothing", mf: []metav1.ManagedFieldsEntry{kcm, entry("x", metav1.ManagedFieldsOperationUpdate, "", `{not json`)}, want: true, by: ByManagedFields},
		{name: "KCM entry with no fieldsV1", mf: []metav1.ManagedFieldsEntry{entry(KCMFieldManager, metav1.ManagedFieldsOperationUpdate, "", "")}, want: true, by: ByManagedFields},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep := base.DeepCopy()
			ep.Labels = tc.labels
			if !tc.keep {
				ep.ManagedFields = tc.mf
			}
			got, by := KCMEndpoints(ep)
			if got != tc.want || by != tc.by {
				t.Errorf("KCMEndpoints = %v, %q; want %v, %q", got, by, tc.want, tc.by)
			}
		})
	}
	if ok, by := KCMEndpoints(nil); ok || by != "" {
		t.Errorf("KCMEndpoints(nil) = %v, %q", ok, by)
	}
}
