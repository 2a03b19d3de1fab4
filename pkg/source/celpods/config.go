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

package celpods

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Config file identity. Both fields are optional in a file; when present
// they must have these values.
const (
	// ConfigAPIVersion is the apiVersion of the profile file format.
	ConfigAPIVersion = "slicekit.dev/v1alpha1"
	// ConfigKind is the kind of the profile file format.
	ConfigKind = "CELProfiles"
)

// DefaultCostLimit is the default runtime cost limit of one evaluation of
// one expression (cel-go cost units), Kubernetes' per-expression limit for
// CEL in admission and CRD validation (k8s.io/apiserver
// pkg/apis/cel PerCallLimit).
const DefaultCostLimit uint64 = 1_000_000

// MaxAddressesPerPod is the most addresses an addresses expression may
// return for one Pod (the API's limit of addresses per endpoint); a longer
// result is invalid.
const MaxAddressesPerPod = 100

// reservedNames are the managed-by values of KCM's controllers, which a
// profile must not take.
var reservedNames = []string{wellknown.EndpointSliceControllerName, wellknown.MirroringControllerName}

// ErrInvalidConfig is wrapped by every error about the content of a
// profile file or a profile: unreadable YAML, an invalid field, an
// expression that does not compile or type-check. errors.Is(err,
// ErrInvalidConfig) tells a configuration error (a usage error, exit code
// 2) from an I/O error.
var ErrInvalidConfig = errors.New("invalid CEL profile configuration")

// Config is the content of a profile file (YAML or JSON):
//
//	apiVersion: slicekit.dev/v1alpha1   # optional
//	kind: CELProfiles                   # optional
//	profiles:
//	- name: storage-net.example.com     # label value and managed-by
//	  addresses: >-                     # CEL, list(string)
//	    pod.metadata.annotations['example.com/storage-ips'].split(',')
//	  ready: pod.status.phase == 'Running'  # optional CEL, bool
//	  maxEndpointsPerSlice: 50          # optional, 1..1000, default 100
//	  costLimit: 100000                 # optional, default DefaultCostLimit
//	  podAnnotations: [example.com/storage-ips]  # the Pod annotations read
//	  podLabels: []                     # the Pod labels read
//
// Unknown fields are errors.
type Config struct {
	// APIVersion, when set, must be ConfigAPIVersion.
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind, when set, must be ConfigKind.
	Kind string `json:"kind,omitempty"`
	// Profiles are the CEL controllers to run, one per profile.
	Profiles []Profile `json:"profiles"`
}

// Profile is one CEL controller.
type Profile struct {
	// Name is the value of the Service label
	// service.kubernetes.io/endpoint-controller-name the controller answers
	// to, and the managed-by value of its slices. Required; a valid label
	// value, unique in the file, not one of KCM's managed-by values.
	Name string `json:"name"`
	// Addresses is a CEL expression over the variables pod and service (see
	// the package documentation) returning list(string): the Pod's IP
	// addresses for the Service. Required.
	Addresses string `json:"addresses"`
	// Ready is an optional CEL expression over pod and service returning
	// bool: the endpoints' serving condition, replacing the Pod Ready
	// condition; ready is derived from it as KCM does. Empty means the Pod
	// Ready rule.
	Ready string `json:"ready,omitempty"`
	// MaxEndpointsPerSlice is the most endpoints in one slice, 1..1000; 0
	// means the controller's default (100).
	MaxEndpointsPerSlice int32 `json:"maxEndpointsPerSlice,omitempty"`
	// CostLimit bounds the runtime cost of one evaluation of each
	// expression; 0 means DefaultCostLimit. An evaluation that exceeds it
	// is stopped and the Pod left out.
	CostLimit uint64 `json:"costLimit,omitempty"`
	// PodAnnotations are the Pod annotation keys the expressions read.
	// Anyone who may edit Pods may write annotations, so these are the
	// keys the input admission policy restricts to trusted writers
	// (docs/security.md). Compile refuses a profile whose expressions
	// read pod.metadata.annotations without declaring the keys (every
	// constant key must be listed; a computed key or a whole-map use needs
	// at least one declared key and must stay within them).
	PodAnnotations []string `json:"podAnnotations,omitempty"`
	// PodLabels are the Pod label keys the expressions read, as
	// PodAnnotations.
	PodLabels []string `json:"podLabels,omitempty"`
}

// ParseConfig decodes a profile file strictly (unknown or duplicate fields
// are errors) and validates it (Validate). Expressions are not compiled;
// see CompileConfig. Errors wrap ErrInvalidConfig.
func ParseConfig(data []byte) (*Config, error) {
	var cfg Config
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// LoadConfig reads, parses and validates the profile file at path. Errors
// name the file; content errors wrap ErrInvalidConfig.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading CEL profiles: %w", err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Validate reports every invalid field of c, each naming its profile, as
// one error wrapping ErrInvalidConfig. It does not compile expressions.
func (c *Config) Validate() error {
	var errs []error
	if c.APIVersion != "" && c.APIVersion != ConfigAPIVersion {
		errs = append(errs, fmt.Errorf("apiVersion %q: want %q", c.APIVersion, ConfigAPIVersion))
	}
	if c.Kind != "" && c.Kind != ConfigKind {
		errs = append(errs, fmt.Errorf("kind %q: want %q", c.Kind, ConfigKind))
	}
	if len(c.Profiles) == 0 {
		errs = append(errs, errors.New("no profile"))
	}
	seen := map[string]int{}
	for i := range c.Profiles {
		p := &c.Profiles[i]
		if err := p.validate(); err != nil {
			errs = append(errs, fmt.Errorf("profiles[%d]: %w", i, err))
		}
		if j, ok := seen[p.Name]; ok && p.Name != "" {
			errs = append(errs, fmt.Errorf("profile %q (profiles[%d]): name already used by profiles[%d]", p.Name, i, j))
		} else {
			seen[p.Name] = i
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}

// Validate reports every invalid field of p (not the expressions' CEL),
// naming the profile, as one error wrapping ErrInvalidConfig.
func (p *Profile) Validate() error {
	if err := p.validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}

// validate is Validate without the ErrInvalidConfig wrapping.
func (p *Profile) validate() error {
	var errs []error
	if p.Name == "" {
		errs = append(errs, errors.New("name is required"))
	} else {
		if msgs := validation.IsValidLabelValue(p.Name); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("name is not a valid label value: %s", strings.Join(msgs, "; ")))
		}
		if slices.Contains(reservedNames, p.Name) {
			errs = append(errs, fmt.Errorf("name %q is a managed-by value of kube-controller-manager", p.Name))
		}
	}
	if strings.TrimSpace(p.Addresses) == "" {
		errs = append(errs, errors.New("addresses is required"))
	}
	errs = append(errs, validateDeclaredKeys(p)...)
	if p.MaxEndpointsPerSlice < 0 || p.MaxEndpointsPerSlice > reconciler.MaxEndpointsPerSliceLimit {
		errs = append(errs, fmt.Errorf("maxEndpointsPerSlice %d is outside 1..%d", p.MaxEndpointsPerSlice, reconciler.MaxEndpointsPerSliceLimit))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("profile %q: %w", p.Name, err)
	}
	return nil
}
