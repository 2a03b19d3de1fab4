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

package testenv

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// The helpers below let a test that needs an API (or a behaviour) newer than
// the oldest Kubernetes release slicekit supports skip, by discovery, on an
// older API server — `make test-skew KUBE_VERSION=v1.32.13` points the whole
// live suite at such a server through $SLICEKIT_BIN_DIR — with a reason
// that names the server's version, what it lacks and the first release that
// has it, so each skip is visible in the test log. They never skip on the
// default control plane (v1.37.2), which serves everything slicekit reads.

// ServerVersion returns the API server's version as it reports it (for
// example "v1.32.13") and its minor number (32). The minor of a vendor
// build ("32+") is read up to the first non-digit. Errors are discovery's.
func ServerVersion(cfg *rest.Config) (gitVersion string, minor int, err error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return "", 0, fmt.Errorf("testenv: discovery client: %w", err)
	}
	info, err := dc.ServerVersion()
	if err != nil {
		return "", 0, fmt.Errorf("testenv: server version: %w", err)
	}
	digits := strings.TrimRightFunc(info.Minor, func(r rune) bool { return r < '0' || r > '9' })
	minor, err = strconv.Atoi(digits)
	if err != nil {
		return info.GitVersion, 0, fmt.Errorf("testenv: server %s reports minor %q: %w", info.GitVersion, info.Minor, err)
	}
	return info.GitVersion, minor, nil
}

// Serves reports whether the API server serves resource (plural, for
// example "resourceclaims") in groupVersion ("resource.k8s.io/v1", "v1"
// for the core group). A group version the server does not know is
// false, not an error.
func Serves(cfg *rest.Config, groupVersion, resource string) (bool, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return false, fmt.Errorf("testenv: discovery client: %w", err)
	}
	list, err := dc.ServerResourcesForGroupVersion(groupVersion)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("testenv: discovering %s: %w", groupVersion, err)
	}
	for _, r := range list.APIResources {
		if r.Name == resource {
			return true, nil
		}
	}
	return false, nil
}

// SkipUnlessServed skips t unless the API server behind cfg serves
// resource in groupVersion. since names the first release that serves it,
// as in "Kubernetes 1.34+"; the reason reads, for example, "server
// v1.32.13 lacks resource.k8s.io/v1 resourceclaims (Kubernetes 1.34+)". A
// failed discovery fails t.
func SkipUnlessServed(t testing.TB, cfg *rest.Config, groupVersion, resource, since string) {
	t.Helper()
	ok, err := Serves(cfg, groupVersion, resource)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		return
	}
	version, _, err := ServerVersion(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Skipf("server %s lacks %s %s (%s)", version, groupVersion, resource, since)
}

// SkipUnlessMinor skips t unless the API server behind cfg is Kubernetes
// 1.<minor> or newer. Use it only for what discovery cannot tell (a field
// value or a validation rule of a served resource); what names it, and the
// reason reads, for example, "server v1.32.13 is older than 1.34: trafficDistribution
// PreferSameZone". A failed version request fails t.
func SkipUnlessMinor(t testing.TB, cfg *rest.Config, minor int, what string) {
	t.Helper()
	version, have, err := ServerVersion(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if have < minor {
		t.Skipf("server %s is older than 1.%d: %s", version, minor, what)
	}
}

// ServiceClusterIPRange is what a test gives the pod-address controllers'
// --service-cluster-ip-range for the API server behind cfg: "" when the
// server serves networking.k8s.io/v1 servicecidrs (Kubernetes 1.33+; the
// address guard watches the objects), else this package's kube-apiserver
// --service-cluster-ip-range, with a log line saying so. Without it those
// controllers refuse to start on such a server (the guard fails closed).
// A failed discovery fails t.
func ServiceClusterIPRange(t testing.TB, cfg *rest.Config) string {
	t.Helper()
	ok, err := Serves(cfg, "networking.k8s.io/v1", "servicecidrs")
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		return ""
	}
	r := DefaultAPIServerFlags["service-cluster-ip-range"]
	t.Logf("server lacks networking.k8s.io/v1 servicecidrs (Kubernetes 1.33+): pod-address controllers get --service-cluster-ip-range=%s", r)
	return r
}

// ServiceCIDRs is ServiceClusterIPRange as the prefixes of
// addressguard.Options.ServiceCIDRs (nil when the server serves
// ServiceCIDR objects).
func ServiceCIDRs(t testing.TB, cfg *rest.Config) []netip.Prefix {
	t.Helper()
	var out []netip.Prefix
	for _, s := range strings.Split(ServiceClusterIPRange(t, cfg), ",") {
		if s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
