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

package reconciler

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

func partialJSON(t testing.TB, gen int64) []byte {
	t.Helper()
	b, err := json.Marshal(&metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc-abc", UID: "uid-1", Generation: gen, ResourceVersion: "42",
			Labels: map[string]string{discovery.LabelServiceName: "svc"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// protobufBody encodes obj as the API server does in protobuf.
func protobufBody(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(nil, nil).Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSliceMetadata(t *testing.T) {
	slice := &discovery.EndpointSlice{
		TypeMeta:    metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta:  metav1.ObjectMeta{Namespace: "ns", Name: "svc-abc", UID: "uid-1", Generation: 3, Labels: map[string]string{discovery.LabelServiceName: "svc"}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}}},
	}
	partial := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
		ObjectMeta: slice.ObjectMeta,
	}
	sliceJSON, err := json.Marshal(slice)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		body          []byte
		wantGen       int64
		wantEndpoints int
		wantErr       string
	}{
		{name: "PartialObjectMetadata, JSON", body: partialJSON(t, 7), wantGen: 7},
		{name: "PartialObjectMetadata, protobuf", body: protobufBody(t, partial), wantGen: 3},
		{name: "whole slice, JSON (as= not honoured)", body: sliceJSON, wantGen: 3, wantEndpoints: 1},
		{name: "whole slice, protobuf", body: protobufBody(t, slice), wantGen: 3, wantEndpoints: 1},
		{name: "another kind", body: []byte(`{"apiVersion":"v1","kind":"Status","status":"Success"}`), wantErr: "got a"},
		{name: "not an object", body: []byte("{"), wantErr: "decoding the updated EndpointSlice's metadata"},
		{name: "empty", body: nil, wantErr: "decoding the updated EndpointSlice's metadata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sliceMetadata(tc.body)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("sliceMetadata() error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "svc-abc" || got.Namespace != "ns" || got.UID != "uid-1" || got.Generation != tc.wantGen ||
				got.Labels[discovery.LabelServiceName] != "svc" || len(got.Endpoints) != tc.wantEndpoints {
				t.Errorf("sliceMetadata() = %+v, want svc-abc/ns/uid-1, generation %d, the service-name label, %d endpoints", got, tc.wantGen, tc.wantEndpoints)
			}
		})
	}
}

func FuzzSliceMetadata(f *testing.F) {
	f.Add(partialJSON(f, 1))
	f.Add(protobufBody(f, &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"}}))
	f.Add([]byte(`{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","addressType":"IPv4"}`))
	f.Add([]byte("k8s\x00garbage"))
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := sliceMetadata(body)
		if (got == nil) == (err == nil) {
			t.Fatalf("sliceMetadata() = %v, %v: want exactly one of a slice and an error", got, err)
		}
	})
}

// TestUpdateSliceAsMetadata runs updateSlice against an HTTP server: the
// request is a PUT of the slice with the field manager, asking for
// PartialObjectMetadata; the response's metadata is what it returns, and
// an error status comes back as the API error.
func TestUpdateSliceAsMetadata(t *testing.T) {
	var gotAccept, gotPath, gotQuery, gotMethod string
	var gotBody []byte
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		gotMethod, gotPath, gotQuery, gotAccept = req.Method, req.URL.Path, req.URL.RawQuery, req.Header.Get("Accept")
		gotBody, _ = io.ReadAll(req.Body)
		w.Header().Set("Content-Type", "application/json")
		if status != http.StatusOK {
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(apierrors.NewConflict(discovery.Resource("endpointslices"), "svc-abc", nil).Status())
			return
		}
		_, _ = w.Write(partialJSON(t, 9))
	}))
	defer srv.Close()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(client, Config{ControllerName: testController, OwnerGVK: ServiceGVK, MaxEndpointsPerSlice: 100})
	if err != nil {
		t.Fatal(err)
	}
	s := &discovery.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: "ns", Name: "svc-abc", UID: "uid-1", Generation: 8, Labels: map[string]string{discovery.LabelServiceName: "svc"}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.0.0.1"}}},
	}
	got, err := r.updateSlice(t.Context(), "ns", s, metav1.UpdateOptions{FieldManager: testController})
	if err != nil {
		t.Fatal(err)
	}
	if gotMethod != http.MethodPut || gotPath != "/apis/discovery.k8s.io/v1/namespaces/ns/endpointslices/svc-abc" ||
		!strings.Contains(gotQuery, "fieldManager="+testController) || !strings.HasPrefix(gotAccept, "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1") {
		t.Errorf("request %s %s?%s Accept %q, want a PUT of the slice with the field manager, asking for PartialObjectMetadata", gotMethod, gotPath, gotQuery, gotAccept)
	}
	var sent discovery.EndpointSlice
	if err := runtime.DecodeInto(scheme.Codecs.UniversalDecoder(discovery.SchemeGroupVersion), gotBody, &sent); err != nil || len(sent.Endpoints) != 1 || sent.Name != "svc-abc" {
		t.Errorf("request body = %s (%v), want the slice", gotBody, err)
	}
	if got.Generation != 9 || got.Name != "svc-abc" || got.UID != "uid-1" || got.Labels[discovery.LabelServiceName] != "svc" {
		t.Errorf("updateSlice() = %+v, want the response's metadata (generation 9)", got)
	}

	status = http.StatusConflict
	if _, err := r.updateSlice(t.Context(), "ns", s, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("updateSlice() on a 409 = %v, want a Conflict", err)
	}
}
