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

package addressguard

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	networkinglisters "k8s.io/client-go/listers/networking/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/source"
)

// NodeAddressIndex is the name of the index the guard adds to the Node
// informer: Nodes by InternalIP and ExternalIP address (canonical form).
const NodeAddressIndex = "slicekit.dev/node-address"

// ServiceCIDRGroupVersion and ServiceCIDRResource name the ServiceCIDR API
// (networking.k8s.io/v1, GA in Kubernetes 1.33).
const (
	ServiceCIDRGroupVersion = "networking.k8s.io/v1"
	ServiceCIDRResource     = "servicecidrs"
)

// ErrNoServiceCIDRs is the error of New when no Service CIDR can be known:
// the API server does not serve networking.k8s.io/v1 ServiceCIDR objects
// (Kubernetes 1.32 and older, or the API turned off) and
// Options.ServiceCIDRs is empty. The guard then could not refuse addresses
// inside the Service range (every ClusterIP), so it fails closed instead
// of running without that refusal.
var ErrNoServiceCIDRs = errors.New("the API server does not serve " + ServiceCIDRGroupVersion + " " + ServiceCIDRResource +
	" (Kubernetes 1.33 and later) and no Service CIDR is configured, so addresses inside the Service CIDRs could not be refused: " +
	"set --service-cluster-ip-range to the cluster's Service CIDRs, the value of kube-apiserver's --service-cluster-ip-range " +
	"(Helm chart: addressGuard.serviceClusterIPRange; library: addressguard.Options.ServiceCIDRs)")

// Options configures New. The zero value refuses the addresses of the
// ServiceCIDR objects (when served) and of the Nodes.
type Options struct {
	// ServiceCIDRs are Service CIDRs besides the ServiceCIDR objects
	// (--service-cluster-ip-range), for clusters that have none (before
	// Kubernetes 1.33, or with the API off).
	ServiceCIDRs []netip.Prefix
	// AllowedCIDRs, by controller name, are the only ranges the
	// controller's addresses may be in (--pod-address-allowed-cidrs). A
	// controller without an entry has no allow-list.
	AllowedCIDRs map[string][]netip.Prefix
	// IgnoreServiceCIDRObjects, when true, does not watch ServiceCIDR
	// objects (only ServiceCIDRs are refused). For tests and for clients
	// that may not list them; slicekit's controllers leave it false.
	IgnoreServiceCIDRObjects bool

	// serviceClusterIPRange and allowedCIDRs are the text of the flags
	// AddFlags binds; Validate parses them into ServiceCIDRs and
	// AllowedCIDRs.
	serviceClusterIPRange string
	allowedCIDRs          []string
}

// Guard is the source.AddressGuard of one controller. Build it with New;
// its methods are safe for concurrent use.
type Guard struct {
	controller string
	static     []netip.Prefix
	allowed    []netip.Prefix // nil: no allow-list

	nodes cache.Indexer
	// cidrLister is nil when ServiceCIDR objects are not watched.
	cidrLister networkinglisters.ServiceCIDRLister
	// cidrs is the parsed spec.cidrs of every ServiceCIDR object,
	// rebuilt on each event.
	cidrs atomic.Pointer[[]netip.Prefix]

	synced []cache.InformerSynced

	// onChange are called after what the guard refuses changed (a Node's
	// addresses, the ServiceCIDRs); set before the informers start.
	onChange []func()
}

// OnChange registers f, called (from an informer's event handler, so it
// must not block) whenever what the guard refuses changes after its
// informers synced: a Node's InternalIP or ExternalIP addresses, or the
// CIDRs of the ServiceCIDR objects. A controller re-syncs its Services
// then, so that an address published before it became refusable is taken
// away at once. Call it before the factory starts.
func (g *Guard) OnChange(f func()) { g.onChange = append(g.onChange, f) }

// changed calls the OnChange functions once the guard has synced (the
// initial list is not a change).
func (g *Guard) changed() {
	if !g.HasSynced() {
		return
	}
	for _, f := range g.onChange {
		f()
	}
}

var _ source.AddressGuard = (*Guard)(nil)

// New returns the guard of the controller named controller (its
// managed-by value, the key of Options.AllowedCIDRs). It requests the
// factory's Node informer, adds NodeAddressIndex to it (once per
// informer), and, unless Options.IgnoreServiceCIDRObjects or the API
// server does not serve networking.k8s.io/v1 servicecidrs (asked through
// client's discovery), the ServiceCIDR informer with an event handler.
// Call it before the factory starts; wait for HasSynced before the first
// CheckAddress. The Node informer must keep status.addresses: declare
// informertransform.Reads.NodeAddresses (Reads does) when transforms are
// installed. Errors: ErrNoServiceCIDRs (wrapped) when the server serves
// no ServiceCIDR objects and opts.ServiceCIDRs is empty; a discovery
// failure other than NotFound (the guard would not know whether to watch
// ServiceCIDRs); the informers refusing the index or handler.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, controller string, opts Options) (*Guard, error) {
	if client == nil || factory == nil {
		return nil, fmt.Errorf("address guard of %s: client and informer factory are required", controller)
	}
	logger := klog.FromContext(ctx)
	g := &Guard{controller: controller, static: slices.Clone(opts.ServiceCIDRs)}
	if a, ok := opts.AllowedCIDRs[controller]; ok {
		g.allowed = slices.Clone(a)
	}
	empty := []netip.Prefix{}
	g.cidrs.Store(&empty)

	nodeInformer := factory.Core().V1().Nodes().Informer()
	if _, ok := nodeInformer.GetIndexer().GetIndexers()[NodeAddressIndex]; !ok {
		if err := nodeInformer.AddIndexers(cache.Indexers{NodeAddressIndex: nodeAddresses}); err != nil {
			return nil, fmt.Errorf("address guard of %s: adding the Node address index: %w", controller, err)
		}
	}
	g.nodes = nodeInformer.GetIndexer()
	nodeReg, err := nodeInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { g.changed() },
		UpdateFunc: func(old, cur any) {
			a, _ := nodeAddresses(old)
			b, _ := nodeAddresses(cur)
			if !slices.Equal(a, b) {
				g.changed()
			}
		},
		DeleteFunc: func(any) { g.changed() },
	})
	if err != nil {
		return nil, fmt.Errorf("address guard of %s: adding the Node handler: %w", controller, err)
	}
	g.synced = append(g.synced, nodeReg.HasSynced)

	if !opts.IgnoreServiceCIDRObjects {
		served, err := ServiceCIDRsServed(client)
		if err != nil {
			return nil, fmt.Errorf("address guard of %s: %w", controller, err)
		}
		if served {
			inf := factory.Networking().V1().ServiceCIDRs()
			g.cidrLister = inf.Lister()
			reg, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc:    func(any) { g.refreshCIDRs(logger) },
				UpdateFunc: func(any, any) { g.refreshCIDRs(logger) },
				DeleteFunc: func(any) { g.refreshCIDRs(logger) },
			})
			if err != nil {
				return nil, fmt.Errorf("address guard of %s: adding the ServiceCIDR handler: %w", controller, err)
			}
			g.synced = append(g.synced, reg.HasSynced)
		} else if len(g.static) == 0 {
			return nil, fmt.Errorf("address guard of %s: %w", controller, ErrNoServiceCIDRs)
		}
	}
	return g, nil
}

// ServiceCIDRsServed reports whether the API server serves
// networking.k8s.io/v1 servicecidrs, asking client's discovery. A NotFound
// answer (the group version is not served) is (false, nil); another
// failure is an error.
func ServiceCIDRsServed(client kubernetes.Interface) (bool, error) {
	list, err := client.Discovery().ServerResourcesForGroupVersion(ServiceCIDRGroupVersion)
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("discovering %s: %w", ServiceCIDRGroupVersion, err)
	}
	for _, r := range list.APIResources {
		if r.Name == ServiceCIDRResource {
			return true, nil
		}
	}
	return false, nil
}

// nodeAddresses is the NodeAddressIndex function: a Node's InternalIP and
// ExternalIP addresses in canonical form.
func nodeAddresses(obj any) ([]string, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return nil, nil
	}
	var out []string
	for _, a := range node.Status.Addresses {
		if a.Type != corev1.NodeInternalIP && a.Type != corev1.NodeExternalIP {
			continue
		}
		ip, err := netip.ParseAddr(strings.TrimSpace(a.Address))
		if err != nil {
			continue
		}
		out = append(out, ip.Unmap().String())
	}
	return out, nil
}

// refreshCIDRs rebuilds the parsed CIDRs of the ServiceCIDR objects.
func (g *Guard) refreshCIDRs(logger klog.Logger) {
	objs, err := g.cidrLister.List(labels.Everything())
	if err != nil {
		logger.Error(err, "Listing ServiceCIDRs from the cache")
		return
	}
	cur := parseServiceCIDRs(logger, objs)
	if prev := g.cidrs.Swap(&cur); !slices.Equal(*prev, cur) {
		g.changed()
	}
}

// parseServiceCIDRs returns the spec.cidrs of objs, masked, sorted.
func parseServiceCIDRs(logger klog.Logger, objs []*networkingv1.ServiceCIDR) []netip.Prefix {
	var out []netip.Prefix
	for _, o := range objs {
		for _, c := range o.Spec.CIDRs {
			p, err := netip.ParsePrefix(c)
			if err != nil {
				logger.Info("Ignoring an invalid CIDR of a ServiceCIDR", "serviceCIDR", o.Name, "cidr", c)
				continue
			}
			out = append(out, p.Masked())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return slices.Compact(out)
}

// HasSynced reports whether the Node and ServiceCIDR informers the guard
// reads have synced.
func (g *Guard) HasSynced() bool {
	for _, s := range g.synced {
		if !s() {
			return false
		}
	}
	return true
}

// ServiceCIDRs returns the Service CIDRs the guard refuses: the static ones
// and those of the ServiceCIDR objects it has seen.
func (g *Guard) ServiceCIDRs() []netip.Prefix {
	return append(slices.Clone(g.static), *g.cidrs.Load()...)
}

// CheckAddress implements source.AddressGuard: nil when addr may be an
// endpoint address of pod, else a *source.SkipError with reason
// source.ReasonAddressNotAllowed (outside the controller's allow-list),
// source.ReasonAddressInServiceCIDR or source.ReasonNodeAddress (never for
// an address in pod's status.podIPs). svc is not read.
func (g *Guard) CheckAddress(_ *corev1.Service, pod *corev1.Pod, addr netip.Addr) error {
	addr = addr.Unmap()
	if g.allowed != nil {
		if _, ok := containing(g.allowed, addr); !ok {
			return source.Skip(source.ReasonAddressNotAllowed, "%s is outside the CIDRs allowed for controller %s (%s)", addr, g.controller, prefixList(g.allowed))
		}
	}
	if podIP(pod, addr) {
		return nil
	}
	if p, ok := containing(g.static, addr); ok {
		return source.Skip(source.ReasonAddressInServiceCIDR, "%s is inside Service CIDR %s (--service-cluster-ip-range)", addr, p)
	}
	if p, ok := containing(*g.cidrs.Load(), addr); ok {
		return source.Skip(source.ReasonAddressInServiceCIDR, "%s is inside Service CIDR %s (a ServiceCIDR object)", addr, p)
	}
	if g.nodes != nil {
		objs, err := g.nodes.ByIndex(NodeAddressIndex, addr.String())
		if err == nil && len(objs) > 0 {
			name := "?"
			if n, ok := objs[0].(*corev1.Node); ok {
				name = n.Name
			}
			return source.Skip(source.ReasonNodeAddress, "%s is an address of Node %s", addr, name)
		}
	}
	return nil
}

// podIP reports whether addr is one of pod's status.podIPs.
func podIP(pod *corev1.Pod, addr netip.Addr) bool {
	if pod == nil {
		return false
	}
	for _, ip := range pod.Status.PodIPs {
		if a, err := netip.ParseAddr(ip.IP); err == nil && a.Unmap() == addr {
			return true
		}
	}
	return false
}

func prefixList(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}

// RBACRules returns what a guard needs besides the Service controller's
// rules (which already read Nodes): list and watch ServiceCIDRs. Each call
// returns a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{
		{APIGroups: []string{"networking.k8s.io"}, Resources: []string{ServiceCIDRResource}, Verbs: []string{"list", "watch"}},
	}
}
