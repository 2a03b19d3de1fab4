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

package config

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
	"github.com/slicekit/slicekit/pkg/manager"
)

// decodeStrict decodes one YAML document strictly (unknown and duplicate
// fields are errors, case-sensitive) into its client-go type.
func decodeStrict(doc []byte) (runtime.Object, error) {
	j, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return nil, err
	}
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return nil, err
	}
	var obj any
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	if gvk.Group == "kustomize.config.k8s.io" {
		obj = &types.Kustomization{}
	} else {
		o, err := scheme.Scheme.New(gvk)
		if err != nil {
			return nil, err
		}
		obj = o
	}
	strictErrs, err := kjson.UnmarshalStrict(j, obj, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, err
	}
	if err := errors.Join(strictErrs...); err != nil {
		return nil, err
	}
	if o, ok := obj.(runtime.Object); ok {
		return o, nil
	}
	return nil, nil // a Kustomization
}

// decodeAll decodes every document of a multi-document YAML stream.
func decodeAll(t *testing.T, name string, data []byte) []runtime.Object {
	t.Helper()
	var out []runtime.Object
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: document %d: %v", name, i, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, err := decodeStrict(doc)
		if err != nil {
			t.Errorf("%s: document %d: %v", name, i, err)
			continue
		}
		if obj != nil {
			out = append(out, obj)
		}
	}
}

// TestFilesDecodeStrictly decodes every YAML file under config/ strictly,
// except monitoring/ (Prometheus rules and the operator's PrometheusRule,
// which client-go's scheme does not know; tools/deploytest checks them).
func TestFilesDecodeStrictly(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && path == "monitoring" {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		decodeAll(t, path, data)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("only %d YAML files found", n)
	}
}

// build renders config/ with kustomize's API, as `kubectl apply -k config/`
// does, and decodes the result strictly.
func build(t *testing.T) map[string]runtime.Object {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), ".")
	if err != nil {
		t.Fatalf("kustomize build config/: %v", err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]runtime.Object{}
	for _, o := range decodeAll(t, "kustomize build", out) {
		gvk := o.GetObjectKind().GroupVersionKind()
		acc, ok := o.(interface {
			GetName() string
			GetNamespace() string
		})
		if !ok {
			t.Fatalf("%s has no metadata", gvk)
		}
		objs[gvk.Kind+" "+acc.GetNamespace()+"/"+acc.GetName()] = o
	}
	return objs
}

func TestKustomizeBuild(t *testing.T) {
	objs := build(t)
	var got []string
	for k := range objs {
		got = append(got, k)
	}
	slices.Sort(got)
	want := []string{
		"ClusterRole /slicekit",
		"ClusterRoleBinding /slicekit",
		"Deployment slicekit-system/slicekit",
		"Namespace /slicekit-system",
		"Role slicekit-system/slicekit-leader-election",
		"RoleBinding slicekit-system/slicekit-leader-election",
		"ServiceAccount slicekit-system/slicekit",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("objects (-want +got):\n%s", d)
	}
	for k, o := range objs {
		acc := o.(interface{ GetLabels() map[string]string })
		if acc.GetLabels()["app.kubernetes.io/part-of"] != "slicekit" {
			t.Errorf("%s lacks label app.kubernetes.io/part-of=slicekit", k)
		}
	}
}

// permissions expands rules into sorted "group resource verb" triples.
func permissions(rules []rbacv1.PolicyRule) []string {
	var out []string
	for _, r := range rules {
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				for _, v := range r.Verbs {
					out = append(out, g+" "+res+" "+v)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestClusterRoleIsLeastPrivilege checks the ClusterRole against what the
// default controllers declare they need (each controller package's
// RBACRules, the single source the permission preflight of `slicekit run`
// also checks): every needed permission is granted, none more.
func TestClusterRoleIsLeastPrivilege(t *testing.T) {
	role := build(t)["ClusterRole /slicekit"].(*rbacv1.ClusterRole)
	needed, err := manager.ControllerRBACRules(builtin.DefaultControllers()...)
	if err != nil {
		t.Fatal(err)
	}
	if len(needed) == 0 {
		t.Fatal("the default controllers declare no rules")
	}
	if d := cmp.Diff(permissions(needed), permissions(role.Rules)); d != "" {
		t.Errorf("ClusterRole permissions (-needed by %v +granted):\n%s", builtin.DefaultControllers(), d)
	}
	for _, r := range role.Rules {
		if len(r.ResourceNames) > 0 || len(r.NonResourceURLs) > 0 {
			t.Errorf("unexpected resourceNames or nonResourceURLs in rule %+v", r)
		}
		for _, s := range append(append(r.Verbs, r.Resources...), r.APIGroups...) {
			if s == "*" {
				t.Errorf("wildcard in rule %+v", r)
			}
		}
	}
}

func TestLeaderElectionRole(t *testing.T) {
	objs := build(t)
	role := objs["Role slicekit-system/slicekit-leader-election"].(*rbacv1.Role)
	if d := cmp.Diff(permissions(manager.LeaderElectionRBACRules()), permissions(role.Rules)); d != "" {
		t.Errorf("Role permissions (-needed by leader election +granted):\n%s", d)
	}
	dep := objs["Deployment slicekit-system/slicekit"].(*appsv1.Deployment)
	sa := dep.Spec.Template.Spec.ServiceAccountName
	subject := rbacv1.Subject{Kind: "ServiceAccount", Name: sa, Namespace: dep.Namespace}
	for _, key := range []string{"ClusterRoleBinding /slicekit", "RoleBinding slicekit-system/slicekit-leader-election"} {
		var subjects []rbacv1.Subject
		var ref rbacv1.RoleRef
		switch b := objs[key].(type) {
		case *rbacv1.ClusterRoleBinding:
			subjects, ref = b.Subjects, b.RoleRef
		case *rbacv1.RoleBinding:
			subjects, ref = b.Subjects, b.RoleRef
		}
		if d := cmp.Diff([]rbacv1.Subject{subject}, subjects); d != "" {
			t.Errorf("%s subjects (-want +got):\n%s", key, d)
		}
		if _, ok := objs[ref.Kind+" "+map[string]string{"Role": dep.Namespace}[ref.Kind]+"/"+ref.Name]; !ok {
			t.Errorf("%s refers to missing %s %s", key, ref.Kind, ref.Name)
		}
	}
	if _, ok := objs["ServiceAccount "+dep.Namespace+"/"+sa]; !ok {
		t.Errorf("ServiceAccount %s/%s is not shipped", dep.Namespace, sa)
	}
}

// TestDeployment checks that the Deployment's arguments are valid `slicekit
// run` flags and agree with its ports, probes and security settings.
func TestDeployment(t *testing.T) {
	dep := build(t)["Deployment slicekit-system/slicekit"].(*appsv1.Deployment)
	pod := dep.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	if want := imageFromMakefile(t); c.Image != want {
		t.Errorf("image %q, want the Makefile's IMAGE %q", c.Image, want)
	}
	if len(c.Args) == 0 || c.Args[0] != "run" {
		t.Fatalf("args %q do not start with run", c.Args)
	}

	t.Setenv("POD_NAMESPACE", dep.Namespace)
	o := manager.NewOptions()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse(c.Args[1:]); err != nil {
		t.Fatalf("args: %v", err)
	}
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatalf("args do not validate: %v", err)
	}
	if !o.LeaderElection.LeaderElect || o.LeaderElection.ResourceNamespace != dep.Namespace {
		t.Errorf("leader election %v in namespace %q, want on in %q", o.LeaderElection.LeaderElect, o.LeaderElection.ResourceNamespace, dep.Namespace)
	}
	if *dep.Spec.Replicas < 2 {
		t.Errorf("replicas %d: leader election wants a standby", *dep.Spec.Replicas)
	}

	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	portOf := func(addr string) string { return addr[strings.LastIndex(addr, ":")+1:] }
	if got := portOf(o.MetricsBindAddress); got != itoa(ports["metrics"]) {
		t.Errorf("--metrics-bind-address port %s, container port metrics %d", got, ports["metrics"])
	}
	if got := portOf(o.HealthProbeBindAddress); got != itoa(ports["health"]) {
		t.Errorf("--health-probe-bind-address port %s, container port health %d", got, ports["health"])
	}
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", c.LivenessProbe, "/healthz"}, {"readiness", c.ReadinessProbe, "/readyz"}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("no %s HTTP probe", p.name)
			continue
		}
		if p.probe.HTTPGet.Path != p.path || p.probe.HTTPGet.Port.String() != "health" {
			t.Errorf("%s probe %s on port %s, want %s on health", p.name, p.probe.HTTPGet.Path, p.probe.HTTPGet.Port.String(), p.path)
		}
	}

	sc := c.SecurityContext
	psc := pod.SecurityContext
	switch {
	case sc == nil || psc == nil:
		t.Fatal("no security context")
	case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
		t.Error("root filesystem is writable")
	case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
		t.Error("privilege escalation allowed")
	case psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot:
		t.Error("may run as root")
	case sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}):
		t.Error("capabilities not dropped")
	}
	if pod.TerminationGracePeriodSeconds == nil || *pod.TerminationGracePeriodSeconds < int64(o.ShutdownTimeout.Seconds()) {
		t.Errorf("terminationGracePeriodSeconds %v is shorter than the manager's shutdown timeout %s", pod.TerminationGracePeriodSeconds, o.ShutdownTimeout)
	}
}

func itoa(i int32) string {
	b, _ := yaml.Marshal(i)
	return strings.TrimSpace(string(b))
}

// imageFromMakefile returns the image reference `make image` builds:
// IMAGE_REPOSITORY:IMAGE_TAG of tools/image/image.mk, the one place the
// reference is defined.
func imageFromMakefile(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "tools", "image", "image.mk"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "?=")
		if ok {
			vars[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	repo, tag := vars["IMAGE_REPOSITORY"], vars["IMAGE_TAG"]
	if repo == "" || tag == "" {
		t.Fatalf("tools/image/image.mk defines no IMAGE_REPOSITORY or IMAGE_TAG: %v", vars)
	}
	return repo + ":" + tag
}

// TestImageReferenceAgrees checks that config/kustomization.yaml's images:
// entry and the chart's image values name the Makefile's IMAGE.
func TestImageReferenceAgrees(t *testing.T) {
	want := imageFromMakefile(t)
	data, err := os.ReadFile("kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var k types.Kustomization
	if err := yaml.UnmarshalStrict(data, &k); err != nil {
		t.Fatal(err)
	}
	if len(k.Images) != 1 {
		t.Fatalf("kustomization.yaml has %d images entries, want 1", len(k.Images))
	}
	img := k.Images[0]
	repo := img.Name
	if img.NewName != "" {
		repo = img.NewName
	}
	if got := repo + ":" + img.NewTag; got != want {
		t.Errorf("kustomization.yaml images: %s, the Makefile's IMAGE is %s", got, want)
	}
	data, err = os.ReadFile(filepath.Join("..", "charts", "slicekit", "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var values struct {
		Image struct{ Repository, Tag, Digest string }
	}
	if err := yaml.Unmarshal(data, &values); err != nil {
		t.Fatal(err)
	}
	if got := values.Image.Repository + ":" + values.Image.Tag; got != want || values.Image.Digest != "" {
		t.Errorf("charts/slicekit/values.yaml image %s (digest %q), the Makefile's IMAGE is %s", got, values.Image.Digest, want)
	}
}

// managedClusterOverlay is the overlay of docs/managed-clusters.md.
const managedClusterOverlay = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../config
components:
- ../config/components/selectorless-cleanup
- ../config/components/pod-address-controllers
- ../config/components/admission-policies
patches:
- target:
    kind: Deployment
    name: slicekit
  patch: |-
    - op: replace
      path: /spec/template/spec/containers/0/args/1
      value: --controllers=secondary-network,selectorless-cleanup
`

// TestSelectorlessCleanupComponent builds the overlay of
// docs/managed-clusters.md: config/ with the optional component
// components/selectorless-cleanup. The component adds
// exactly the right to delete Endpoints, bound to the Deployment's service
// account, and the Deployment runs secondary-network and
// selectorless-cleanup with valid arguments (also with the dry-run flag).
func TestSelectorlessCleanupComponent(t *testing.T) {
	// An overlay as docs/managed-clusters.md shows it, on an in-memory
	// copy of config/ (kustomize refuses an overlay inside its base).
	fs := filesys.MakeFsInMemory()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fs.WriteFile(filepath.Join("/config", path), data)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/overlay/kustomization.yaml", []byte(managedClusterOverlay)); err != nil {
		t.Fatal(err)
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/overlay")
	if err != nil {
		t.Fatalf("kustomize build of the overlay: %v", err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	var role *rbacv1.ClusterRole
	var binding *rbacv1.ClusterRoleBinding
	var dep *appsv1.Deployment
	for _, o := range decodeAll(t, "kustomize build", out) {
		switch v := o.(type) {
		case *rbacv1.ClusterRole:
			if v.Name == "slicekit-selectorless-cleanup" {
				role = v
			}
		case *rbacv1.ClusterRoleBinding:
			if v.Name == "slicekit-selectorless-cleanup" {
				binding = v
			}
		case *appsv1.Deployment:
			dep = v
		}
	}
	if role == nil || binding == nil || dep == nil {
		t.Fatalf("missing objects: role %v, binding %v, deployment %v", role != nil, binding != nil, dep != nil)
	}
	want := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"delete"}}}
	if d := cmp.Diff(want, role.Rules); d != "" {
		t.Errorf("rules (-want +got):\n%s", d)
	}
	// Together with config/rbac, exactly what the two controllers declare
	// they need (the permission preflight's source).
	var base *rbacv1.ClusterRole
	for _, o := range decodeAll(t, "kustomize build", out) {
		if r, ok := o.(*rbacv1.ClusterRole); ok && r.Name == "slicekit" {
			base = r
		}
	}
	if base == nil {
		t.Fatal("no ClusterRole slicekit")
	}
	needed, err := manager.ControllerRBACRules(secondarynetwork.RegistrationName, selectorlesscleanup.RegistrationName)
	if err != nil {
		t.Fatal(err)
	}
	granted := permissions(append(slices.Clone(base.Rules), role.Rules...))
	for _, o := range decodeAll(t, "kustomize build", out) {
		if r, ok := o.(*rbacv1.ClusterRole); ok && r.Name == "slicekit-pod-address-controllers" {
			granted = permissions(append(append(slices.Clone(base.Rules), role.Rules...), r.Rules...))
			// Least privilege: nothing the controllers do not declare.
			for _, p := range permissions(r.Rules) {
				if !slices.Contains(permissions(needed), p) {
					t.Errorf("components/pod-address-controllers grants %s, which no controller declares", p)
				}
			}
		}
	}
	for _, p := range permissions(needed) {
		if !slices.Contains(granted, p) {
			t.Errorf("secondary-network,selectorless-cleanup need %s; config/rbac plus the component do not grant it", p)
		}
	}
	sa := rbacv1.Subject{Kind: "ServiceAccount", Name: dep.Spec.Template.Spec.ServiceAccountName, Namespace: dep.Namespace}
	if d := cmp.Diff([]rbacv1.Subject{sa}, binding.Subjects); d != "" {
		t.Errorf("subjects (-want +got):\n%s", d)
	}
	if binding.RoleRef.Name != role.Name {
		t.Errorf("binding refers to %s", binding.RoleRef.Name)
	}
	o := manager.NewOptions()
	flags := pflag.NewFlagSet("run", pflag.ContinueOnError)
	o.AddFlags(flags)
	args := append(slices.Clone(dep.Spec.Template.Spec.Containers[0].Args[1:]), "--selectorless-cleanup-dry-run")
	if !slices.Contains(args, "--controllers=secondary-network,selectorless-cleanup") {
		t.Errorf("the overlay's Deployment args %q do not run secondary-network,selectorless-cleanup", args)
	}
	if err := flags.Parse(args); err != nil {
		t.Fatal(err)
	}
	t.Setenv("POD_NAMESPACE", dep.Namespace)
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("a Deployment running selectorless-cleanup does not validate: %v", err)
	}
}

// draNetworkOverlay enables the dra-network controller beside the default
// ones, with the component of its RBAC.
const draNetworkOverlay = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../config
components:
- ../config/components/dra-network
patches:
- target:
    kind: Deployment
    name: slicekit
  patch: |-
    - op: replace
      path: /spec/template/spec/containers/0/args/1
      value: --controllers=*,dra-network
`

// TestDRANetworkComponent builds config/ with the optional component
// components/dra-network: together with config/rbac, exactly what the
// default controllers plus dra-network declare they need, bound to the
// Deployment's service account, and valid arguments.
func TestDRANetworkComponent(t *testing.T) {
	fs := filesys.MakeFsInMemory()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fs.WriteFile(filepath.Join("/config", path), data)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/overlay/kustomization.yaml", []byte(draNetworkOverlay)); err != nil {
		t.Fatal(err)
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/overlay")
	if err != nil {
		t.Fatalf("kustomize build of the overlay: %v", err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	var granted []rbacv1.PolicyRule
	var binding *rbacv1.ClusterRoleBinding
	var dep *appsv1.Deployment
	for _, o := range decodeAll(t, "kustomize build", out) {
		switch v := o.(type) {
		case *rbacv1.ClusterRole:
			granted = append(granted, v.Rules...)
		case *rbacv1.ClusterRoleBinding:
			if v.Name == "slicekit-dra-network" {
				binding = v
			}
		case *appsv1.Deployment:
			dep = v
		}
	}
	if binding == nil || dep == nil {
		t.Fatalf("missing objects: binding %v, deployment %v", binding != nil, dep != nil)
	}
	names := append(builtin.DefaultControllers(), dranetwork.RegistrationName)
	needed, err := manager.ControllerRBACRules(names...)
	if err != nil {
		t.Fatal(err)
	}
	have := permissions(granted)
	for _, p := range permissions(needed) {
		if !slices.Contains(have, p) {
			t.Errorf("%v need %s; config/rbac plus the component do not grant it", names, p)
		}
	}
	sa := rbacv1.Subject{Kind: "ServiceAccount", Name: dep.Spec.Template.Spec.ServiceAccountName, Namespace: dep.Namespace}
	if d := cmp.Diff([]rbacv1.Subject{sa}, binding.Subjects); d != "" {
		t.Errorf("subjects (-want +got):\n%s", d)
	}
	o := manager.NewOptions()
	flags := pflag.NewFlagSet("run", pflag.ContinueOnError)
	o.AddFlags(flags)
	if err := flags.Parse(dep.Spec.Template.Spec.Containers[0].Args[1:]); err != nil {
		t.Fatal(err)
	}
	t.Setenv("POD_NAMESPACE", dep.Namespace)
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("a Deployment running dra-network does not validate: %v", err)
	}
}
