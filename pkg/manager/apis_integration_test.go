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

package manager_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/slicekit/slicekit/pkg/controllers/dranetwork"
	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/test/harness/testenv"
)

// TestMissingAPIDisablesController runs `*,dra-network` against a real
// kube-apiserver that does not serve resource.k8s.io/v1 (as Kubernetes
// 1.33 and older): the manager leaves dra-network out, says so in
// slicekit_controller_disabled, turns ready, and the other controllers
// reconcile. Without Registration.Needs the ResourceClaim informer retried
// forever and /readyz never succeeded.
func TestMissingAPIDisablesController(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test on a real kube-apiserver")
	}
	// A release without resource.k8s.io/v1 (1.33 and older) refuses
	// --runtime-config for it: its shared control plane already lacks the API.
	env := testenv.Shared(t)
	served, err := testenv.Serves(env.Config, "resource.k8s.io/v1", "resourceclaims")
	if err != nil {
		t.Fatal(err)
	}
	if served {
		env, err = testenv.New(testenv.Options{APIServerFlags: map[string]string{"runtime-config": "resource.k8s.io/v1=false"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := env.Stop(); err != nil {
				t.Error(err)
			}
		})
	}
	served, err = testenv.Serves(env.Config, "resource.k8s.io/v1", "resourceclaims")
	if err != nil {
		t.Fatal(err)
	}
	if served {
		t.Fatal("--runtime-config=resource.k8s.io/v1=false: the server still serves resourceclaims")
	}
	ns := testenv.Namespace(t, env.Client)
	o := testOptions(t, env.Config, ns)
	o.ControllerOptions.Controllers = []string{"*", "dra-network"}
	began := time.Now()
	m := start(t, "manager", o)

	health := "http://" + m.HealthProbeAddress()
	waitFor(t, "/readyz to succeed without dra-network", func() (bool, error) {
		code, _, err := get(health + "/readyz")
		return code == http.StatusOK, err
	})
	t.Logf("ready %v after start", time.Since(began).Round(time.Millisecond))
	d := m.Disabled()
	if len(d) != 1 || d[0].Name != dranetwork.RegistrationName || d[0].API != dranetwork.ResourceClaimAPI || d[0].Reason != manager.ReasonMissingAPI {
		t.Fatalf("Disabled() = %+v, want dra-network for %s", d, dranetwork.ResourceClaimAPI)
	}
	if !strings.Contains(d[0].Message, "resource.k8s.io/v1 resourceclaims (Kubernetes 1.34+)") {
		t.Errorf("message %q does not name the API and its release", d[0].Message)
	}
	code, metrics, err := get("http://" + m.MetricsAddress() + "/metrics")
	if err != nil || code != http.StatusOK {
		t.Fatalf("/metrics: %d %v", code, err)
	}
	if want := `slicekit_controller_disabled{controller="dra-network",reason="missing-api"} 1`; !strings.Contains(metrics, want) {
		t.Errorf("/metrics lacks %s", want)
	}
	createBackend(t, env.Client, ns, 2)
	waitEndpoints(t, env.Client, ns, 2)
}
