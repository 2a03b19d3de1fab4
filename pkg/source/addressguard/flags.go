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

// Flags are the guard's command-line options, shared by every pod-address
// controller of one `slicekit run` (or `slicekit render`).
type Flags struct {
	// ServiceClusterIPRange is --service-cluster-ip-range: comma-separated
	// Service CIDRs (kube-apiserver's flag of the same name), refused
	// besides the ServiceCIDR objects.
	ServiceClusterIPRange string
	// AllowedCIDRs is --pod-address-allowed-cidrs, repeatable:
	// "<controller name>=<CIDR>[,<CIDR>...]".
	AllowedCIDRs []string

	opts Options
}

// AddFlags adds --service-cluster-ip-range and --pod-address-allowed-cidrs
// to fs.
func (f *Flags) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.ServiceClusterIPRange, "service-cluster-ip-range", f.ServiceClusterIPRange,
		"Comma-separated Service CIDRs (as kube-apiserver's flag): pod-address controllers (secondary-network, dra-network, cel) never publish an address inside them. "+
			"The ServiceCIDR objects (networking.k8s.io/v1) are refused too; set this on clusters without them.")
	fs.StringArrayVar(&f.AllowedCIDRs, "pod-address-allowed-cidrs", f.AllowedCIDRs,
		"<controller name>=<CIDR>[,<CIDR>...]: the only ranges the pod-address controller of that managed-by value "+
			"(the secondary-network controller's name, a CEL profile's name) may publish. Repeatable; a controller without one has no allow-list.")
}

// Validate parses both flags and reports every invalid value, naming its
// flag.
func (f *Flags) Validate() error {
	var errs []error
	cidrs, err := ParseCIDRs(f.ServiceClusterIPRange)
	if err != nil {
		errs = append(errs, fmt.Errorf("--service-cluster-ip-range: %w", err))
	}
	allowed, err := ParseAllowedCIDRs(f.AllowedCIDRs)
	if err != nil {
		errs = append(errs, fmt.Errorf("--pod-address-allowed-cidrs: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	f.opts = Options{ServiceCIDRs: cidrs, AllowedCIDRs: allowed}
	return nil
}

// Options returns the guard options the flags give (after Validate; the
// zero Options before).
func (f *Flags) Options() Options { return f.opts }
