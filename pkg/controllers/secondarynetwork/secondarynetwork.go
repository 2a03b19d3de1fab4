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

package secondarynetwork

import (
	"context"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"

	"github.com/slicekit/slicekit/pkg/admissionpolicy"
	"github.com/slicekit/slicekit/pkg/slicecontroller"
	"github.com/slicekit/slicekit/pkg/source/networkstatus"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

const (
	// MetricsSubsystem is the Prometheus subsystem of this controller's
	// metrics (endpoint_slice_secondary_network_controller_syncs, ...,
	// _pod_problems{reason}), all labelled controller=<ControllerName>.
	MetricsSubsystem = "endpoint_slice_secondary_network_controller"
)

// Options configures New. The zero value is valid.
type Options struct {
	// ControllerName is the endpoint-controller-name label value this
	// controller answers to. Default: wellknown.SecondaryNetworkControllerName. A valid label
	// value.
	ControllerName string
	// ManagedBy is the managed-by value of its slices. Default:
	// ControllerName.
	ManagedBy string
	// Common are the settings shared with the other Service controllers
	// (slicecontroller.Common: max endpoints per slice, batch period,
	// selector-removal cleanup, address guard, metrics registerer, event
	// recorder); the metrics are under MetricsSubsystem.
	slicecontroller.Common
}

// New returns the secondary-network controller: a
// slicecontroller.Controller with Labelled(ControllerName) ownership whose
// Source is networkstatus.Source(). It manages the EndpointSlices of
// the Services labelled
// service.kubernetes.io/endpoint-controller-name=<ControllerName>, with
// the Pods' addresses on the networks named by the Services'
// k8s.v1.cni.cncf.io/service-network annotation, taken from the Pods'
// k8s.v1.cni.cncf.io/network-status annotation (see networkstatus). Errors
// are slicecontroller.New's.
func New(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory, opts Options) (*slicecontroller.Controller, error) {
	if opts.ControllerName == "" {
		opts.ControllerName = wellknown.SecondaryNetworkControllerName
	}
	return slicecontroller.New(ctx, client, factory, slicecontroller.Options{
		Name:             "secondary-network",
		ControllerName:   opts.ControllerName,
		ManagedBy:        opts.ManagedBy,
		Ownership:        slicecontroller.Labelled(opts.ControllerName),
		Source:           networkstatus.Source(),
		MetricsSubsystem: MetricsSubsystem,
		Common:           opts.Common,
	})
}

// RBACRules returns the RBAC rules the secondary-network controller needs:
// the Service controller's (slicecontroller.RBACRules) and its address
// guard's (slicecontroller.GuardRBACRules), and listing the admission
// policies (admissionpolicy.RBACRules, the start-up check). Each call
// returns a new slice.
func RBACRules() []rbacv1.PolicyRule {
	return append(append(slicecontroller.RBACRules(), slicecontroller.GuardRBACRules()...), admissionpolicy.RBACRules()...)
}
