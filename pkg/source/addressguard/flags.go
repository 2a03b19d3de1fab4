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
	"errors"
	"fmt"

	"github.com/spf13/pflag"
)

// AddFlags binds --service-cluster-ip-range and --pod-address-allowed-cidrs
// to o, the guard's options shared by every pod-address controller of one
// `slicekit run` (or `slicekit render`); Validate parses them into
// ServiceCIDRs and AllowedCIDRs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.serviceClusterIPRange, "service-cluster-ip-range", o.serviceClusterIPRange,
		"Comma-separated Service CIDRs (as kube-apiserver's flag): pod-address controllers (secondary-network, dra-network, cel) never publish an address inside them. "+
			"The ServiceCIDR objects (networking.k8s.io/v1) are refused too; set this on clusters without them.")
	fs.StringArrayVar(&o.allowedCIDRs, "pod-address-allowed-cidrs", o.allowedCIDRs,
		"<controller name>=<CIDR>[,<CIDR>...]: the only ranges the pod-address controller of that managed-by value "+
			"(the secondary-network controller's name, a CEL profile's name) may publish. Repeatable; a controller without one has no allow-list.")
}

// Validate parses the flags AddFlags bound, when given, into ServiceCIDRs
// (--service-cluster-ip-range, ParseCIDRs) and AllowedCIDRs
// (--pod-address-allowed-cidrs, ParseAllowedCIDRs). It returns every
// parse error, each naming its flag, and leaves o unchanged then.
func (o *Options) Validate() error {
	var errs []error
	cidrs, err := ParseCIDRs(o.serviceClusterIPRange)
	if err != nil {
		errs = append(errs, fmt.Errorf("--service-cluster-ip-range: %w", err))
	}
	allowed, err := ParseAllowedCIDRs(o.allowedCIDRs)
	if err != nil {
		errs = append(errs, fmt.Errorf("--pod-address-allowed-cidrs: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if o.serviceClusterIPRange != "" {
		o.ServiceCIDRs = cidrs
	}
	if len(o.allowedCIDRs) > 0 {
		o.AllowedCIDRs = allowed
	}
	return nil
}
