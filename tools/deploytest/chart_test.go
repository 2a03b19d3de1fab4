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

package deploytest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/controllers/endpoints"
	"github.com/slicekit/slicekit/pkg/controllers/mirroring"
	"github.com/slicekit/slicekit/pkg/controllers/secondarynetwork"
	"github.com/slicekit/slicekit/pkg/controllers/selectorlesscleanup"
	"github.com/slicekit/slicekit/pkg/manager"
)

const (
	chartDir = "../../charts/slicekit"
	// releaseName and namespace make the chart's object names those of
	// config/ (fullname "slicekit" in slicekit-system).
	releaseName = "slicekit"
	namespace   = "slicekit-system"
)

// testedKubeVersion is the Kubernetes version the chart is rendered for
// ('helm template --kube-version') unless a test says otherwise.
const testedKubeVersion = "v1.37.2"

// rendered is the output of one chart rendering, by "Kind namespace/name".
type rendered map[string]*unstructured.Unstructured

// render renders the chart as 'helm template slicekit charts/slicekit -n
// slicekit-system' does, with vals (nil: the defaults).
func render(t *testing.T, vals map[string]any) rendered {
	t.Helper()
	out, err := renderErr(vals)
	if err != nil {
		t.Fatalf("rendering the chart: %v", err)
	}
	return out
}

func renderErr(vals map[string]any) (rendered, error) {
	rel, err := helmTemplate(vals, testedKubeVersion)
	if err != nil {
		return nil, err
	}
	out := rendered{}
	r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(rel.Manifest)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		j, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return nil, err
		}
		if s := strings.TrimSpace(string(j)); s == "null" || s == "{}" {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(j); err != nil {
			return nil, err
		}
		out[u.GetKind()+" "+u.GetNamespace()+"/"+u.GetName()] = u
	}
}

// helmTemplate renders the chart as 'helm template slicekit charts/slicekit
// -n slicekit-system --kube-version kubeVersion --api-versions apiVersions'
// does (client only: Helm's built-in API list plus apiVersions), with vals
// (nil: the defaults).
func helmTemplate(vals map[string]any, kubeVersion string, apiVersions ...string) (*release.Release, error) {
	ch, err := loader.Load(chartDir)
	if err != nil {
		return nil, err
	}
	inst := action.NewInstall(&action.Configuration{Log: func(string, ...any) {}})
	inst.DryRun = true
	inst.ClientOnly = true
	inst.Replace = true
	inst.ReleaseName = releaseName
	inst.Namespace = namespace
	inst.APIVersions = apiVersions
	// Helm as a library defaults to Kubernetes v1.20.0, below the chart's
	// kubeVersion; the helm CLI defaults to its client-go version.
	kv, err := chartutil.ParseKubeVersion(kubeVersion)
	if err != nil {
		return nil, err
	}
	inst.KubeVersion = kv
	if vals == nil {
		vals = map[string]any{}
	}
	return inst.Run(ch, vals)
}

// valuesFile reads chart values from testdata.
func valuesFile(t *testing.T, name string) map[string]any {
	t.Helper()
	v, err := chartutil.ReadValuesFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return v.AsMap()
}

// decode converts u into its typed client-go object strictly (unknown
// fields are errors).
func decode[T any](t *testing.T, r rendered, key string) *T {
	t.Helper()
	u, ok := r[key]
	if !ok {
		keys := make([]string, 0, len(r))
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		t.Fatalf("no %s in the chart's output %v", key, keys)
	}
	obj := new(T)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, obj, true); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return obj
}

// kustomizeConfig renders config/ (kubectl apply -k config/).
func kustomizeConfig(t *testing.T) rendered {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), filepath.Join("..", "..", "config"))
	if err != nil {
		t.Fatal(err)
	}
	out := rendered{}
	for _, res := range m.Resources() {
		obj, err := res.Map()
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		out[u.GetKind()+" "+u.GetNamespace()+"/"+u.GetName()] = u
	}
	return out
}

// TestLint runs Helm's linter ('helm lint') on the chart with the default
// values and with every controller enabled: no warning, no error.
func TestLint(t *testing.T) {
	for name, vals := range map[string]map[string]any{"defaults": nil, "all-controllers": valuesFile(t, "all-controllers.yaml")} {
		t.Run(name, func(t *testing.T) {
			l := lint.All(chartDir, vals, namespace, false)
			if len(l.Messages) == 0 {
				t.Log("helm lint: no messages")
			}
			for _, m := range l.Messages {
				if m.Severity >= support.WarningSev {
					t.Errorf("helm lint: %s", m)
				} else {
					t.Logf("helm lint: %s", m)
				}
			}
		})
	}
}

// TestDefaultsMatchConfig checks that the chart's defaults deploy what
// config/ deploys: the same objects (plus the metrics Service), RBAC rules,
// Deployment strategy and container (image, args, ports, probes,
// resources, security).
func TestDefaultsMatchConfig(t *testing.T) {
	chart := render(t, nil)
	config := kustomizeConfig(t)

	var got, want []string
	for k := range chart {
		got = append(got, k)
	}
	for k := range config {
		if !strings.HasPrefix(k, "Namespace ") { // helm install --create-namespace
			want = append(want, k)
		}
	}
	want = append(want, "Service "+namespace+"/slicekit-metrics")
	slices.Sort(got)
	slices.Sort(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("objects (-config +chart):\n%s", d)
	}

	key := "ClusterRole /slicekit"
	if d := cmp.Diff(decode[rbacv1.ClusterRole](t, config, key).Rules, decode[rbacv1.ClusterRole](t, chart, key).Rules); d != "" {
		t.Errorf("ClusterRole rules (-config +chart):\n%s", d)
	}
	key = "Role " + namespace + "/slicekit-leader-election"
	if d := cmp.Diff(decode[rbacv1.Role](t, config, key).Rules, decode[rbacv1.Role](t, chart, key).Rules); d != "" {
		t.Errorf("Role rules (-config +chart):\n%s", d)
	}
	for _, key := range []string{"ClusterRoleBinding /slicekit", "RoleBinding " + namespace + "/slicekit-leader-election"} {
		c, h := config[key].Object, chart[key].Object
		for _, f := range []string{"roleRef", "subjects"} {
			if d := cmp.Diff(c[f], h[f]); d != "" {
				t.Errorf("%s %s (-config +chart):\n%s", key, f, d)
			}
		}
	}

	key = "Deployment " + namespace + "/slicekit"
	cd, hd := decode[appsv1.Deployment](t, config, key), decode[appsv1.Deployment](t, chart, key)
	if d := cmp.Diff(cd.Spec.Replicas, hd.Spec.Replicas); d != "" {
		t.Errorf("replicas (-config +chart):\n%s", d)
	}
	if d := cmp.Diff(cd.Spec.Strategy, hd.Spec.Strategy); d != "" {
		t.Errorf("strategy (-config +chart):\n%s", d)
	}
	cp, hp := cd.Spec.Template.Spec, hd.Spec.Template.Spec
	if d := cmp.Diff(cp.Containers, hp.Containers); d != "" {
		t.Errorf("containers (-config +chart):\n%s", d)
	}
	if d := cmp.Diff(cp.SecurityContext, hp.SecurityContext); d != "" {
		t.Errorf("pod securityContext (-config +chart):\n%s", d)
	}
	if d := cmp.Diff(cp.TerminationGracePeriodSeconds, hp.TerminationGracePeriodSeconds); d != "" {
		t.Errorf("terminationGracePeriodSeconds (-config +chart):\n%s", d)
	}
	if cp.ServiceAccountName != hp.ServiceAccountName {
		t.Errorf("serviceAccountName: config %q, chart %q", cp.ServiceAccountName, hp.ServiceAccountName)
	}
}

// Rules of the ClusterRole by concern, as config/rbac/cluster_role.yaml
// words them.
func readRule(resources ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{""}, Resources: resources, Verbs: []string{"get", "list", "watch"}}
}

var (
	endpointsRead  = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"get", "list", "watch"}}
	endpointsWrite = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"get", "list", "watch", "create", "update", "delete"}}
	slicesWrite    = rbacv1.PolicyRule{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"get", "list", "watch", "create", "update", "delete"}}
	events         = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}}
	// The pod-address controllers' address guard and admission policy check.
	serviceCIDRs      = rbacv1.PolicyRule{APIGroups: []string{"networking.k8s.io"}, Resources: []string{"servicecidrs"}, Verbs: []string{"list", "watch"}}
	admissionPolicies = rbacv1.PolicyRule{APIGroups: []string{"admissionregistration.k8s.io"}, Resources: []string{"validatingadmissionpolicies", "validatingadmissionpolicybindings"}, Verbs: []string{"list"}}
)

func finalizers(resources ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{""}, Resources: resources, Verbs: []string{"update"}}
}

func controllerValues(endpointslice, mirroring, endpoints, secondary, cel bool) map[string]any {
	c := map[string]any{
		"endpointslice":    map[string]any{"enabled": endpointslice},
		"mirroring":        map[string]any{"enabled": mirroring},
		"endpoints":        map[string]any{"enabled": endpoints},
		"secondaryNetwork": map[string]any{"enabled": secondary, "controllerName": "secondary.example.com"},
		"cel":              map[string]any{"enabled": cel},
	}
	if cel {
		c["cel"].(map[string]any)["profiles"] = []any{map[string]any{"name": "cel.example.com", "addresses": "pod.status.podIPs.map(p, p.ip)"}}
	}
	return map[string]any{"controllers": c}
}

// withCleanup enables the selectorless-cleanup controller in vals.
func withCleanup(vals map[string]any) map[string]any {
	vals["controllers"].(map[string]any)["selectorlessCleanup"] = map[string]any{"enabled": true}
	return vals
}

// withDRA enables the dra-network controller in vals.
func withDRA(vals map[string]any) map[string]any {
	vals["controllers"].(map[string]any)["draNetwork"] = map[string]any{"enabled": true, "controllerName": "dra.example.com"}
	return vals
}

// claimsRead is the ResourceClaims rule of the dra-network controller.
var claimsRead = rbacv1.PolicyRule{APIGroups: []string{"resource.k8s.io"}, Resources: []string{"resourceclaims"}, Verbs: []string{"get", "list", "watch"}}

// endpointsReadDelete is the Endpoints rule of selectorless-cleanup.
var endpointsReadDelete = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"get", "list", "watch", "delete"}}

// TestRBACFollowsControllers pins the ClusterRole and --controllers for
// each controller alone and for all of them: what the controller's
// informers read and its writes need (pkg/controllers), nothing more.
func TestRBACFollowsControllers(t *testing.T) {
	podSlices := []rbacv1.PolicyRule{readRule("services", "pods", "nodes"), finalizers("services/finalizers"), slicesWrite, events}
	// The pod-address controllers: the address guard and the admission policy check.
	podAddressSlices := []rbacv1.PolicyRule{readRule("services", "pods", "nodes"), finalizers("services/finalizers"), slicesWrite, serviceCIDRs, admissionPolicies, events}
	for _, tc := range []struct {
		name        string
		vals        map[string]any
		controllers string
		enabled     []string
		rules       []rbacv1.PolicyRule
	}{
		{"endpointslice", controllerValues(true, false, false, false, false), "*,-endpointslice-mirroring", []string{"endpointslice"}, podSlices},
		{"mirroring", controllerValues(false, true, false, false, false), "*,-endpointslice", []string{"endpointslice-mirroring"},
			[]rbacv1.PolicyRule{readRule("services"), endpointsRead, finalizers("endpoints/finalizers"), slicesWrite, events}},
		{"endpoints", controllerValues(false, false, true, false, false), "*,-endpointslice,-endpointslice-mirroring,endpoints", []string{"endpoints"},
			[]rbacv1.PolicyRule{readRule("services", "pods"), endpointsWrite, events}},
		{"secondary-network", controllerValues(false, false, false, true, false), "*,-endpointslice,-endpointslice-mirroring,secondary-network", []string{"secondary-network"}, podAddressSlices},
		{"cel", controllerValues(false, false, false, false, true), "*,-endpointslice,-endpointslice-mirroring,cel", []string{"cel"}, podAddressSlices},
		{"dra-network", withDRA(controllerValues(false, false, false, false, false)), "*,-endpointslice,-endpointslice-mirroring,dra-network", []string{"dra-network"},
			[]rbacv1.PolicyRule{readRule("services", "pods", "nodes"), finalizers("services/finalizers"), slicesWrite, serviceCIDRs, claimsRead, events}},
		{"defaults plus endpoints", controllerValues(true, true, true, false, false), "*,endpoints", []string{"endpoints", "endpointslice", "endpointslice-mirroring"},
			[]rbacv1.PolicyRule{readRule("services", "pods", "nodes"), endpointsWrite, finalizers("services/finalizers", "endpoints/finalizers"), slicesWrite, events}},
		{"secondary-network and selectorless-cleanup (managed cluster)", withCleanup(controllerValues(false, false, false, true, false)),
			"*,-endpointslice,-endpointslice-mirroring,secondary-network,selectorless-cleanup", []string{"secondary-network", "selectorless-cleanup"},
			[]rbacv1.PolicyRule{readRule("services", "pods", "nodes"), endpointsReadDelete, finalizers("services/finalizers"), slicesWrite, serviceCIDRs, admissionPolicies, events}},
		{"selectorless-cleanup alone", withCleanup(controllerValues(false, false, false, false, false)),
			"*,-endpointslice,-endpointslice-mirroring,selectorless-cleanup", []string{"selectorless-cleanup"},
			[]rbacv1.PolicyRule{readRule("services"), endpointsReadDelete,
				{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"get", "list", "watch", "delete"}}, events}},
		{"all", withDRA(controllerValues(true, true, true, true, true)), "*,endpoints,secondary-network,dra-network,cel", []string{"cel", "dra-network", "endpoints", "endpointslice", "endpointslice-mirroring", "secondary-network"},
			[]rbacv1.PolicyRule{readRule("services", "pods", "nodes"), endpointsWrite, finalizers("services/finalizers", "endpoints/finalizers"), slicesWrite, serviceCIDRs, admissionPolicies, claimsRead, events}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := render(t, tc.vals)
			if d := cmp.Diff(tc.rules, decode[rbacv1.ClusterRole](t, r, "ClusterRole /slicekit").Rules); d != "" {
				t.Errorf("ClusterRole rules (-want +got):\n%s", d)
			}
			o, _ := parseArgs(t, r)
			if got := strings.Join(o.Controllers, ","); got != tc.controllers {
				t.Errorf("--controllers=%s, want %s", got, tc.controllers)
			}
			enabled, err := o.EnabledControllers()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.enabled, enabled); d != "" {
				t.Errorf("enabled controllers (-want +got):\n%s", d)
			}
		})
	}
}

// TestRenderFailures checks the chart refuses values slicekit would refuse
// or that would run two writers.
func TestRenderFailures(t *testing.T) {
	for name, vals := range map[string]map[string]any{
		"no controller":                                  controllerValues(false, false, false, false, false),
		"cel without profiles":                           {"controllers": map[string]any{"cel": map[string]any{"enabled": true}}},
		"two replicas without leader":                    {"replicas": 2, "leaderElection": map[string]any{"enabled": false}},
		"cleanup dry run without the cleanup controller": {"controllers": map[string]any{"selectorlessCleanup": map[string]any{"dryRun": true}}},
		"misspelt controller (schema)":                   {"controllers": map[string]any{"endpoint": map[string]any{"enabled": true}}},
		"unknown top-level value":                        {"replica": 3},
		"bad duration (schema)":                          {"leaderElection": map[string]any{"leaseDuration": "15 seconds"}},
		"ServiceMonitor without Service": {"metrics": map[string]any{"service": map[string]any{"enabled": false},
			"serviceMonitor": map[string]any{"enabled": true}}},
	} {
		_, err := renderErr(vals)
		if err == nil {
			t.Errorf("%s: rendered without error", name)
			continue
		}
		t.Logf("%s: %v", name, err)
	}
	// One replica without leader election renders, without the Lease Role.
	r := render(t, map[string]any{"replicas": 1, "leaderElection": map[string]any{"enabled": false}})
	if _, ok := r["Role "+namespace+"/slicekit-leader-election"]; ok {
		t.Error("leader election Role rendered with leader election off")
	}
	o, _ := parseArgs(t, r)
	if o.LeaderElection.LeaderElect {
		t.Error("--leader-elect is on")
	}
}

// parseArgs parses the rendered container args as 'slicekit run' does,
// completes and validates them. A --cel-config is replaced by a file with
// the rendered ConfigMap's content. It returns the options and the args.
func parseArgs(t *testing.T, r rendered) (*manager.Options, []string) {
	t.Helper()
	dep := decode[appsv1.Deployment](t, r, "Deployment "+namespace+"/slicekit")
	c := dep.Spec.Template.Spec.Containers[0]
	if len(c.Args) == 0 || c.Args[0] != "run" {
		t.Fatalf("args %q do not start with run", c.Args)
	}
	args := slices.Clone(c.Args[1:])
	for i, a := range args {
		p, ok := strings.CutPrefix(a, "--cel-config=")
		if !ok {
			continue
		}
		cm := decode[corev1.ConfigMap](t, r, "ConfigMap "+namespace+"/slicekit-cel")
		data, ok := cm.Data[filepath.Base(p)]
		if !ok {
			t.Fatalf("--cel-config=%s: ConfigMap slicekit-cel has no key %s", p, filepath.Base(p))
		}
		mounted := false
		for _, m := range c.VolumeMounts {
			mounted = mounted || m.MountPath == filepath.Dir(p)
		}
		if !mounted {
			t.Errorf("--cel-config=%s: nothing mounted at %s", p, filepath.Dir(p))
		}
		f := filepath.Join(t.TempDir(), filepath.Base(p))
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		args[i] = "--cel-config=" + f
	}
	t.Setenv("POD_NAMESPACE", dep.Namespace)
	o := manager.NewOptions()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("args %q: %v", args, err)
	}
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatalf("args %q do not validate: %v", args, err)
	}
	return o, args
}

// TestAllControllersArgs checks that every value of
// testdata/all-controllers.yaml reaches its flag.
func TestAllControllersArgs(t *testing.T) {
	r := render(t, valuesFile(t, "all-controllers.yaml"))
	o, args := parseArgs(t, r)
	c := o.ControllerOptions
	mir := c.For(mirroring.RegistrationName).(*mirroring.Options)
	eps := c.For(endpoints.RegistrationName).(*endpoints.Options)
	sec := c.For(secondarynetwork.RegistrationName).(*secondarynetwork.Options)
	dra := c.For(dranetwork.RegistrationName).(*dranetwork.Options)
	for _, check := range []struct {
		what      string
		got, want any
	}{
		{"--concurrent-service-endpoint-syncs", c.ConcurrentServiceEndpointSyncs, int32(3)},
		{"--max-endpoints-per-slice", c.MaxEndpointsPerSlice, int32(50)},
		{"--endpoint-updates-batch-period", c.BatchPeriod.String(), "1s"},
		{"--mirroring-concurrent-service-endpoint-syncs", mir.MirroringConcurrentServiceEndpointSyncs, int32(2)},
		{"--mirroring-max-endpoints-per-subset", mir.MirroringMaxEndpointsPerSubset, int32(500)},
		{"--mirroring-endpointslice-updates-batch-period", mir.MirroringEndpointSliceUpdatesBatchPeriod.String(), "1s"},
		{"--concurrent-endpoint-syncs", eps.ConcurrentEndpointSyncs, int32(2)},
		{"--secondary-network-controller-name", sec.ControllerName, "secondary.example.com"},
		{"--dra-network-controller-name", dra.ControllerName, "dra.example.com"},
		{"--controller-name", c.ControllerName, "endpointslice-controller.k8s.io"},
		{"--kube-api-qps", o.KubeAPIQPS, float32(50)},
		{"--kube-api-burst", o.KubeAPIBurst, int32(100)},
		{"--min-resync-period", o.MinResyncPeriod.String(), "6h0m0s"},
		{"--leader-elect-lease-duration", o.LeaderElection.LeaseDuration.String(), "20s"},
		{"--leader-elect-renew-deadline", o.LeaderElection.RenewDeadline.String(), "15s"},
		{"--leader-elect-retry-period", o.LeaderElection.RetryPeriod.String(), "3s"},
		{"--leader-elect-resource-namespace", o.LeaderElection.ResourceNamespace, namespace},
		{"--feature-gates", c.ExternalEndpointControllerEnabled(), true},
		{"--service-cluster-ip-range", fmt.Sprint(c.AddressGuard.ServiceCIDRs), "[10.96.0.0/16 fd00:10:96::/112]"},
		{"--pod-address-allowed-cidrs", fmt.Sprint(c.AddressGuard.AllowedCIDRs), "map[secondary.example.com:[192.168.0.0/16 fd00:1::/64]]"},
	} {
		if check.got != check.want {
			t.Errorf("%s: %v, want %v (args %q)", check.what, check.got, check.want, args)
		}
	}
	for _, want := range []string{"--logging-format=json", "--v=3", "--cel-config="} {
		if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, want) }) {
			t.Errorf("args %q lack %s", args, want)
		}
	}
	sm := r["ServiceMonitor "+namespace+"/slicekit"]
	if sm == nil {
		t.Fatal("no ServiceMonitor")
	}
	if sm.GetLabels()["release"] != "prometheus" {
		t.Errorf("ServiceMonitor labels %v lack release=prometheus", sm.GetLabels())
	}
	svc := decode[corev1.Service](t, r, "Service "+namespace+"/slicekit-metrics")
	dep := decode[appsv1.Deployment](t, r, "Deployment "+namespace+"/slicekit")
	for k, v := range svc.Spec.Selector {
		if dep.Spec.Template.Labels[k] != v {
			t.Errorf("metrics Service selector %s=%s does not select the Pods (%v)", k, v, dep.Spec.Template.Labels)
		}
	}
	if _, ok := dep.Spec.Template.Annotations["checksum/cel-config"]; !ok {
		t.Error("no checksum/cel-config annotation: Pods would not restart on a profile change")
	}
}

// TestSelectorlessCleanupDryRun: controllers.selectorlessCleanup.dryRun
// passes --selectorless-cleanup-dry-run with the controller on, and is
// refused without it (a dry run that does nothing would mislead; slicekit
// run refuses the flag alone too).
func TestSelectorlessCleanupDryRun(t *testing.T) {
	vals := controllerValues(false, false, false, true, false)
	vals["controllers"].(map[string]any)["selectorlessCleanup"] = map[string]any{"enabled": true, "dryRun": true}
	o, args := parseArgs(t, render(t, vals))
	if !o.For(selectorlesscleanup.RegistrationName).(*selectorlesscleanup.Options).DryRun {
		t.Errorf("enabled: no dry run (args %q)", args)
	}
	vals["controllers"].(map[string]any)["selectorlessCleanup"] = map[string]any{"enabled": false, "dryRun": true}
	if _, err := renderErr(vals); err == nil || !strings.Contains(err.Error(), "dryRun needs controllers.selectorlessCleanup.enabled=true") {
		t.Errorf("dry run without the controller: error %v, want the chart to refuse it", err)
	}
}

// renderCaps renders the chart as 'helm install --dry-run' does against a
// cluster with exactly the given capabilities (Kubernetes version and API
// versions, which helm template can only add to, never remove from).
func renderCaps(vals map[string]any, caps *chartutil.Capabilities) (string, error) {
	ch, err := loader.Load(chartDir)
	if err != nil {
		return "", err
	}
	cfg := &action.Configuration{
		Log:          func(string, ...any) {},
		Capabilities: caps,
		KubeClient:   &kubefake.PrintingKubeClient{Out: io.Discard},
		Releases:     storage.Init(driver.NewMemory()),
	}
	inst := action.NewInstall(cfg)
	inst.DryRun = true
	inst.ReleaseName = releaseName
	inst.Namespace = namespace
	if vals == nil {
		vals = map[string]any{}
	}
	rel, err := inst.Run(ch, vals)
	if err != nil {
		return "", err
	}
	return rel.Manifest + "\n---NOTES---\n" + rel.Info.Notes, nil
}

// capsOf returns the capabilities of a cluster of Kubernetes version kv
// serving Helm's default API versions minus those in without.
func capsOf(t *testing.T, kv string, without ...string) *chartutil.Capabilities {
	t.Helper()
	v, err := chartutil.ParseKubeVersion(kv)
	if err != nil {
		t.Fatal(err)
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.KubeVersion = *v
	caps.APIVersions = nil
	for _, a := range chartutil.DefaultVersionSet {
		if !slices.Contains(without, a) {
			caps.APIVersions = append(caps.APIVersions, a)
		}
	}
	return caps
}

// TestKubeVersion: the chart declares the oldest Kubernetes version
// slicekit is tested on (1.32) and installs on it, on provider versions of
// it and on later ones; Helm refuses older clusters with its kubeVersion
// error.
func TestKubeVersion(t *testing.T) {
	for _, tc := range []struct {
		kv string
		ok bool
	}{
		{"v1.31.14", false}, {"v1.29.0", false},
		{"v1.32.0", true}, {"v1.32.9-eks-1234567", true}, {"v1.33.5+k3s1", true}, {"v1.37.2", true},
	} {
		t.Run(tc.kv, func(t *testing.T) {
			_, err := renderCaps(nil, capsOf(t, tc.kv))
			if tc.ok && err != nil {
				t.Errorf("rendering for %s: %v", tc.kv, err)
			}
			if !tc.ok && (err == nil || !strings.Contains(err.Error(), "kubeVersion")) {
				t.Errorf("rendering for %s: err = %v, want Helm's kubeVersion error", tc.kv, err)
			}
		})
	}
}
