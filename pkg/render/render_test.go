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
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/casefile"
)

// renderBackend runs a regression case through Render, offline, as
// `casecheck run-render` does through the CLI: a world of objects, and each
// Settle renders the world and replaces its EndpointSlices with the output
// (written as YAML and read back, as the CLI's output would be). Every
// Settle also checks that rendering the output again changes nothing.
type renderBackend struct {
	t     *testing.T
	opts  func() Options
	world *casefile.World
}

func (b *renderBackend) Load(_ context.Context, objs []runtime.Object) error {
	b.world = casefile.NewWorld(objs)
	return nil
}

func (b *renderBackend) Settle(ctx context.Context) error {
	out, err := renderYAML(ctx, readable(b.t, b.world.Objects()), b.opts())
	if err != nil {
		return err
	}
	decoded, _, err := Decode("output", out)
	if err != nil {
		return fmt.Errorf("the output is not valid input: %w", err)
	}
	var slices []discovery.EndpointSlice
	for _, o := range decoded {
		slices = append(slices, *o.Object.(*discovery.EndpointSlice))
	}
	b.world.SetEndpointSlices(slices)

	// Idempotence: the output plus the other objects renders to itself.
	again, err := renderYAML(ctx, readable(b.t, b.world.Objects()), b.opts())
	if err != nil {
		return fmt.Errorf("rendering the output again: %w", err)
	}
	if d := cmp.Diff(string(out), string(again)); d != "" {
		b.t.Errorf("rendering the output again changed it (-first +second):\n%s", d)
	}
	return nil
}

func (b *renderBackend) Patch(_ context.Context, p *casefile.Patch) error { return b.world.Patch(p) }

func (b *renderBackend) Delete(_ context.Context, ref casefile.Ref) error { return b.world.Delete(ref) }

func (b *renderBackend) Apply(_ context.Context, obj runtime.Object) error { return b.world.Put(obj) }

func (b *renderBackend) Slices(context.Context) ([]discovery.EndpointSlice, error) {
	var out []discovery.EndpointSlice
	for _, s := range b.world.EndpointSlices() {
		out = append(out, *s)
	}
	return out, nil
}

var _ casefile.Backend = (*renderBackend)(nil)

// readable returns the objects of the kinds render reads
// (builtin.InputKinds), as the CLI's file reader leaves the others out as
// ignored (a ResourceClaimTemplate of case 45, for instance).
func readable(t *testing.T, objs []runtime.Object) []runtime.Object {
	t.Helper()
	kinds, err := builtin.InputKinds()
	if err != nil {
		t.Fatal(err)
	}
	var out []runtime.Object
	for _, o := range objs {
		gvk, err := casefile.KindOf(o)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := kinds.ByGVK(gvk); ok {
			out = append(out, o)
		}
	}
	return out
}

// renderYAML renders objs and returns the CLI's output.
func renderYAML(ctx context.Context, objs []runtime.Object, opts Options) ([]byte, error) {
	res, err := Render(ctx, objs, opts)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := WriteYAML(&buf, res.EndpointSlices); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// endpointSliceCases are the regression cases about the EndpointSlice
// controller alone (issue 3); 18 also needs the mirroring controller and
// is tested on its own below.
var endpointSliceCases = []string{"02", "03", "04", "07", "08", "09", "11", "20", "21", "38", "39", "41"}

func TestCases(t *testing.T) {
	for _, id := range endpointSliceCases {
		t.Run(id, func(t *testing.T) {
			ctx := testContext(t)
			c := casefile.MustLoad(t, id)
			b := &renderBackend{t: t, opts: func() Options { return Options{} }}
			casefile.Report(t, casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true}))
		})
	}
}

// TestSelectorRemovalCases runs the regression cases of the selector
// removal fault class (kubernetes#118376) through Render with the
// controllers `slicekit run --controllers=*,endpoints,secondary-network`
// runs: 33 (the EndpointSlice controller's slice goes with the selector),
// 34 (the Endpoints controller's leftover is not mirrored) and 36 (the
// selectorless form of the secondary-network controller: the Pod selector
// from the slicekit.dev/selector annotation, the built-in slice gone); and
// 01, 13 to 17 with the same controllers, which must keep passing.
func TestSelectorRemovalCases(t *testing.T) {
	for _, id := range []string{"01", "13", "15", "16", "17", "33", "34", "36"} {
		t.Run(id, func(t *testing.T) {
			ctx := testContext(t)
			c := casefile.MustLoad(t, id)
			b := &renderBackend{t: t, opts: func() Options {
				o := builtin.NewControllerOptions()
				o.Controllers = []string{"*", "endpoints", "secondary-network"}
				o.For(secondarynetwork.RegistrationName).(*secondarynetwork.Options).ControllerName = "secondary.example.com"
				return Options{Controllers: o}
			}}
			casefile.Report(t, casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true}))
		})
	}
}

// TestDRANetworkCase runs case 45 (the dra-network controller's
// contract: addresses from the networkData of the Pods' ResourceClaims,
// a claim status write alone changing the slices) through Render with
// `--controllers=*,dra-network`; without the controller the case must
// fail (KCM's primary addresses), so that it can.
func TestDRANetworkCase(t *testing.T) {
	for _, tc := range []struct {
		controllers []string
		wantFail    bool
	}{
		{controllers: []string{"*", dranetwork.RegistrationName}},
		{controllers: []string{"*"}, wantFail: true},
	} {
		t.Run(strings.Join(tc.controllers, ","), func(t *testing.T) {
			ctx := testContext(t)
			c := casefile.MustLoad(t, "45")
			b := &renderBackend{t: t, opts: func() Options {
				o := builtin.NewControllerOptions()
				o.Controllers = tc.controllers
				return Options{Controllers: o}
			}}
			res := casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true})
			if tc.wantFail {
				if !res.Failed() {
					t.Errorf("case 45 passed without the dra-network controller:\n%s", res)
				}
				return
			}
			casefile.Report(t, res)
		})
	}
}

// TestSelectorRemovalCasesGateOff is the negative control: with
// --feature-gates=SelectorRemovalCleanup=false slicekit behaves as KCM
// v1.37.2 and fails cases 33 and 34 exactly as KCM does (the stale slice
// stays; the leftover Endpoints is mirrored), so the cases can fail.
func TestSelectorRemovalCasesGateOff(t *testing.T) {
	for _, id := range []string{"33", "34"} {
		t.Run(id, func(t *testing.T) {
			ctx := testContext(t)
			c := casefile.MustLoad(t, id)
			b := &renderBackend{t: t, opts: func() Options {
				o := builtin.NewControllerOptions()
				o.Controllers = []string{"*", "endpoints"}
				if err := o.FeatureGates.Set(string(wellknown.SelectorRemovalCleanup) + "=false"); err != nil {
					t.Fatal(err)
				}
				return Options{Controllers: o}
			}}
			res := casefile.Run(ctx, c, b, casefile.RunOptions{})
			if !res.Failed() {
				t.Errorf("case %s passed with SelectorRemovalCleanup off; want KCM's failure:\n%s", id, res)
			}
		})
	}
}

// TestCase18EndpointSlicePart checks the EndpointSlice controller's part of
// case 18 (KEP-4770): the default slice of the labelled svc-a is deleted,
// no new one or placeholder appears, the named controller's slice is
// untouched, and svc-b is served. The mirroring part (svc-c-m1) needs the
// endpointslice-mirroring controller; once it is registered the whole case
// runs.
func TestCase18EndpointSlicePart(t *testing.T) {
	ctx := testContext(t)
	c := casefile.MustLoad(t, "18")
	if slices.Contains(builtin.KnownControllers(), "endpointslice-mirroring") {
		b := &renderBackend{t: t, opts: func() Options { return Options{} }}
		casefile.Report(t, casefile.Run(ctx, c, b, casefile.RunOptions{Optional: true}))
		return
	}
	res, err := Render(ctx, c.Input, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var inputCustom *discovery.EndpointSlice
	for _, o := range c.Input {
		if s, ok := o.(*discovery.EndpointSlice); ok && s.Name == "svc-a-custom" {
			inputCustom = s
		}
	}
	got := map[string][]string{} // service -> "name managed-by"
	for _, s := range res.EndpointSlices {
		svc := s.Labels[discovery.LabelServiceName]
		got[svc] = append(got[svc], s.Name+" "+s.Labels[discovery.LabelManagedBy])
		if s.Name == "svc-a-custom" {
			want := inputCustom.DeepCopy()
			// uid and generation are set on seeding, as the API server would.
			want.UID, want.Generation, want.ResourceVersion = s.UID, s.Generation, s.ResourceVersion
			want.TypeMeta = s.TypeMeta
			if d := cmp.Diff(want, s); d != "" {
				t.Errorf("svc-a-custom changed (-input +output):\n%s", d)
			}
		}
	}
	if d := cmp.Diff([]string{"svc-a-custom custom-ctrl.example.com"}, got["svc-a"]); d != "" {
		t.Errorf("slices of svc-a (-want +got):\n%s", d)
	}
	if len(got["svc-b"]) != 1 || !strings.HasSuffix(got["svc-b"][0], " endpointslice-controller.k8s.io") {
		t.Errorf("slices of svc-b = %q, want one of endpointslice-controller.k8s.io", got["svc-b"])
	}
	var handedOver bool
	for _, e := range res.Events {
		if e.Object == "Service ns-a/svc-a" && e.Reason == "EndpointSlicesHandedOver" {
			handedOver = true
		}
	}
	if !handedOver {
		t.Errorf("no EndpointSlicesHandedOver event on svc-a; events: %+v", res.Events)
	}
}

// scene returns a Service "web" in ns with n ready Pods on node-a.
func scene(n int, mutate ...func(*corev1.Service)) []runtime.Object {
	objs, _, err := Decode("scene", []byte(`
apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels: {topology.kubernetes.io/zone: zone-a}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: ns}
spec:
  clusterIP: 10.0.0.10
  clusterIPs: [10.0.0.10]
  ipFamilies: [IPv4]
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}]
`))
	if err != nil {
		panic(err)
	}
	out := []runtime.Object{}
	for _, o := range objs {
		if svc, ok := o.Object.(*corev1.Service); ok {
			for _, m := range mutate {
				m(svc)
			}
		}
		out = append(out, o.Object)
	}
	for i := 1; i <= n; i++ {
		out = append(out, &corev1.Pod{
			ObjectMeta: metaOf(fmt.Sprintf("web-%02d", i), "ns", map[string]string{"app": "web"}),
			Spec:       corev1.PodSpec{NodeName: "node-a"},
			Status: corev1.PodStatus{
				Phase:      corev1.PodRunning,
				PodIP:      fmt.Sprintf("10.244.0.%d", i),
				PodIPs:     []corev1.PodIP{{IP: fmt.Sprintf("10.244.0.%d", i)}},
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			},
		})
	}
	return out
}

func TestRenderNamesAreDeterministic(t *testing.T) {
	ctx := testContext(t)
	copts := builtin.NewControllerOptions()
	copts.MaxEndpointsPerSlice = 2
	var first []string
	for range 3 {
		res, err := Render(ctx, scene(5), Options{Controllers: copts})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range res.EndpointSlices {
			names = append(names, fmt.Sprintf("%s %s %d", s.Name, s.UID, len(s.Endpoints)))
			if s.Generation != 1 || s.GenerateName != "web-" {
				t.Errorf("%s: generation %d, generateName %q", s.Name, s.Generation, s.GenerateName)
			}
		}
		if first == nil {
			first = names
			continue
		}
		if d := cmp.Diff(first, names); d != "" {
			t.Fatalf("names differ between renders (-first +now):\n%s", d)
		}
	}
	want := []string{"web-bbbbb", "web-bbbbc", "web-bbbbd"}
	var got []string
	for _, n := range first {
		got = append(got, strings.Fields(n)[0])
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("slice names (-want +got):\n%s", d)
	}
}

func TestRenderOptions(t *testing.T) {
	labelled := func(svc *corev1.Service) {
		svc.Labels = map[string]string{wellknown.LabelEndpointControllerName: "custom-ctrl.example.com"}
	}
	for _, tc := range []struct {
		name   string
		args   []string
		mutate func(*corev1.Service)
		// want is "managed-by endpoints" per slice.
		want []string
	}{
		{name: "defaults", want: []string{"endpointslice-controller.k8s.io 3"}},
		{name: "controller name", args: []string{"--controller-name=mine.example.com"}, want: []string{"mine.example.com 3"}},
		{name: "max endpoints per slice", args: []string{"--max-endpoints-per-slice=1"}, want: []string{
			"endpointslice-controller.k8s.io 1", "endpointslice-controller.k8s.io 1", "endpointslice-controller.k8s.io 1"}},
		{name: "delegated", mutate: labelled, want: nil},
		{name: "delegated to this controller", args: []string{"--controller-name=custom-ctrl.example.com"}, mutate: labelled,
			want: []string{"custom-ctrl.example.com 3"}},
		{name: "gate off", args: []string{"--feature-gates=ExternalEndpointController=false"}, mutate: labelled,
			want: []string{"endpointslice-controller.k8s.io 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t)
			copts := builtin.NewControllerOptions()
			fs := newFlagSet()
			copts.AddRenderFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			var mutate []func(*corev1.Service)
			if tc.mutate != nil {
				mutate = append(mutate, tc.mutate)
			}
			res, err := Render(ctx, scene(3, mutate...), Options{Controllers: copts})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range res.EndpointSlices {
				got = append(got, fmt.Sprintf("%s %d", s.Labels[discovery.LabelManagedBy], len(s.Endpoints)))
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("slices (-want +got):\n%s", d)
			}
		})
	}
}

// TestRenderMaxPasses: MaxPasses bounds the passes that write; the pass
// that shows the fixed point is not one of them, so one pass is enough
// for a scene one pass settles.
func TestRenderMaxPasses(t *testing.T) {
	for _, tc := range []struct {
		maxPasses  int
		wantPasses int
	}{
		{maxPasses: 1, wantPasses: 2},
		{maxPasses: 2, wantPasses: 2},
		{maxPasses: 0, wantPasses: 2}, // DefaultMaxPasses
	} {
		t.Run(fmt.Sprint(tc.maxPasses), func(t *testing.T) {
			res, err := Render(testContext(t), scene(3), Options{MaxPasses: tc.maxPasses})
			if err != nil {
				t.Fatalf("MaxPasses %d: %v", tc.maxPasses, err)
			}
			if res.Passes != tc.wantPasses || len(res.EndpointSlices) != 1 {
				t.Errorf("MaxPasses %d: %d passes, %d slices; want %d passes, 1 slice", tc.maxPasses, res.Passes, len(res.EndpointSlices), tc.wantPasses)
			}
		})
	}
}

func TestRenderInvalidOptions(t *testing.T) {
	copts := builtin.NewControllerOptions()
	copts.MaxEndpointsPerSlice = 0
	if _, err := Render(testContext(t), scene(1), Options{Controllers: copts}); err == nil {
		t.Error("no error for --max-endpoints-per-slice=0")
	}
}

func TestRenderWarnings(t *testing.T) {
	ctx := testContext(t)
	objs := scene(1, func(svc *corev1.Service) {
		svc.Annotations = map[string]string{corev1.AnnotationTopologyMode: "Auto"}
	})
	// A Pod on a Node that does not exist: live, the sync fails and is
	// retried; offline it is a warning, and the other Pods are written.
	objs = append(objs, &corev1.Pod{
		ObjectMeta: metaOf("web-lost", "ns", map[string]string{"app": "web"}),
		Spec:       corev1.PodSpec{NodeName: "node-gone"},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: "10.244.1.1", PodIPs: []corev1.PodIP{{IP: "10.244.1.1"}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		},
	})
	res, err := Render(ctx, objs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range res.Warnings {
		msgs = append(msgs, w.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"node-gone"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings do not mention %q:\n%s", want, all)
		}
	}
	if len(res.EndpointSlices) != 1 || len(res.EndpointSlices[0].Endpoints) != 1 {
		t.Errorf("want one slice with web-01, got %d slices", len(res.EndpointSlices))
	}
}

func TestMarshalEndpointSlice(t *testing.T) {
	s := &discovery.EndpointSlice{AddressType: discovery.AddressTypeIPv4}
	s.Name, s.Namespace, s.ResourceVersion = "x", "ns", "42"
	b, err := MarshalEndpointSlice(s)
	if err != nil {
		t.Fatal(err)
	}
	want := "addressType: IPv4\napiVersion: discovery.k8s.io/v1\nendpoints: null\nkind: EndpointSlice\nmetadata:\n  name: x\n  namespace: ns\nports: null\n"
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, _, err := Decode("out", b); err != nil {
		t.Errorf("output does not decode: %v", err)
	}
}
