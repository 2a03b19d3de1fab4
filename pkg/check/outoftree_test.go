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

package check_test

// A controller registered out of tree (here, in a test of another
// package) gives `slicekit check` its oracle through its Registration:
// pkg/check knows no controller by name.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// backupIPAnnotation is the Pod annotation the backup controller
// publishes instead of status.podIPs.
const backupIPAnnotation = "example.com/backup-ip"

// backupSource is the backup controller's source: each Pod's
// backupIPAnnotation.
func backupSource() source.PodAddresses {
	return source.PodAddresses{Addresses: func(_ context.Context, _ *corev1.Service, pod *corev1.Pod) ([]string, error) {
		if ip := pod.Annotations[backupIPAnnotation]; ip != "" {
			return []string{ip}, nil
		}
		return nil, nil
	}}
}

// backupOptions are the backup controller's options, its flag's target:
// --backup-controller-name, as an out-of-tree labelled controller writes
// them.
type backupOptions struct{ ControllerName string }

func (o *backupOptions) AddFlags(fs *pflag.FlagSet) { o.AddRenderFlags(fs) }
func (o *backupOptions) AddRenderFlags(fs *pflag.FlagSet) {
	registry.AddControllerNameFlag(fs, &o.ControllerName, "backup")
}
func (o *backupOptions) Validate(enabled bool) error {
	return registry.ValidateControllerName("backup", o.ControllerName, enabled)
}

// backupRegistration registers the backup controller, answering to
// --backup-controller-name (default backup.example.com), with an oracle
// (its own source) or without.
func backupRegistration(withOracle bool) registry.Registration {
	newOptions := func() *backupOptions { return &backupOptions{ControllerName: "backup.example.com"} }
	r := registry.Registration{
		Name:       "backup",
		NewOptions: func() registry.Options { return newOptions() },
		Workers:    registry.ServiceWorkers,
		New: func(context.Context, registry.InitContext) (registry.Controller, error) {
			return nil, nil // never run by check
		},
		RBACRules: func() []rbacv1.PolicyRule { return nil },
		ManagedBy: func(ic registry.InitContext) []registry.ManagedBy {
			return []registry.ManagedBy{{Flag: "--backup-controller-name", Value: registry.OptionsAs(ic, newOptions).ControllerName}}
		},
	}
	if withOracle {
		r.Oracle = func(ic registry.InitContext) []registry.Oracle {
			return []registry.Oracle{{
				ControllerName: registry.OptionsAs(ic, newOptions).ControllerName,
				Source:         func(registry.OracleInput) source.Source { return backupSource() },
				PodAddresses:   true,
			}}
		}
	}
	return r
}

// backupWorld returns Service web delegated to controller name, its two
// Pods with backup addresses, their Node, and the slice the backup
// controller publishes (computed by its source) with the endpoints of the
// Pods in keep.
func backupWorld(t *testing.T, name string, keep ...string) []runtime.Object {
	t.Helper()
	svc := &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-web",
			Labels: map[string]string{wellknown.LabelEndpointControllerName: name}},
		Spec: corev1.ServiceSpec{
			Type: corev1.ServiceTypeClusterIP, ClusterIP: "10.96.0.1", ClusterIPs: []string{"10.96.0.1"},
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Selector:   map[string]string{"app": "web"},
			Ports:      []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080), Protocol: corev1.ProtocolTCP}},
		},
	}
	node := &corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{corev1.LabelTopologyZone: "zone-a"}}}
	objs := []runtime.Object{svc, node}
	var pods []*corev1.Pod
	for i, n := range []string{"web-1", "web-2"} {
		p := &corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{Name: n, Namespace: "ns", UID: types.UID("uid-" + n), Labels: map[string]string{"app": "web"},
				Annotations: map[string]string{backupIPAnnotation: "192.168.9." + string(rune('1'+i))}},
			Spec: corev1.PodSpec{NodeName: "node-a",
				Containers: []corev1.Container{{Name: "app", Image: "app", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0." + string(rune('1'+i)), PodIPs: []corev1.PodIP{{IP: "10.0.0." + string(rune('1'+i))}},
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
		}
		pods = append(pods, p)
		objs = append(objs, p)
	}
	d, _, err := backupSource().Desired(t.Context(), svc, pods, nodeGetter{node})
	if err != nil || len(d.Groups) != 1 {
		t.Fatalf("backup source: %+v, %v", d, err)
	}
	slice := &discovery.EndpointSlice{
		TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-backup", Namespace: "ns",
			Labels:          map[string]string{discovery.LabelServiceName: "web", discovery.LabelManagedBy: name},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: "web", UID: "uid-web", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}},
		AddressType: discovery.AddressTypeIPv4,
		Ports:       d.Groups[0].Ports,
	}
	for _, e := range d.Groups[0].Endpoints {
		if slices.Contains(keep, e.TargetRef.Name) {
			slice.Endpoints = append(slice.Endpoints, e)
		}
	}
	return append(objs, slice)
}

func TestOutOfTreeOracle(t *testing.T) {
	const missing = "error endpoint-missing Service ns/web"
	for _, tc := range []struct {
		name       string
		withOracle bool
		keep       []string
		want       []string // findings of severity error
		note       bool     // Skipped says the controller has no oracle
	}{
		{name: "oracle, every Pod published", withOracle: true, keep: []string{"web-1", "web-2"}},
		{name: "oracle, a Pod missing", withOracle: true, keep: []string{"web-1"}, want: []string{missing}},
		{name: "no oracle, a Pod missing: generic rules only, noted", keep: []string{"web-1"}, note: true},
		{name: "no oracle, every Pod published", keep: []string{"web-1", "web-2"}, note: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			objs := backupWorld(t, "backup.example.com", tc.keep...)
			cfg := check.Config{Oracles: registry.Oracles([]registry.Registration{backupRegistration(tc.withOracle)}, nil)}
			rep := check.Check(ctx, check.NewInventory(objs), cfg)
			if got := errorKeys(rep); !slices.Equal(got, tc.want) {
				t.Errorf("errors %v, want %v", got, tc.want)
			}
			if got := noted(rep, "backup.example.com"); got != tc.note {
				t.Errorf("no-oracle note = %t, want %t (skipped: %+v)", got, tc.note, rep.Skipped)
			}
		})
	}
}

// TestOutOfTreeOracleRun: `slicekit check` built with an out-of-tree
// registration takes its flag (--backup-controller-name) and judges the
// Services delegated to that name with its oracle.
func TestOutOfTreeOracleRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		flagValue string // "" keeps the default
		sliceName string // the controller name the world uses
		wantCode  int
	}{
		{name: "default name", sliceName: "backup.example.com", wantCode: check.ExitFindings},
		{name: "renamed by its flag", flagValue: "b2.example.com", sliceName: "b2.example.com", wantCode: check.ExitFindings},
		{name: "renamed, world uses the old name: no oracle", flagValue: "b2.example.com", sliceName: "backup.example.com", wantCode: check.ExitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			var docs []string
			for _, o := range backupWorld(t, tc.sliceName, "web-1") {
				b, err := yaml.Marshal(o)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, string(b))
			}
			file := filepath.Join(t.TempDir(), "dump.yaml")
			if err := os.WriteFile(file, []byte(strings.Join(docs, "---\n")), 0o600); err != nil {
				t.Fatal(err)
			}
			o := check.NewOptions(backupRegistration(true))
			fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
			o.AddFlags(fs)
			args := []string{"-f", file, "-o", "json"}
			if tc.flagValue != "" {
				args = append(args, "--backup-controller-name", tc.flagValue)
			}
			if err := fs.Parse(args); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			code, err := check.Run(ctx, *o, &out)
			if err != nil || code != tc.wantCode {
				t.Fatalf("Run = %d, %v, want %d:\n%s", code, err, tc.wantCode, out.String())
			}
			var rep check.Report
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			if got := errorKeys(&rep); tc.wantCode == check.ExitFindings && !slices.Equal(got, []string{"error endpoint-missing Service ns/web"}) {
				t.Errorf("errors %v, want endpoint-missing only", got)
			}
		})
	}
}

// errorKeys returns "severity rule Kind ns/name" of rep's errors, sorted;
// nil without.
func errorKeys(rep *check.Report) []string {
	var out []string
	for _, f := range rep.Findings {
		if f.Severity == check.SeverityError {
			out = append(out, string(f.Severity)+" "+string(f.Rule)+" "+f.Object.String())
		}
	}
	slices.Sort(out)
	return out
}

// noted reports whether rep's Skipped names controller as one without an
// oracle.
func noted(rep *check.Report, controller string) bool {
	return slices.ContainsFunc(rep.Skipped, func(s check.Skip) bool {
		return slices.Contains(s.Rules, check.RuleEndpointMissing) && strings.Contains(s.Reason, controller) && strings.Contains(s.Reason, "no oracle")
	})
}

// nodeGetter is a podendpoint.NodeGetter over one Node.
type nodeGetter struct{ node *corev1.Node }

func (g nodeGetter) Get(string) (*corev1.Node, error) { return g.node, nil }
