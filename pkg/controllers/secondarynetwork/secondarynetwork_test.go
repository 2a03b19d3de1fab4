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

package secondarynetwork_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2/ktesting"

	"github.com/slicekit/slicekit/internal/memapi"
	"github.com/slicekit/slicekit/pkg/controllers/celprofiles"
	"github.com/slicekit/slicekit/pkg/controllers/endpointslice"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/informertransform"
	"github.com/slicekit/slicekit/pkg/podcache"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/celpods"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// TestReadsKeepNetworkStatus checks that the Pod transform the manager
// composes with this controller keeps what the EndpointSlice controller's
// keeps plus the two network-status annotations, and nothing more.
func TestReadsKeepNetworkStatus(t *testing.T) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: map[string]string{"app": "a"},
			Annotations: map[string]string{
				wellknown.AnnotationNetworkStatus:       "[]",
				wellknown.AnnotationNetworkStatusLegacy: "[{}]",
				"other":                                 "dropped",
			},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "x"}}},
		Spec: corev1.PodSpec{NodeName: "n", Hostname: "h", Containers: []corev1.Container{{Name: "c", Image: "i",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}}},
	}
	composed := informertransform.Compose(endpointslice.Registration.Reads, secondarynetwork.Registration.Reads)[informertransform.Pods]
	if composed == nil {
		t.Fatal("no Pod transform composed")
	}
	before := pod.DeepCopy()
	out, err := composed(pod)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := podcache.FromObject(out)
	if !ok {
		t.Fatalf("the composed Pod transform returned a %T", out)
	}
	if diff := cmp.Diff(before, pod); diff != "" {
		t.Errorf("input modified:\n%s", diff)
	}
	// A superset of the EndpointSlice controller's transform.
	base, _ := informertransform.Compose(endpointslice.Registration.Reads)[informertransform.Pods](pod.DeepCopy())
	want, ok := podcache.FromObject(base)
	if !ok {
		t.Fatalf("the Pod transform returned a %T", base)
	}
	want.Annotations = map[string]string{wellknown.AnnotationNetworkStatus: "[]", wellknown.AnnotationNetworkStatusLegacy: "[{}]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Idempotent, and other objects pass through.
	again, _ := composed(out)
	if again != out {
		t.Errorf("not idempotent: a record came back as %T", again)
	}
	if o, _ := composed("x"); o != "x" {
		t.Errorf("non-pod: %v", o)
	}
	noAnnObj, _ := composed(&corev1.Pod{})
	if noAnn, _ := podcache.FromObject(noAnnObj); noAnn == nil || noAnn.Annotations != nil {
		t.Errorf("annotations of a pod without any: %v", noAnn)
	}
}

func TestNewDefaults(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := memapi.NewClientset()
	c, err := secondarynetwork.New(ctx, client, informers.NewSharedInformerFactory(client, 0), secondarynetwork.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.ControllerName() != wellknown.SecondaryNetworkControllerName || c.ManagedBy() != wellknown.SecondaryNetworkControllerName {
		t.Errorf("names: %s %s", c.ControllerName(), c.ManagedBy())
	}
	c, err = secondarynetwork.New(ctx, client, informers.NewSharedInformerFactory(client, 0), secondarynetwork.Options{ControllerName: "a.example.com", ManagedBy: "b.example.com"})
	if err != nil || c.ControllerName() != "a.example.com" || c.ManagedBy() != "b.example.com" {
		t.Errorf("configured names: %v", err)
	}
	if _, err := secondarynetwork.New(ctx, client, informers.NewSharedInformerFactory(client, 0), secondarynetwork.Options{ControllerName: "bad name"}); err == nil {
		t.Error("bad name: want an error")
	}
}

// TestSharedRegistry checks that the default controller, two
// secondary-network controllers and CEL controllers register their metrics
// on one registry, as in `slicekit run`.
func TestSharedRegistry(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	client := memapi.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	reg := prometheus.NewRegistry()
	if _, err := endpointslice.New(ctx, client, factory, endpointslice.Options{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.example.com", "b.example.com"} {
		if _, err := secondarynetwork.New(ctx, client, factory, secondarynetwork.Options{ControllerName: name, Common: slicecontroller.Common{Registerer: reg}}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := celprofiles.New(ctx, client, factory, celprofiles.Options{Common: slicecontroller.Common{Registerer: reg}, Config: &celpods.Config{Profiles: []celpods.Profile{
		{Name: "c.example.com", Addresses: "[]"}, {Name: "d.example.com", Addresses: "[]"},
	}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Gather(); err != nil {
		t.Fatal(err)
	}
}

func TestFlagsValidate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		value   string
		enabled bool
		wantErr bool
	}{
		{name: "default", value: wellknown.SecondaryNetworkControllerName, enabled: true},
		{name: "custom", value: "secondary.example.com", enabled: true},
		{name: "empty", value: "", enabled: true, wantErr: true},
		{name: "not a label value", value: "example.com/secondary", enabled: true, wantErr: true},
		{name: "disabled: not checked", value: "", enabled: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := secondarynetwork.NewOptions()
			f.ControllerName = tc.value
			err := f.Validate(tc.enabled)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Validate(%v) = %v, want error %v", tc.enabled, err, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "--secondary-network-controller-name") {
				t.Errorf("error %q does not name the flag", err)
			}
		})
	}
}
