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

package suite_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/slicekit/slicekit/conformance/utils/config"
	"github.com/slicekit/slicekit/conformance/utils/suite"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// fakeClient is a fake clientset that honours generateName.
func fakeClient() *fake.Clientset {
	c := fake.NewClientset()
	var n atomic.Int32
	c.PrependReactor("create", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		obj := a.(k8stesting.CreateAction).GetObject()
		m, ok := obj.(metav1.Object)
		if ok && m.GetName() == "" && m.GetGenerateName() != "" {
			m.SetName(fmt.Sprintf("%s%d", m.GetGenerateName(), n.Add(1)))
		}
		return false, nil, nil
	})
	return c
}

const fixture = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Service
metadata:
  name: plain
  annotations: {conformance.slicekit.io/serve: "false"}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata:
  name: other
  labels: {service.kubernetes.io/endpoint-controller-name: someone}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: ready, labels: {app: web}}
spec: {containers: [{name: c, image: IMAGE}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: unready
  labels: {app: web}
  annotations: {conformance.slicekit.io/ready: "false"}
spec: {containers: [{name: c, image: IMAGE}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: failed
  annotations: {conformance.slicekit.io/phase: Failed}
spec: {containers: [{name: c, image: IMAGE}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: foreign, labels: {endpointslice.kubernetes.io/managed-by: x}}
addressType: IPv4
`

func newSuite(t *testing.T, mod func(*suite.Options)) *suite.ConformanceTestSuite {
	t.Helper()
	opts := suite.Options{
		Client:            fakeClient(),
		ControllerName:    "ctrl.example.com",
		SupportedFeatures: suite.LabelledControllerFeatures(),
		ManifestFS:        fstest.MapFS{"f.yaml": {Data: []byte(fixture)}, "bad.yaml": {Data: []byte("apiVersion: v1\nkind: Node\nmetadata: {name: node1}\n")}},
		TimeoutConfig:     config.TimeoutConfig{SlicesConverge: time.Second, PodRunning: 2 * time.Second, PollInterval: 10 * time.Millisecond},
	}
	if mod != nil {
		mod(&opts)
	}
	s, err := suite.NewConformanceTestSuite(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewConformanceTestSuiteValidates(t *testing.T) {
	base := suite.Options{Client: fakeClient(), ControllerName: "c.example.com", SupportedFeatures: suite.DefaultControllerFeatures(), ManifestFS: fstest.MapFS{}}
	tests := []struct {
		name string
		mod  func(*suite.Options)
		want string
	}{
		{"valid", func(*suite.Options) {}, ""},
		{"no client", func(o *suite.Options) { o.Client = nil }, "Client or RestConfig is required"},
		{"no name", func(o *suite.Options) { o.ControllerName = "" }, "ControllerName is required"},
		{"bad name", func(o *suite.Options) { o.ControllerName = "a b" }, "not a valid label value"},
		{"reserved name", func(o *suite.Options) { o.ControllerName = suite.OtherControllerName }, "reserved"},
		{"exclusive features", func(o *suite.Options) { o.SupportedFeatures = suite.AllFeatures() }, "exclude each other"},
		{"core feature missing", func(o *suite.Options) { o.SupportedFeatures = []suite.Feature{suite.SupportForeignSlices} }, "EndpointSlices is required"},
		{"unknown feature", func(o *suite.Options) { o.SupportedFeatures = append(o.SupportedFeatures, "Teleport") }, "unknown features"},
		{"bad pod mode", func(o *suite.Options) { o.PodMode = "Magic" }, "PodMode"},
		{"no fixtures", func(o *suite.Options) { o.ManifestFS = nil }, "ManifestFS is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			tc.mod(&o)
			s, err := suite.NewConformanceTestSuite(o)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if s.PodMode != suite.PodModeStatusSubresource || s.Image != suite.DefaultImage || s.NamespacePrefix != suite.DefaultNamespacePrefix ||
					s.TimeoutConfig != config.DefaultTimeoutConfig() {
					t.Errorf("defaults not applied: %+v", s)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestApplyManifestsStatusSubresource(t *testing.T) {
	s := newSuite(t, nil)
	s.Setup(t)
	ns := s.Namespace(t)
	s.ApplyManifests(t, ns, "f.yaml")
	ctx := context.Background()

	labels := map[string]map[string]string{}
	for _, n := range []string{"web", "plain", "other"} {
		svc, err := s.Client.CoreV1().Services(ns).Get(ctx, n, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		labels[n] = svc.Labels
	}
	wantLabels := map[string]map[string]string{
		"web":   {wellknown.LabelEndpointControllerName: "ctrl.example.com"},
		"plain": nil,
		"other": {wellknown.LabelEndpointControllerName: "someone"},
	}
	if d := cmp.Diff(wantLabels, labels); d != "" {
		t.Errorf("Service labels (-want +got):\n%s", d)
	}

	type podState struct {
		Phase corev1.PodPhase
		Ready corev1.ConditionStatus
		Image string
		Bound bool
		HasIP bool
	}
	got := map[string]podState{}
	ips := map[string]bool{}
	for _, n := range []string{"ready", "unready", "failed"} {
		p, err := s.Client.CoreV1().Pods(ns).Get(ctx, n, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		st := podState{Phase: p.Status.Phase, Image: p.Spec.Containers[0].Image, Bound: p.Spec.NodeName != "", HasIP: p.Status.PodIP != ""}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady {
				st.Ready = c.Status
			}
		}
		got[n] = st
		ips[p.Status.PodIP] = true
	}
	want := map[string]podState{
		"ready":   {corev1.PodRunning, corev1.ConditionTrue, suite.DefaultImage, true, true},
		"unready": {corev1.PodRunning, corev1.ConditionFalse, suite.DefaultImage, true, true},
		"failed":  {corev1.PodFailed, corev1.ConditionFalse, suite.DefaultImage, true, true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Pods (-want +got):\n%s", d)
	}
	if len(ips) != 3 {
		t.Errorf("Pod IPs are not unique: %v", ips)
	}
	if _, err := s.Client.DiscoveryV1().EndpointSlices(ns).Get(ctx, "foreign", metav1.GetOptions{}); err != nil {
		t.Errorf("foreign slice: %v", err)
	}

	s.SetPodReady(t, ns, "unready", true)
	p, _ := s.Client.CoreV1().Pods(ns).Get(ctx, "unready", metav1.GetOptions{})
	for _, c := range p.Status.Conditions {
		if (c.Type == corev1.PodReady || c.Type == corev1.ContainersReady) && c.Status != corev1.ConditionTrue {
			t.Errorf("after SetPodReady: %s=%s", c.Type, c.Status)
		}
	}
}

func TestApplyManifestsRealPods(t *testing.T) {
	s := newSuite(t, func(o *suite.Options) { o.PodMode = suite.PodModeRealPods; o.Image = "example.com/img:1" })
	// Play kubelet: a Pod runs with an IP as soon as it exists.
	c := s.Client.(*fake.Clientset)
	c.PrependReactor("get", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		g := a.(k8stesting.GetAction)
		obj, err := c.Tracker().Get(corev1.SchemeGroupVersion.WithResource("pods"), g.GetNamespace(), g.GetName())
		if err != nil {
			return true, nil, err
		}
		p := obj.(*corev1.Pod).DeepCopy()
		if p.Status.Phase == "" {
			p.Status.Phase, p.Status.PodIP = corev1.PodRunning, "10.9.9.9"
		}
		return true, p, nil
	})
	s.Setup(t)
	ns := s.Namespace(t)
	pod := s.CreatePod(t, ns, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Annotations: map[string]string{suite.AnnotationReady: "false"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: suite.ImagePlaceholder}}}})
	if pod.Spec.Containers[0].Image != "example.com/img:1" || pod.Spec.NodeName != "" {
		t.Errorf("image %q, node %q", pod.Spec.Containers[0].Image, pod.Spec.NodeName)
	}
	if len(pod.Spec.ReadinessGates) != 1 || pod.Spec.ReadinessGates[0].ConditionType != suite.ReadinessGate {
		t.Errorf("readiness gates = %v", pod.Spec.ReadinessGates)
	}
	gate := func(p *corev1.Pod) corev1.ConditionStatus {
		for _, c := range p.Status.Conditions {
			if c.Type == suite.ReadinessGate {
				return c.Status
			}
		}
		return ""
	}
	if g := gate(pod); g != corev1.ConditionFalse {
		t.Errorf("gate = %q, want False", g)
	}
	if g := gate(s.SetPodReady(t, ns, "p", true)); g != corev1.ConditionTrue {
		t.Errorf("gate after SetPodReady = %q, want True", g)
	}
	nodes, _ := c.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if len(nodes.Items) != 0 {
		t.Errorf("the RealPods mode created %d Node(s)", len(nodes.Items))
	}
}

func TestReadManifestsRejects(t *testing.T) {
	fs := fstest.MapFS{
		"node.yaml": {Data: []byte("apiVersion: v1\nkind: Node\nmetadata: {name: node1}\n")},
		"ns.yaml":   {Data: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: x}\n")},
		"bad.yaml":  {Data: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containerz: []}\n")},
	}
	for name, want := range map[string]string{"node.yaml": "kind Node is not allowed", "ns.yaml": "must not set a namespace", "bad.yaml": "unknown field"} {
		if _, err := suite.ReadManifests(fs, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error = %v, want %q", name, err, want)
		}
	}
}

func TestRunSelectsAndRecords(t *testing.T) {
	var ran []string
	mk := func(name string, features []suite.Feature, modes []suite.PodMode, body func(*testing.T, *suite.ConformanceTestSuite)) suite.ConformanceTest {
		return suite.ConformanceTest{ShortName: name, Description: name + " test", Features: features, PodModes: modes,
			Test: func(t *testing.T, s *suite.ConformanceTestSuite, ns string) {
				ran = append(ran, name)
				if body != nil {
					body(t, s)
				}
			}}
	}
	core := []suite.Feature{suite.SupportEndpointSlices}
	tests := []suite.ConformanceTest{
		mk("Core", core, nil, nil),
		mk("Default", []suite.Feature{suite.SupportDefaultController}, nil, nil),
		mk("RealOnly", core, []suite.PodMode{suite.PodModeRealPods}, nil),
		mk("Listed", core, nil, nil),
		mk("SkipsItself", core, nil, func(t *testing.T, s *suite.ConformanceTestSuite) { s.Skip(t, "not today") }),
	}
	s := newSuite(t, func(o *suite.Options) { o.SkipTests = []string{"Listed"} })
	s.Run(t, tests)
	rep := s.Report()

	if d := cmp.Diff([]string{"Core", "SkipsItself"}, ran); d != "" {
		t.Errorf("tests run (-want +got):\n%s", d)
	}
	got := map[string]string{}
	for _, r := range rep.Tests {
		got[r.ShortName] = string(r.Result) + ": " + r.Reason
	}
	want := map[string]string{
		"Core":        "pass: ",
		"Default":     "skip: unsupported features: DefaultController",
		"RealOnly":    "skip: needs pod mode [RealPods], the run uses StatusSubresource",
		"Listed":      "skip: listed in SkipTests",
		"SkipsItself": "skip: not today",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
	if rep.Summary != (suite.Summary{Passed: 1, Skipped: 4, Result: "success"}) {
		t.Errorf("summary = %+v", rep.Summary)
	}

	ran = nil
	s = newSuite(t, func(o *suite.Options) { o.RunTest = "Default"; o.SupportedFeatures = suite.DefaultControllerFeatures() })
	s.Run(t, tests)
	if d := cmp.Diff([]string{"Default"}, ran); d != "" {
		t.Errorf("RunTest: tests run (-want +got):\n%s", d)
	}
}

func TestReport(t *testing.T) {
	rep := suite.NewReport(suite.ReportInput{
		Implementation: suite.Implementation{Name: "slicekit", Version: "v0.1.0"},
		ControllerName: "endpointslice-controller.k8s.io",
		PodMode:        suite.PodModeStatusSubresource,
		Features:       []suite.Feature{suite.SupportForeignSlices, suite.SupportEndpointSlices},
		Timeouts:       map[string]string{"SlicesConverge": "30s"},
		NotConformant:  []string{"SlicesConverge 2m0s exceeds the conformant maximum 1m0s"},
		Results: []suite.TestResult{
			{ShortName: "SlicesPublished", Description: "d1", Features: []suite.Feature{suite.SupportEndpointSlices}, Result: suite.ResultPassed, Duration: "1.2s"},
			{ShortName: "LabelRemovalHandsBack", Description: "d2", Features: []suite.Feature{suite.SupportEndpointSlices, suite.SupportControllerNameLabel},
				Result: suite.ResultSkipped, Reason: "unsupported features: ControllerNameLabel"},
			{ShortName: "ForeignSlicesUntouched", Description: "d3", Features: []suite.Feature{suite.SupportForeignSlices}, Result: suite.ResultFailed,
				Reason: "see the test log of TestX/ForeignSlicesUntouched", Duration: "6s"},
		},
		Date:     time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Duration: 9 * time.Second,
	})
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	wantTable := `EndpointSlice controller conformance: slicekit v0.1.0, controller endpointslice-controller.k8s.io, pod mode StatusSubresource
Features: EndpointSlices, ForeignSlices

TEST                    RESULT  FEATURES                            DETAIL
SlicesPublished         pass    EndpointSlices                      1.2s
LabelRemovalHandsBack   skip    EndpointSlices,ControllerNameLabel  unsupported features: ControllerNameLabel
ForeignSlicesUntouched  fail    ForeignSlices                       see the test log of TestX/ForeignSlicesUntouched

1 passed, 1 failed, 1 skipped: failure in 9s
Not a conformance proof: SlicesConverge 2m0s exceeds the conformant maximum 1m0s
`
	if d := cmp.Diff(wantTable, table.String()); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
	var y bytes.Buffer
	if err := rep.WriteYAML(&y); err != nil {
		t.Fatal(err)
	}
	wantYAML := `apiVersion: conformance.slicekit.io/v1alpha1
controllerName: endpointslice-controller.k8s.io
date: "2026-01-02T03:04:05Z"
duration: 9s
implementation:
  name: slicekit
  version: v0.1.0
kind: ConformanceReport
podMode: StatusSubresource
summary:
  failed: 1
  passed: 1
  result: failure
  skipped: 1
supportedFeatures:
- EndpointSlices
- ForeignSlices
tests:
- description: d1
  duration: 1.2s
  features:
  - EndpointSlices
  name: SlicesPublished
  result: pass
- description: d2
  features:
  - EndpointSlices
  - ControllerNameLabel
  name: LabelRemovalHandsBack
  reason: 'unsupported features: ControllerNameLabel'
  result: skip
- description: d3
  duration: 6s
  features:
  - ForeignSlices
  name: ForeignSlicesUntouched
  reason: see the test log of TestX/ForeignSlicesUntouched
  result: fail
timeouts:
  SlicesConverge: 30s
timeoutsNotConformant:
- SlicesConverge 2m0s exceeds the conformant maximum 1m0s
`
	if d := cmp.Diff(wantYAML, y.String()); d != "" {
		t.Errorf("YAML (-want +got):\n%s", d)
	}
	empty := suite.NewReport(suite.ReportInput{})
	if empty.Summary.Result != "failure" || empty.Tests == nil {
		t.Errorf("a report without passing tests must fail: %+v", empty.Summary)
	}
}
