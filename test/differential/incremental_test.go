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

package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/serviceindex"
	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/reconciler/topology"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
	"github.com/slicekit/slicekit/pkg/source/servicepods"
)

// incCheck runs slicekit's full planner and its incremental path (issue
// 14) beside each other at every step of a scenario, from the same
// existing slices, and reports any difference between the two plans or
// trigger times. Each path has its own reconciler, topology cache and
// trigger-time tracker, so each is called exactly once per step, as a
// controller would; neither writes (the step's writes are the harness's
// usual slicekit side).
//
// The scenario hands over whole states, not events, so incCheck derives
// the events a controller would see: the Pods that differ from the
// previous step are given to serviceindex.Index.PodChanged, a changed Service
// gets a new resourceVersion, changed Nodes call Invalidate. Slices get a
// resourceVersion that changes exactly when their content does (hand
// edits in the generator keep it), as the API server guarantees.
type incCheck struct {
	ctx        context.Context
	full, inc  *reconciler.Reconciler
	fullTopo   *topology.TopologyCache
	incTopo    *topology.TopologyCache
	nodes      cache.Indexer
	fullTT     *servicepods.TriggerTimeTracker
	idx        *serviceindex.Index
	lastPods   map[string]*corev1.Pod
	lastSvc    *corev1.Service // the Service handed over, with our resourceVersion
	lastSvcRaw *corev1.Service // the scenario's Service at the previous step
	svcRV      int
	lastNodes  []*corev1.Node
	sliceSeen  map[string]*discovery.EndpointSlice
	sliceRV    map[string]string
	rv         int
	reasons    map[string]int
	steps      int
}

func newIncCheck(ctx context.Context, maxPer int32) *incCheck {
	c := &incCheck{
		ctx:       ctx,
		fullTopo:  topology.NewTopologyCache(),
		incTopo:   topology.NewTopologyCache(),
		nodes:     cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		fullTT:    servicepods.NewTriggerTimeTracker(),
		idx:       serviceindex.New(servicepods.Source(podendpoint.Options{})),
		lastPods:  map[string]*corev1.Pod{},
		sliceSeen: map[string]*discovery.EndpointSlice{},
		sliceRV:   map[string]string{},
		reasons:   map[string]int{},
	}
	cfg := reconciler.Config{
		ControllerName:       controllerName,
		OwnerGVK:             reconciler.ServiceGVK,
		MaxEndpointsPerSlice: maxPer,
		Placeholder:          true,
		EnforceOwnership:     true,
		Metadata:             reconciler.ServiceMetadata{},
	}
	var err error
	if c.full, err = reconciler.New(fake.NewClientset(), cfg, reconciler.WithTopologyCache(c.fullTopo)); err != nil {
		panic(err)
	}
	if c.inc, err = reconciler.New(fake.NewClientset(), cfg, reconciler.WithTopologyCache(c.incTopo)); err != nil {
		panic(err)
	}
	return c
}

// incPods is the PodLister of one step's Pods.
type incPods map[string]*corev1.Pod

func (p incPods) Get(name string) (*corev1.Pod, error) {
	if pod, ok := p[name]; ok {
		return pod, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("pods"), name)
}

func (p incPods) List(sel labels.Selector) ([]*corev1.Pod, error) {
	var out []*corev1.Pod
	for _, pod := range p {
		if sel.Matches(labels.Set(pod.Labels)) {
			out = append(out, pod)
		}
	}
	return out, nil
}

// check runs one step: handed are the slices the controller hands over
// (not modified). It returns a description of the first difference, or "".
func (c *incCheck) check(in stepInput, handed []*discovery.EndpointSlice) string {
	c.steps++
	// Events a controller would have seen since the previous step.
	if !reflect.DeepEqual(in.nodes, c.lastNodes) {
		objs := make([]any, 0, len(in.nodes))
		copies := make([]*corev1.Node, 0, len(in.nodes))
		for _, n := range in.nodes {
			cp := n.DeepCopy()
			objs = append(objs, cp)
			copies = append(copies, cp)
		}
		if err := c.nodes.Replace(objs, ""); err != nil {
			return err.Error()
		}
		logger := klog.FromContext(c.ctx)
		c.fullTopo.SetNodes(logger, copies)
		c.incTopo.SetNodes(logger, copies)
		c.lastNodes = copies
		c.idx.Invalidate("node-changed")
	}
	if c.lastSvcRaw == nil || !apiequality.Semantic.DeepEqual(in.svc, c.lastSvcRaw) {
		c.svcRV++
		c.lastSvcRaw = in.svc.DeepCopy()
		c.lastSvc = in.svc.DeepCopy()
		c.lastSvc.ResourceVersion = strconv.Itoa(c.svcRV)
	}
	svc := c.lastSvc
	pods := incPods{}
	for _, p := range in.pods {
		pods[p.Name] = p
		if last, ok := c.lastPods[p.Name]; !ok || !apiequality.Semantic.DeepEqual(last, p) {
			c.idx.PodChanged(p.Name)
			c.lastPods[p.Name] = p.DeepCopy()
		}
	}
	for name := range c.lastPods {
		if _, ok := pods[name]; !ok {
			c.idx.PodChanged(name)
			delete(c.lastPods, name)
		}
	}
	existing := make([]*discovery.EndpointSlice, len(handed))
	for i, s := range handed {
		cp := s.DeepCopy()
		cp.ResourceVersion = ""
		key := cp.Namespace + "/" + cp.Name
		if seen, ok := c.sliceSeen[key]; !ok || !apiequality.Semantic.DeepEqual(seen, cp) {
			c.rv++
			c.sliceSeen[key] = cp.DeepCopy()
			c.sliceRV[key] = strconv.Itoa(c.rv)
		}
		cp.ResourceVersion = c.sliceRV[key]
		existing[i] = cp
	}

	nodes := corelisters.NewNodeLister(c.nodes)
	podList := make([]*corev1.Pod, 0, len(in.pods))
	podList = append(podList, in.pods...)
	desired, derr := servicepods.Desired(c.ctx, svc, podList, nodes, podendpoint.Options{})
	var fullPlan *reconciler.Plan
	if desired != nil {
		var err error
		if fullPlan, err = c.full.Plan(c.ctx, svc, desired, existing); err != nil {
			return "full plan: " + err.Error()
		}
	}
	fullTT := c.fullTT.ComputeEndpointLastChangeTriggerTime(svc.Namespace, svc, podList)

	u, uerr := c.idx.Update(c.ctx, svc, labels.Everything(), pods, nodes)
	if (derr == nil) != (uerr == nil) || (derr != nil && derr.Error() != uerr.Error()) {
		return fmt.Sprintf("source errors differ: full %v, incremental %v", derr, uerr)
	}
	if desired == nil {
		c.reasons["source-error"]++
		return ""
	}
	incPlan, _, reason, err := c.inc.PlanIndexed(c.ctx, svc, c.idx.Endpoints(), existing)
	if err != nil {
		return "incremental plan: " + err.Error()
	}
	if u.Rebuilt != "" {
		reason = u.Rebuilt
	}
	if reason == "" {
		reason = "incremental"
	}
	c.reasons[reason]++
	if !fullTT.Equal(u.TriggerTime) {
		return fmt.Sprintf("trigger times differ: full %v, incremental %v", fullTT, u.TriggerTime)
	}
	if topologyAuto(svc.Annotations) {
		// Both paths run the same full planner then (FullReasonTopology),
		// whose topology-aware hint redistribution iterates over maps, as
		// KCM's does: which endpoint gets which zone may differ between two
		// runs. The rest of the plan must not.
		stripHints(fullPlan)
		stripHints(incPlan)
	}
	if d := incPlanDiff(fullPlan, incPlan); d != "" {
		if got := c.idx.Endpoints().Desired(); !apiequality.Semantic.DeepEqual(got, desired) {
			d += fmt.Sprintf("\nIndex.Desired differs from Desired:\n%s\nvs\n%s", dumpJSON(got), dumpJSON(desired))
		}
		return fmt.Sprintf("plans differ (%s): %s", reason, d)
	}
	return ""
}

// incPlanDiff describes the first difference between two plans, or "".
func incPlanDiff(a, b *reconciler.Plan) string {
	if len(a.AddressTypes) != len(b.AddressTypes) {
		return fmt.Sprintf("%d address types vs %d", len(a.AddressTypes), len(b.AddressTypes))
	}
	for i := range a.AddressTypes {
		x, y := &a.AddressTypes[i], &b.AddressTypes[i]
		if !apiequality.Semantic.DeepEqual(x, y) {
			return fmt.Sprintf("address type %s: full %s; incremental %s\nfull: %s\nincremental: %s", x.AddressType, formatATPlan(x), formatATPlan(y), dumpJSON(x), dumpJSON(y))
		}
	}
	if !apiequality.Semantic.DeepEqual(a.DeleteUnsupported, b.DeleteUnsupported) {
		return "deletes of unsupported address types differ"
	}
	if !apiequality.Semantic.DeepEqual(a.Events, b.Events) {
		return fmt.Sprintf("events differ: %v vs %v", a.Events, b.Events)
	}
	if !apiequality.Semantic.DeepEqual(a.Ignored, b.Ignored) {
		return "ignored slices differ"
	}
	return ""
}

func formatATPlan(p *reconciler.AddressTypePlan) string {
	names := func(l []*discovery.EndpointSlice) []string {
		var out []string
		for _, s := range l {
			out = append(out, fmt.Sprintf("%s%s(%d)", s.Name, s.GenerateName, len(s.Endpoints)))
		}
		return out
	}
	return fmt.Sprintf("create %v update %v delete %v added %d removed %d groups %v",
		names(p.Create), names(p.Update), names(p.Delete), p.Added, p.Removed, p.PortGroups)
}

func dumpJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// stripHints removes the hints of every endpoint the plan writes.
func stripHints(p *reconciler.Plan) {
	for i := range p.AddressTypes {
		at := &p.AddressTypes[i]
		for _, l := range [][]*discovery.EndpointSlice{at.Create, at.Update} {
			for _, s := range l {
				for j := range s.Endpoints {
					s.Endpoints[j].Hints = nil
				}
			}
		}
	}
}
