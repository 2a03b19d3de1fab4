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

package kubernetes

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	clientset "k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/conformance/utils/config"
)

// Endpoint is an expected endpoint. Address is required; the other fields
// are checked only when set.
type Endpoint struct {
	// Address is the endpoint's (only) address.
	Address string
	// Pod is the name of the Pod its targetRef must name.
	Pod string
	// Ready, Serving and Terminating are the expected conditions.
	Ready, Serving, Terminating *bool
}

// Port is an expected endpoint port.
type Port struct {
	// Name is the port's name ("" for none).
	Name string
	// Port is its number.
	Port int32
	// Protocol is its protocol; "" means TCP.
	Protocol corev1.Protocol
}

// ServiceSlices lists the EndpointSlices of Service svc in ns whose
// managed-by label is managedBy.
func ServiceSlices(ctx context.Context, c clientset.Interface, ns, svc, managedBy string) ([]discovery.EndpointSlice, error) {
	l, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{
		LabelSelector: labels.Set{discovery.LabelServiceName: svc, discovery.LabelManagedBy: managedBy}.String(),
	})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

// poll calls cond every PollInterval until it returns "" (success) or the
// timeout passes; then it fails t with what and the last difference.
func poll(t testing.TB, timeouts config.TimeoutConfig, timeout time.Duration, what string, cond func(ctx context.Context) (string, error)) {
	t.Helper()
	last := ""
	err := wait.PollUntilContextTimeout(t.Context(), timeouts.PollInterval, timeout, true, func(ctx context.Context) (bool, error) {
		diff, err := cond(ctx)
		if err != nil {
			last = "error: " + err.Error()
			return false, nil
		}
		last = diff
		return diff == "", nil
	})
	if err != nil {
		t.Fatalf("%s: not true after %s: %s", what, timeout, last)
	}
}

// SlicesMustHaveEndpoints waits (SlicesConverge) until the endpoints of
// the Service's slices managed by managedBy are exactly want, each once
// (by address, with the Pod and conditions that want sets), and returns
// those slices. An empty want accepts no slice or empty (placeholder)
// slices.
func SlicesMustHaveEndpoints(t testing.TB, c clientset.Interface, timeouts config.TimeoutConfig, ns, svc, managedBy string, want []Endpoint) []discovery.EndpointSlice {
	t.Helper()
	var got []discovery.EndpointSlice
	poll(t, timeouts, timeouts.SlicesConverge, fmt.Sprintf("the slices of Service %s/%s managed by %s have endpoints %s", ns, svc, managedBy, describe(want)),
		func(ctx context.Context) (string, error) {
			var err error
			if got, err = ServiceSlices(ctx, c, ns, svc, managedBy); err != nil {
				return "", err
			}
			return EndpointsDiff(got, want), nil
		})
	return got
}

func describe(want []Endpoint) string {
	if len(want) == 0 {
		return "[] (none)"
	}
	parts := make([]string, len(want))
	for i, w := range want {
		parts[i] = w.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// String describes the expectation.
func (e Endpoint) String() string {
	s := e.Address
	if e.Pod != "" {
		s += " (Pod " + e.Pod + ")"
	}
	var conds []string
	for _, c := range []struct {
		n string
		v *bool
	}{{"ready", e.Ready}, {"serving", e.Serving}, {"terminating", e.Terminating}} {
		if c.v != nil {
			conds = append(conds, fmt.Sprintf("%s=%t", c.n, *c.v))
		}
	}
	if len(conds) > 0 {
		s += " {" + strings.Join(conds, " ") + "}"
	}
	return s
}

// EndpointsDiff compares the endpoints of slices with want and returns
// the differences, "" when there are none.
func EndpointsDiff(got []discovery.EndpointSlice, want []Endpoint) string {
	type seen struct {
		ep    discovery.Endpoint
		slice string
		n     int
	}
	byAddr := map[string]*seen{}
	var diffs []string
	for _, s := range got {
		for _, e := range s.Endpoints {
			if len(e.Addresses) != 1 {
				diffs = append(diffs, fmt.Sprintf("slice %s: endpoint with %d addresses %v", s.Name, len(e.Addresses), e.Addresses))
				continue
			}
			a := e.Addresses[0]
			if g := byAddr[a]; g != nil {
				g.n++
				continue
			}
			byAddr[a] = &seen{ep: e, slice: s.Name, n: 1}
		}
	}
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w.Address] = true
		g := byAddr[w.Address]
		if g == nil {
			diffs = append(diffs, "missing "+w.Address)
			continue
		}
		if g.n > 1 {
			diffs = append(diffs, fmt.Sprintf("%s published %d times", w.Address, g.n))
		}
		if w.Pod != "" {
			if tr := g.ep.TargetRef; tr == nil || tr.Kind != "Pod" || tr.Name != w.Pod {
				diffs = append(diffs, fmt.Sprintf("%s: targetRef %v, want Pod %s", w.Address, refString(tr), w.Pod))
			}
		}
		cond := g.ep.Conditions
		for _, c := range []struct {
			name      string
			got, want *bool
		}{{"ready", cond.Ready, w.Ready}, {"serving", cond.Serving, w.Serving}, {"terminating", cond.Terminating, w.Terminating}} {
			if c.want != nil && (c.got == nil || *c.got != *c.want) {
				diffs = append(diffs, fmt.Sprintf("%s: %s=%s, want %t", w.Address, c.name, boolString(c.got), *c.want))
			}
		}
	}
	var extra []string
	for a := range byAddr {
		if !wanted[a] {
			extra = append(extra, a)
		}
	}
	slices.Sort(extra)
	for _, a := range extra {
		diffs = append(diffs, fmt.Sprintf("unexpected %s (slice %s)", a, byAddr[a].slice))
	}
	return strings.Join(diffs, "; ")
}

func refString(r *corev1.ObjectReference) string {
	if r == nil {
		return "<none>"
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

func boolString(p *bool) string {
	if p == nil {
		return "<unset>"
	}
	return fmt.Sprint(*p)
}

// SlicesMustBeOwnedByService checks that every slice carries the
// kubernetes.io/service-name and managed-by labels and exactly one
// controller ownerReference, to svc (uid included), with
// blockOwnerDeletion.
func SlicesMustBeOwnedByService(t testing.TB, got []discovery.EndpointSlice, svc *corev1.Service, managedBy string) {
	t.Helper()
	if err := OwnershipError(got, svc, managedBy); err != nil {
		t.Fatal(err)
	}
}

// OwnershipError is the check of SlicesMustBeOwnedByService as an error.
func OwnershipError(got []discovery.EndpointSlice, svc *corev1.Service, managedBy string) error {
	var errs []error
	if len(got) == 0 {
		errs = append(errs, fmt.Errorf("no slice of Service %s managed by %s", svc.Name, managedBy))
	}
	for _, s := range got {
		if v := s.Labels[discovery.LabelServiceName]; v != svc.Name {
			errs = append(errs, fmt.Errorf("slice %s: label %s=%q, want %q", s.Name, discovery.LabelServiceName, v, svc.Name))
		}
		if v := s.Labels[discovery.LabelManagedBy]; v != managedBy {
			errs = append(errs, fmt.Errorf("slice %s: label %s=%q, want %q", s.Name, discovery.LabelManagedBy, v, managedBy))
		}
		var ctrl []metav1.OwnerReference
		for _, o := range s.OwnerReferences {
			if o.Controller != nil && *o.Controller {
				ctrl = append(ctrl, o)
			}
		}
		switch {
		case len(ctrl) != 1:
			errs = append(errs, fmt.Errorf("slice %s: %d controller ownerReferences, want 1 to Service %s", s.Name, len(ctrl), svc.Name))
		case ctrl[0].APIVersion != "v1" || ctrl[0].Kind != "Service" || ctrl[0].Name != svc.Name || ctrl[0].UID != svc.UID:
			o := ctrl[0]
			errs = append(errs, fmt.Errorf("slice %s: controller owner %s %s %s uid %s, want v1 Service %s uid %s", s.Name, o.APIVersion, o.Kind, o.Name, o.UID, svc.Name, svc.UID))
		case ctrl[0].BlockOwnerDeletion == nil || !*ctrl[0].BlockOwnerDeletion:
			errs = append(errs, fmt.Errorf("slice %s: the owner reference does not block owner deletion", s.Name))
		}
	}
	return errors.Join(errs...)
}

// EndpointMustHavePorts waits (SlicesConverge) until the slice holding
// address (among the Service's slices managed by managedBy) has exactly
// the ports want (unordered; protocol "" means TCP).
func EndpointMustHavePorts(t testing.TB, c clientset.Interface, timeouts config.TimeoutConfig, ns, svc, managedBy, address string, want []Port) {
	t.Helper()
	wantStr := portsString(want)
	poll(t, timeouts, timeouts.SlicesConverge, fmt.Sprintf("the slice of %s (Service %s/%s, managed by %s) has ports %s", address, ns, svc, managedBy, wantStr),
		func(ctx context.Context) (string, error) {
			got, err := ServiceSlices(ctx, c, ns, svc, managedBy)
			if err != nil {
				return "", err
			}
			for _, s := range got {
				for _, e := range s.Endpoints {
					if slices.Contains(e.Addresses, address) {
						var ps []Port
						for _, p := range s.Ports {
							ps = append(ps, Port{Name: deref(p.Name), Port: deref(p.Port), Protocol: deref(p.Protocol)})
						}
						if g := portsString(ps); g != wantStr {
							return fmt.Sprintf("slice %s has ports %s", s.Name, g), nil
						}
						return "", nil
					}
				}
			}
			return address + " is in no slice", nil
		})
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func portsString(ps []Port) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		proto := p.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		out[i] = fmt.Sprintf("%s:%d/%s", p.Name, p.Port, proto)
	}
	slices.Sort(out)
	return "[" + strings.Join(out, " ") + "]"
}

// EndpointMustHaveTopology waits (SlicesConverge) until the endpoint of
// address (among the Service's slices managed by managedBy) has nodeName
// nodeName and zone zone ("" means no zone).
func EndpointMustHaveTopology(t testing.TB, c clientset.Interface, timeouts config.TimeoutConfig, ns, svc, managedBy, address, nodeName, zone string) {
	t.Helper()
	poll(t, timeouts, timeouts.SlicesConverge, fmt.Sprintf("endpoint %s of Service %s/%s has nodeName %q and zone %q", address, ns, svc, nodeName, zone),
		func(ctx context.Context) (string, error) {
			got, err := ServiceSlices(ctx, c, ns, svc, managedBy)
			if err != nil {
				return "", err
			}
			for _, s := range got {
				for _, e := range s.Endpoints {
					if !slices.Contains(e.Addresses, address) {
						continue
					}
					if n, z := deref(e.NodeName), deref(e.Zone); n != nodeName || z != zone {
						return fmt.Sprintf("nodeName %q zone %q", n, z), nil
					}
					return "", nil
				}
			}
			return address + " is in no slice", nil
		})
}

// ServiceMustHaveNoSlices waits (SlicesConverge) until the Service has no
// slice managed by managedBy, placeholders included.
func ServiceMustHaveNoSlices(t testing.TB, c clientset.Interface, timeouts config.TimeoutConfig, ns, svc, managedBy string) {
	t.Helper()
	poll(t, timeouts, timeouts.SlicesConverge, fmt.Sprintf("Service %s/%s has no slice managed by %s", ns, svc, managedBy),
		func(ctx context.Context) (string, error) {
			got, err := ServiceSlices(ctx, c, ns, svc, managedBy)
			if err != nil {
				return "", err
			}
			return namesDiff(got), nil
		})
}

func namesDiff(got []discovery.EndpointSlice) string {
	if len(got) == 0 {
		return ""
	}
	names := make([]string, len(got))
	for i, s := range got {
		names[i] = fmt.Sprintf("%s (%d endpoints)", s.Name, len(s.Endpoints))
	}
	return "slices " + strings.Join(names, ", ")
}

// ServiceMustKeepNoSlices watches for NoWriteObservation that the Service
// never gets a slice managed by managedBy, calling churn (when not nil)
// once at the start, for example to create Pods.
func ServiceMustKeepNoSlices(t testing.TB, c clientset.Interface, timeouts config.TimeoutConfig, ns, svc, managedBy string, churn func()) {
	t.Helper()
	if churn != nil {
		churn()
	}
	deadline := time.Now().Add(timeouts.NoWriteObservation)
	for {
		ctx, cancel := context.WithTimeout(t.Context(), timeouts.APICall)
		got, err := ServiceSlices(ctx, c, ns, svc, managedBy)
		cancel()
		if err != nil {
			t.Fatalf("listing the slices of Service %s/%s: %v", ns, svc, err)
		}
		if d := namesDiff(got); d != "" {
			t.Fatalf("Service %s/%s must have no slice managed by %s, found %s", ns, svc, managedBy, d)
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(timeouts.PollInterval)
	}
}

// SliceMustKeepResourceVersion watches for NoWriteObservation that the
// EndpointSlice ns/name exists with resourceVersion rv, calling churn (when
// not nil) once at the start.
func SliceMustKeepResourceVersion(t testing.TB, c clientset.Interface, timeouts config.TimeoutConfig, ns, name, rv string, churn func()) {
	t.Helper()
	if churn != nil {
		churn()
	}
	deadline := time.Now().Add(timeouts.NoWriteObservation)
	for {
		ctx, cancel := context.WithTimeout(t.Context(), timeouts.APICall)
		s, err := c.DiscoveryV1().EndpointSlices(ns).Get(ctx, name, metav1.GetOptions{})
		cancel()
		switch {
		case apierrors.IsNotFound(err):
			t.Fatalf("EndpointSlice %s/%s was deleted", ns, name)
		case err != nil:
			t.Fatalf("getting EndpointSlice %s/%s: %v", ns, name, err)
		case s.ResourceVersion != rv:
			t.Fatalf("EndpointSlice %s/%s was written: resourceVersion %s, was %s (managed-by %q, managedFields %s)",
				ns, name, s.ResourceVersion, rv, s.Labels[discovery.LabelManagedBy], managers(s.ManagedFields))
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(timeouts.PollInterval)
	}
}

func managers(mf []metav1.ManagedFieldsEntry) string {
	var out []string
	for _, e := range mf {
		out = append(out, e.Manager+"/"+string(e.Operation))
	}
	return "[" + strings.Join(out, " ") + "]"
}
