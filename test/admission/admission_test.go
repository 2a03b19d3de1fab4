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

package admission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/wellknown"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// componentDir is the kustomize component under test.
var componentDir = filepath.Join("..", "..", "config", "components", "admission-policies")

// Identities the policies tell apart.
const (
	editor   = "alice"
	multusSA = "system:serviceaccount:kube-system:multus"
	slicekit = "system:serviceaccount:slicekit-system:slicekit"
	gcSA     = "system:serviceaccount:kube-system:generic-garbage-collector"
	ours     = wellknown.SecondaryNetworkControllerName
)

// loadComponent decodes the policies and bindings of the component's
// resources.
func loadComponent(t *testing.T) ([]*admissionv1.ValidatingAdmissionPolicy, []*admissionv1.ValidatingAdmissionPolicyBinding) {
	t.Helper()
	var k struct {
		Resources []string `json:"resources"`
	}
	data, err := os.ReadFile(filepath.Join(componentDir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &k); err != nil {
		t.Fatal(err)
	}
	var policies []*admissionv1.ValidatingAdmissionPolicy
	var bindings []*admissionv1.ValidatingAdmissionPolicyBinding
	for _, r := range k.Resources {
		data, err := os.ReadFile(filepath.Join(componentDir, r))
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			switch tm.Kind {
			case "ValidatingAdmissionPolicy":
				p := &admissionv1.ValidatingAdmissionPolicy{}
				if err := yaml.UnmarshalStrict([]byte(doc), p); err != nil {
					t.Fatalf("%s: %v", r, err)
				}
				policies = append(policies, p)
			case "ValidatingAdmissionPolicyBinding":
				b := &admissionv1.ValidatingAdmissionPolicyBinding{}
				if err := yaml.UnmarshalStrict([]byte(doc), b); err != nil {
					t.Fatalf("%s: %v", r, err)
				}
				bindings = append(bindings, b)
			default:
				t.Fatalf("%s: unexpected kind %q", r, tm.Kind)
			}
		}
	}
	if len(policies) != 2 || len(bindings) != 2 {
		t.Fatalf("component has %d policies and %d bindings, want 2 and 2", len(policies), len(bindings))
	}
	return policies, bindings
}

type env struct {
	t     *testing.T
	ctx   context.Context
	admin kubernetes.Interface
	cfg   *rest.Config
	ns    string
}

// as returns a client impersonating user with groups.
func (e *env) as(user string, groups ...string) kubernetes.Interface {
	cfg := rest.CopyConfig(e.cfg)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: append(groups, "system:authenticated")}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// asSA impersonates a ServiceAccount given as its username.
func (e *env) asSA(username string) kubernetes.Interface {
	ns := strings.Split(username, ":")[2]
	return e.as(username, "system:serviceaccounts", "system:serviceaccounts:"+ns)
}

func (e *env) clusterRoleFor(subject string, rules ...rbacv1.PolicyRule) {
	e.t.Helper()
	name := "test-" + strings.NewReplacer(":", "-").Replace(subject)
	_, err := e.admin.RbacV1().ClusterRoles().Create(e.ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		e.t.Fatal(err)
	}
	_, err = e.admin.RbacV1().ClusterRoleBindings().Create(e.ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects: []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: "User", Name: subject}}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		e.t.Fatal(err)
	}
}

// install creates the component's policies and bindings and waits until
// the API server enforces both.
func (e *env) install() {
	e.t.Helper()
	policies, bindings := loadComponent(e.t)
	for _, p := range policies {
		if _, err := e.admin.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(e.ctx, p, metav1.CreateOptions{}); err != nil {
			e.t.Fatal(err)
		}
	}
	for _, b := range bindings {
		if _, err := e.admin.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(e.ctx, b, metav1.CreateOptions{}); err != nil {
			e.t.Fatal(err)
		}
	}
	// Type checking is reported in the policies' status by
	// kube-controller-manager, which testenv does not run; the scenarios
	// below evaluate every expression instead.
	// Enforcement: the API server's policy cache follows within seconds.
	e.eventually("input policy enforced", func() (bool, error) {
		_, err := e.admin.CoreV1().Pods(e.ns).Create(e.ctx, pod("probe", map[string]string{wellknown.AnnotationNetworkStatus: "[]"}), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err != nil && strings.Contains(err.Error(), "slicekit-pod-address-inputs"), nil
	})
	e.eventually("output policy enforced", func() (bool, error) {
		_, err := e.admin.DiscoveryV1().EndpointSlices(e.ns).Create(e.ctx, slice("probe", ours), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err != nil && strings.Contains(err.Error(), "slicekit-endpointslice-writers"), nil
	})
}

func (e *env) eventually(what string, cond func() (bool, error)) {
	e.t.Helper()
	var last error
	err := wait.PollUntilContextTimeout(e.ctx, 100*time.Millisecond, 60*time.Second, true, func(context.Context) (bool, error) {
		ok, err := cond()
		last = err
		return ok, nil
	})
	if err != nil {
		e.t.Fatalf("waiting for %s: %v (last error %v)", what, err, last)
	}
}

func pod(name string, annotations map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "svc"}, Annotations: annotations},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10"}}},
	}
}

func slice(name, managedBy string) *discovery.EndpointSlice {
	return &discovery.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			discovery.LabelServiceName: "svc", discovery.LabelManagedBy: managedBy}},
		AddressType: discovery.AddressTypeIPv4,
		Endpoints:   []discovery.Endpoint{{Addresses: []string{"10.1.0.1"}, Conditions: discovery.EndpointConditions{Ready: ptr.To(true)}}},
		Ports:       []discovery.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](80)}},
	}
}

// expect checks err against allowed: nil when allowed, a denial naming
// policy otherwise.
func expect(t *testing.T, what string, err error, allowed bool, policy string) {
	t.Helper()
	switch {
	case allowed && err != nil:
		t.Errorf("%s: denied: %v", what, err)
	case !allowed && err == nil:
		t.Errorf("%s: admitted, want denied by %s", what, policy)
	case !allowed && !strings.Contains(err.Error(), policy):
		t.Errorf("%s: denied, but not by %s: %v", what, policy, err)
	}
}

func annotationPatch(key string, value *string) []byte {
	p, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: value}}})
	return p
}

// TestPolicies installs the component and exercises both policies.
// Policies are cluster-wide: the test does not run in parallel with
// others of this package.
func TestPolicies(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs the local control plane (make controlplane); skipped with -short")
	}
	te := testenv.Shared(t)
	e := &env{t: t, ctx: t.Context(), admin: te.Client, cfg: te.Config}
	e.ns = testenv.Namespace(t, te.Client)

	// The editor of issue 24: edit and view in the namespace, no slice
	// writes. Multus may update Pods and their status; slicekit and the
	// garbage collector may write slices (RBAC; the policy decides).
	for _, role := range []string{"system:aggregate-to-edit", "system:aggregate-to-view"} {
		if _, err := e.admin.RbacV1().RoleBindings(e.ns).Create(e.ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{GenerateName: "editor-"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: "User", Name: editor}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	e.clusterRoleFor(multusSA, rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods", "pods/status"}, Verbs: []string{"get", "update", "patch"}})
	e.clusterRoleFor("system:node:n1", rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"patch"}})
	slices := rbacv1.PolicyRule{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"get", "create", "update", "patch", "delete"}}
	e.clusterRoleFor(slicekit, slices)
	e.clusterRoleFor(gcSA, slices)

	alice := e.as(editor)
	// Without the policies the editor forges the annotation (the issue).
	forged := "[" + `{"name":"x/net","ips":["10.96.0.1"]}` + "]"
	if _, err := alice.CoreV1().Pods(e.ns).Create(e.ctx, pod("before", map[string]string{wellknown.AnnotationNetworkStatus: forged}), metav1.CreateOptions{}); err != nil {
		t.Fatalf("before the policies, the editor cannot create the Pod (the test's RBAC is wrong): %v", err)
	}

	e.install()
	const in, out = "slicekit-pod-address-inputs", "slicekit-endpointslice-writers"
	pods := func(c kubernetes.Interface) func(name string, patch []byte) error {
		return func(name string, patch []byte) error {
			_, err := c.CoreV1().Pods(e.ns).Patch(e.ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
			return err
		}
	}

	t.Run("inputs", func(t *testing.T) {
		_, err := alice.CoreV1().Pods(e.ns).Create(e.ctx, pod("forged", map[string]string{wellknown.AnnotationNetworkStatus: forged}), metav1.CreateOptions{})
		expect(t, "editor creates a Pod with network-status", err, false, in)
		_, err = alice.CoreV1().Pods(e.ns).Create(e.ctx, pod("legacy", map[string]string{wellknown.AnnotationNetworkStatusLegacy: forged}), metav1.CreateOptions{})
		expect(t, "editor creates a Pod with the legacy networks-status", err, false, in)
		_, err = alice.CoreV1().Pods(e.ns).Create(e.ctx, pod("p", map[string]string{"team": "blue"}), metav1.CreateOptions{})
		expect(t, "editor creates a Pod without it", err, true, in)

		expect(t, "editor adds network-status", pods(alice)("p", annotationPatch(wellknown.AnnotationNetworkStatus, &forged)), false, in)
		expect(t, "editor changes another annotation", pods(alice)("p", annotationPatch("team", ptr.To("red"))), true, in)

		// Multus writes it through pods/status, as Multus does.
		multus := e.asSA(multusSA)
		p, err := multus.CoreV1().Pods(e.ns).Get(e.ctx, "p", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p.Annotations[wellknown.AnnotationNetworkStatus] = `[{"name":"x/net","ips":["10.1.0.9"]}]`
		_, err = multus.CoreV1().Pods(e.ns).UpdateStatus(e.ctx, p, metav1.UpdateOptions{})
		expect(t, "Multus sets network-status through pods/status", err, true, in)
		// A kubelet (group system:nodes) may too.
		expect(t, "a node changes network-status", pods(e.as("system:node:n1", "system:nodes"))("p",
			annotationPatch(wellknown.AnnotationNetworkStatus, ptr.To(`[{"name":"x/net","ips":["10.1.0.10"]}]`))), true, in)

		expect(t, "editor relabels a Pod with network-status", pods(alice)("p", []byte(`{"metadata":{"labels":{"v":"2"}}}`)), true, in)
		expect(t, "editor rewrites network-status", pods(alice)("p", annotationPatch(wellknown.AnnotationNetworkStatus, &forged)), false, in)
		expect(t, "a cluster admin rewrites it through pods/status", func() error {
			p, err := alice.CoreV1().Pods(e.ns).Get(e.ctx, "p", metav1.GetOptions{})
			if err != nil {
				return err
			}
			p.Annotations[wellknown.AnnotationNetworkStatus] = forged
			_, err = e.admin.CoreV1().Pods(e.ns).UpdateStatus(e.ctx, p, metav1.UpdateOptions{})
			return err
		}(), false, in)
		expect(t, "editor removes network-status", pods(alice)("p", annotationPatch(wellknown.AnnotationNetworkStatus, nil)), false, in)
	})

	t.Run("outputs", func(t *testing.T) {
		sk := e.asSA(slicekit)
		_, err := e.admin.DiscoveryV1().EndpointSlices(e.ns).Create(e.ctx, slice("admin-made", ours), metav1.CreateOptions{})
		expect(t, "a cluster admin creates a slice managed by slicekit", err, false, out)
		_, err = sk.DiscoveryV1().EndpointSlices(e.ns).Create(e.ctx, slice("ours", ours), metav1.CreateOptions{})
		expect(t, "slicekit creates its slice", err, true, out)
		_, err = e.admin.DiscoveryV1().EndpointSlices(e.ns).Create(e.ctx, slice("theirs", "other.example.com"), metav1.CreateOptions{})
		expect(t, "a cluster admin creates a slice of another controller", err, true, out)

		update := func(c kubernetes.Interface, name string, mod func(*discovery.EndpointSlice)) error {
			s, err := e.admin.DiscoveryV1().EndpointSlices(e.ns).Get(e.ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			mod(s)
			_, err = c.DiscoveryV1().EndpointSlices(e.ns).Update(e.ctx, s, metav1.UpdateOptions{})
			return err
		}
		steer := func(s *discovery.EndpointSlice) { s.Endpoints[0].Addresses = []string{"10.244.9.9"} }
		expect(t, "slicekit updates its slice", update(sk, "ours", func(s *discovery.EndpointSlice) { s.Endpoints[0].Addresses = []string{"10.1.0.2"} }), true, out)
		expect(t, "a cluster admin steers slicekit's slice", update(e.admin, "ours", steer), false, out)
		expect(t, "a cluster admin takes slicekit's slice", update(e.admin, "ours", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelManagedBy] = "other.example.com" }), false, out)
		expect(t, "slicekit gives its slice away", update(sk, "ours", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelManagedBy] = "other.example.com" }), false, out)
		expect(t, "a slice is moved under slicekit's name", update(e.admin, "theirs", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelManagedBy] = ours }), false, out)
		expect(t, "slicekit takes another controller's slice", update(sk, "theirs", func(s *discovery.EndpointSlice) { s.Labels[discovery.LabelManagedBy] = ours }), false, out)
		expect(t, "a cluster admin updates another controller's slice", update(e.admin, "theirs", steer), true, out)
		expect(t, "a cluster admin deletes slicekit's slice", e.admin.DiscoveryV1().EndpointSlices(e.ns).Delete(e.ctx, "ours", metav1.DeleteOptions{}), false, out)
		expect(t, "the garbage collector deletes slicekit's slice", e.asSA(gcSA).DiscoveryV1().EndpointSlices(e.ns).Delete(e.ctx, "ours", metav1.DeleteOptions{}), true, out)
		_, err = sk.DiscoveryV1().EndpointSlices(e.ns).Create(e.ctx, slice("ours2", ours), metav1.CreateOptions{})
		expect(t, "slicekit creates another", err, true, out)
		expect(t, "slicekit deletes its slice", sk.DiscoveryV1().EndpointSlices(e.ns).Delete(e.ctx, "ours2", metav1.DeleteOptions{}), true, out)
	})
}
