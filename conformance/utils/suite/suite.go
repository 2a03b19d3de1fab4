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

package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/slicekit/slicekit/conformance/utils/config"
)

// PodMode says how the suite makes Pods run.
type PodMode string

const (
	// PodModeStatusSubresource is for clusters without kubelets (a bare
	// kube-apiserver such as slicekit's local control plane): the suite
	// creates each Pod bound to a Node object it creates, then writes the
	// Pod's status (phase, IPs, Ready) through the status subresource.
	PodModeStatusSubresource PodMode = "StatusSubresource"
	// PodModeRealPods is for real clusters: the suite runs Pods from
	// Options.Image, waits for kubelet to start them, and controls their
	// readiness through a readiness gate (ReadinessGate) whose condition it
	// sets through the status subresource.
	PodModeRealPods PodMode = "RealPods"
)

// Names used by the suite in objects and fixtures.
const (
	// OtherControllerName is a KEP-4770 label value naming a controller
	// other than the one under test.
	OtherControllerName = "other.conformance.slicekit.io"
	// ForeignManagedBy is the managed-by value of the foreign slices the
	// suite writes itself.
	ForeignManagedBy = "foreign.conformance.slicekit.io"
	// AnnotationReady on a fixture Pod gives its initial readiness, "true"
	// (the default) or "false".
	AnnotationReady = "conformance.slicekit.io/ready"
	// AnnotationPhase on a fixture Pod gives its phase in the
	// StatusSubresource mode: Running (the default), Succeeded or Failed.
	AnnotationPhase = "conformance.slicekit.io/phase"
	// AnnotationServe "false" on a fixture Service stops the suite from
	// adding the label that hands the Service to the controller under test.
	AnnotationServe = "conformance.slicekit.io/serve"
	// ReadinessGate is the readiness gate condition of RealPods Pods.
	ReadinessGate = "conformance.slicekit.io/ready"
	// FinalizerHold keeps a deleted fixture Pod terminating until the suite
	// removes it.
	FinalizerHold = "conformance.slicekit.io/hold"
	// ImagePlaceholder is the image of fixture containers; the suite
	// replaces it with Options.Image.
	ImagePlaceholder = "IMAGE"
	// DefaultImage is the default Options.Image.
	DefaultImage = "registry.k8s.io/pause:3.10"
	// DefaultNamespacePrefix is the default Options.NamespacePrefix.
	DefaultNamespacePrefix = "slicekit-conformance-"
	// ZoneLabelValue is the zone of the Node the StatusSubresource mode
	// creates.
	ZoneLabelValue = "conformance-zone-a"
)

// Implementation names the implementation in the report.
type Implementation struct {
	// Name is the project or product, e.g. "slicekit".
	Name string `json:"name"`
	// Version is its version.
	Version string `json:"version,omitempty"`
	// URL points at it.
	URL string `json:"url,omitempty"`
}

// Options configure a run of the suite.
type Options struct {
	// Client talks to the cluster; when nil it is built from RestConfig
	// (with API warnings silenced).
	Client kubernetes.Interface
	// RestConfig is used when Client is nil.
	RestConfig *rest.Config

	// ControllerName is the controller under test: its managed-by value and
	// the KEP-4770 label value that hands it a Service. Required.
	ControllerName string
	// Implementation names the implementation in the report.
	Implementation Implementation
	// SupportedFeatures are the features the implementation claims; tests
	// needing others are skipped. Required; DefaultControllerFeatures and
	// LabelledControllerFeatures are the usual sets.
	SupportedFeatures []Feature

	// NamespacePrefix prefixes the generated name of each test's namespace.
	// Default: DefaultNamespacePrefix.
	NamespacePrefix string
	// PodMode says how Pods run. Default: PodModeStatusSubresource.
	PodMode PodMode
	// Image is the container image of fixture Pods (RealPods). Default:
	// DefaultImage.
	Image string
	// TimeoutConfig holds the waits; zero fields get their defaults.
	TimeoutConfig config.TimeoutConfig

	// RunTest, when set, runs only the test of that ShortName.
	RunTest string
	// SkipTests lists ShortNames to skip.
	SkipTests []string
	// SkipCheck disables the check after each passing test that
	// `slicekit check` (package pkg/check) finds no error on the
	// controller's slices in the test's namespace.
	SkipCheck bool

	// ManifestFS holds the fixtures named by the tests' Manifests.
	// conformance.RunConformance sets it to the suite's own fixtures.
	ManifestFS fs.FS
}

// ConformanceTest is one test of the suite, registered by the tests
// package in its init functions.
type ConformanceTest struct {
	// ShortName identifies the test (report, RunTest, SkipTests).
	ShortName string
	// Description says what the test asserts, in one sentence.
	Description string
	// Features are the features the implementation must claim for the test
	// to run.
	Features []Feature
	// PodModes, when set, are the pod modes the test can run in.
	PodModes []PodMode
	// Manifests are the fixtures (paths in Options.ManifestFS) applied in
	// the test's namespace before Test runs.
	Manifests []string
	// Test runs the test in namespace ns, after the manifests are applied.
	Test func(t *testing.T, s *ConformanceTestSuite, ns string)
}

// ConformanceTestSuite is a configured run of the suite.
type ConformanceTestSuite struct {
	// Client talks to the cluster.
	Client kubernetes.Interface
	// ControllerName is the controller under test.
	ControllerName string
	// Implementation names it in the report.
	Implementation Implementation
	// SupportedFeatures are the features it claims.
	SupportedFeatures sets.Set[Feature]
	// PodMode is how Pods run (Options.PodMode, defaulted).
	PodMode PodMode
	// Image is the image of fixture containers (Options.Image, defaulted).
	Image string
	// NamespacePrefix prefixes the test namespaces (Options.NamespacePrefix,
	// defaulted).
	NamespacePrefix string
	// TimeoutConfig holds the waits, defaulted.
	TimeoutConfig config.TimeoutConfig
	// ManifestFS holds the fixtures.
	ManifestFS fs.FS

	runTest   string
	skipTests sets.Set[string]
	check     bool

	// node is the Node of the StatusSubresource mode.
	node string

	mu          sync.Mutex
	results     []TestResult
	skipReasons map[string]string
	started     time.Time
}

// NewConformanceTestSuite validates opts, fills in defaults and returns
// the suite.
func NewConformanceTestSuite(opts Options) (*ConformanceTestSuite, error) {
	var errs []error
	client := opts.Client
	if client == nil {
		if opts.RestConfig == nil {
			errs = append(errs, errors.New("either Client or RestConfig is required"))
		} else {
			cfg := rest.CopyConfig(opts.RestConfig)
			// The check after each test lists v1 Endpoints, which draws
			// a deprecation warning on every call.
			cfg.WarningHandler = rest.NoWarnings{}
			c, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				errs = append(errs, fmt.Errorf("building a client: %w", err))
			}
			client = c
		}
	}
	if opts.ControllerName == "" {
		errs = append(errs, errors.New("ControllerName is required"))
	} else if msgs := validation.IsValidLabelValue(opts.ControllerName); len(msgs) > 0 {
		errs = append(errs, fmt.Errorf("ControllerName %q is not a valid label value: %s", opts.ControllerName, strings.Join(msgs, "; ")))
	}
	if opts.ControllerName == OtherControllerName || opts.ControllerName == ForeignManagedBy {
		errs = append(errs, fmt.Errorf("ControllerName %q is reserved by the suite", opts.ControllerName))
	}
	features := sets.New(opts.SupportedFeatures...)
	known := sets.New(AllFeatures()...)
	if unknown := features.Difference(known); unknown.Len() > 0 {
		errs = append(errs, fmt.Errorf("unknown features %v", sets.List(unknown)))
	}
	if features.Has(SupportDefaultController) && features.Has(SupportControllerNameLabel) {
		errs = append(errs, fmt.Errorf("features %s and %s exclude each other", SupportDefaultController, SupportControllerNameLabel))
	}
	if !features.Has(SupportEndpointSlices) && !features.Has(SupportDRANetworkData) {
		errs = append(errs, fmt.Errorf("feature %s is required (or %s, for a controller of DRA networkData addresses)", SupportEndpointSlices, SupportDRANetworkData))
	}
	mode := opts.PodMode
	switch mode {
	case "":
		mode = PodModeStatusSubresource
	case PodModeStatusSubresource, PodModeRealPods:
	default:
		errs = append(errs, fmt.Errorf("PodMode %q is not %s or %s", mode, PodModeStatusSubresource, PodModeRealPods))
	}
	if opts.ManifestFS == nil {
		errs = append(errs, errors.New("ManifestFS is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("conformance: invalid options: %w", err)
	}
	s := &ConformanceTestSuite{
		Client:            client,
		ControllerName:    opts.ControllerName,
		Implementation:    opts.Implementation,
		SupportedFeatures: features,
		PodMode:           mode,
		Image:             opts.Image,
		NamespacePrefix:   opts.NamespacePrefix,
		TimeoutConfig:     opts.TimeoutConfig,
		ManifestFS:        opts.ManifestFS,
		runTest:           opts.RunTest,
		skipTests:         sets.New(opts.SkipTests...),
		check:             !opts.SkipCheck,
		skipReasons:       map[string]string{},
	}
	if s.Image == "" {
		s.Image = DefaultImage
	}
	if s.NamespacePrefix == "" {
		s.NamespacePrefix = DefaultNamespacePrefix
	}
	config.SetupTimeoutConfig(&s.TimeoutConfig)
	return s, nil
}

// SupportsFeature reports whether the implementation claims f.
func (s *ConformanceTestSuite) SupportsFeature(f Feature) bool { return s.SupportedFeatures.Has(f) }

// skipReason returns why test must not run, or "".
func (s *ConformanceTestSuite) skipReason(test ConformanceTest) string {
	switch {
	case s.runTest != "" && s.runTest != test.ShortName:
		return "not selected (RunTest is " + s.runTest + ")"
	case s.skipTests.Has(test.ShortName):
		return "listed in SkipTests"
	}
	var missing []string
	for _, f := range test.Features {
		if !s.SupportsFeature(f) {
			missing = append(missing, string(f))
		}
	}
	if len(missing) > 0 {
		return "unsupported features: " + strings.Join(missing, ", ")
	}
	if len(test.PodModes) > 0 && !slices.Contains(test.PodModes, s.PodMode) {
		return fmt.Sprintf("needs pod mode %v, the run uses %s", test.PodModes, s.PodMode)
	}
	return ""
}

// Skip records reason as the report's reason and skips t.
func (s *ConformanceTestSuite) Skip(t *testing.T, reason string) {
	t.Helper()
	s.mu.Lock()
	s.skipReasons[t.Name()] = reason
	s.mu.Unlock()
	t.Skip(reason)
}

// Setup prepares the cluster: in the StatusSubresource mode it creates
// the Node the fixture Pods are bound to (deleted with t.Cleanup). Call it
// once before Run.
func (s *ConformanceTestSuite) Setup(t *testing.T) {
	t.Helper()
	s.started = time.Now()
	if s.PodMode == PodModeStatusSubresource {
		s.node = s.createNode(t)
	}
}

// Run runs tests in order, each as a subtest of t in its own namespace,
// and records the results for Report. Tests whose features the
// implementation does not claim, or that are not selected, are skipped.
func (s *ConformanceTestSuite) Run(t *testing.T, tests []ConformanceTest) {
	t.Helper()
	if s.started.IsZero() {
		s.Setup(t)
	}
	for _, test := range tests {
		res := TestResult{ShortName: test.ShortName, Description: test.Description, Features: test.Features}
		if reason := s.skipReason(test); reason != "" {
			res.Result, res.Reason = ResultSkipped, reason
			t.Run(test.ShortName, func(t *testing.T) { t.Skip(reason) })
			s.record(res)
			continue
		}
		start := time.Now()
		var sub *testing.T
		t.Run(test.ShortName, func(t *testing.T) {
			sub = t
			s.runOne(t, test)
		})
		res.Duration = time.Since(start).Round(time.Millisecond).String()
		switch {
		case sub.Failed():
			res.Result, res.Reason = ResultFailed, "see the test log of "+sub.Name()
		case sub.Skipped():
			s.mu.Lock()
			res.Result, res.Reason = ResultSkipped, s.skipReasons[sub.Name()]
			s.mu.Unlock()
		default:
			res.Result = ResultPassed
		}
		s.record(res)
	}
}

func (s *ConformanceTestSuite) runOne(t *testing.T, test ConformanceTest) {
	ns := s.Namespace(t)
	s.ApplyManifests(t, ns, test.Manifests...)
	test.Test(t, s, ns)
	if s.check && !t.Failed() && !t.Skipped() {
		s.checkNamespace(t, ns)
	}
}

func (s *ConformanceTestSuite) record(r TestResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results = append(s.results, r)
}
