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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// referenceMarshal is marshalObject as it was: the unstructured map printed
// by sigs.k8s.io/yaml.Marshal (JSON, then go-yaml).
func referenceMarshal(t *testing.T, obj runtime.Object) ([]byte, error) {
	t.Helper()
	cp := obj.DeepCopyObject()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cp)
	if err != nil {
		t.Fatal(err)
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		if v, ok := md["creationTimestamp"]; ok && v == nil {
			delete(md, "creationTimestamp")
		}
	}
	if st, ok := m["status"].(map[string]any); ok && len(st) == 0 {
		delete(m, "status")
	}
	return yaml.Marshal(m)
}

// TestMarshalObjectLikeJSONRoundTrip: printing the unstructured map with
// go-yaml directly gives sigs.k8s.io/yaml.Marshal's bytes, numbers of
// free-form JSON included, wherever that succeeded; where it failed
// (control characters) go-yaml escapes them.
func TestMarshalObjectLikeJSONRoundTrip(t *testing.T) {
	strs := []string{"", "plain", "yes", "on", "1.0", "0755", "null", "~", "a: b", "- x", "#c", "x # y", "'q'", `"dq"`,
		"multi\nline", "tab\tx", "é ü", "<&>", "\u2028", "trailing ", " leading", "2026-01-02", "0x1F", "1e3", strings.Repeat("long ", 40)}
	ann := map[string]string{}
	for i, v := range strs {
		ann["k"+string(rune('a'+i))] = v
	}
	params := `{"n":10000000000000000000,"m":9223372036854775808,"i":42,"neg":-7,"f":1.5,"g":3.0,"e":1e20,"z":-0.0,"s":"x","b":true,"l":[1,2.5,{"x":null}]}`
	objs := []runtime.Object{
		&corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: metav1.ObjectMeta{Name: "ns", Annotations: ann}},
		&resourceapi.ResourceClaim{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
			ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns"},
			Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{Config: []resourceapi.DeviceClaimConfiguration{{
				DeviceConfiguration: resourceapi.DeviceConfiguration{Opaque: &resourceapi.OpaqueDeviceConfiguration{
					Driver: "d.example.com", Parameters: runtime.RawExtension{Raw: []byte(params)}}}}}}}},
	}
	for _, obj := range objs {
		want, err := referenceMarshal(t, obj)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("marshalObject differs from the JSON round trip:\n--- got\n%s\n--- want\n%s", got, want)
		}
	}
	// Control characters: the round trip failed; go-yaml escapes them.
	ns := &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{Name: "ns", Annotations: map[string]string{"a": "x\u007fy", "b": "x\u0085y"}}}
	got, err := marshalObject(ns)
	if err != nil {
		t.Fatal(err)
	}
	var back corev1.Namespace
	if err := yaml.UnmarshalStrict(got, &back); err != nil {
		t.Fatalf("output does not read back: %v\n%s", err, got)
	}
	if back.Annotations["a"] != "x\u007fy" || back.Annotations["b"] != "x\u0085y" {
		t.Errorf("annotations read back as %q", back.Annotations)
	}
}
