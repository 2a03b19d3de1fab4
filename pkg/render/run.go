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

package render

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/go-logr/logr"
	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
)

// Exit statuses of `slicekit render` (Run).
const (
	// ExitOK: the slices were printed.
	ExitOK = 0
	// ExitFailure: no fixed point, an internal error, or the output could
	// not be written.
	ExitFailure = 1
	// ExitUsage: invalid options (*UsageError) or input (*InputError).
	ExitUsage = 2
)

// Options are the settings of `slicekit render`; Render reads Controllers
// and MaxPasses only. Create them with NewOptions and bind them with
// AddFlags.
type Options struct {
	// Controllers selects and configures the controllers, as for `slicekit
	// run`; nil means builtin.NewControllerOptions().
	Controllers *builtin.ControllerOptions
	// MaxPasses is the most passes that write before Render gives up; one
	// more pass, which writes nothing, shows the fixed point. 0 means
	// DefaultMaxPasses.
	MaxPasses int

	// Files are the input files (-f); StdinName reads standard input, a
	// directory its *.yaml, *.yml and *.json files.
	Files []string
	// WithInputs prints the objects before the EndpointSlices.
	WithInputs bool
	// ServiceIPFamilies is the cluster's service IP families, primary
	// first (ParseIPFamilies).
	ServiceIPFamilies string
	// Logs configures logging (-v, --logging-format, ...); nil means no
	// logging flags and klog's configuration as it is.
	Logs *logsapi.LoggingConfiguration

	// Stdin is read for "-f -"; nil means os.Stdin.
	Stdin io.Reader
	// Stderr receives the notes, the ignored objects and the warnings; nil
	// discards them.
	Stderr io.Writer
	// Command prefixes the lines written to Stderr (default "slicekit
	// render").
	Command string
}

// NewOptions returns the default options of `slicekit render`.
func NewOptions() *Options {
	return &Options{
		Controllers:       builtin.NewControllerOptions(),
		MaxPasses:         DefaultMaxPasses,
		ServiceIPFamilies: string(corev1.IPv4Protocol),
		Logs:              logsapi.NewLoggingConfiguration(),
	}
}

// AddFlags registers the flags of `slicekit render` on fs: -f/--filename,
// --max-passes, --with-inputs, --service-ip-families, the controller
// flags that shape output (builtin.ControllerOptions.AddRenderFlags) and
// the logging flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&o.Files, "filename", "f", o.Files, "A YAML or JSON file of input objects, or a directory of them (its *.yaml, *.yml and *.json files in name order); '-' reads standard input. Repeatable.")
	fs.IntVar(&o.MaxPasses, "max-passes", o.MaxPasses, "The most passes over all objects that change something before giving up without a fixed point; one more pass, which changes nothing, shows the fixed point.")
	fs.BoolVar(&o.WithInputs, "with-inputs", o.WithInputs, "Print the input objects (Namespaces, Nodes, Services as defaulted, Pods, Endpoints, ResourceClaims) before the EndpointSlices: a complete state that 'slicekit check -f' accepts.")
	fs.StringVar(&o.ServiceIPFamilies, "service-ip-families", o.ServiceIPFamilies, "The cluster's service IP families, primary first (IPv4, IPv6, IPv4,IPv6 or IPv6,IPv4): the ipFamilies of Services that give neither ipFamilies nor a clusterIP.")
	o.Controllers.AddRenderFlags(fs)
	if o.Logs != nil {
		logsapi.AddFlags(o.Logs, fs)
	}
}

// UsageError is an invalid option (exit status 2).
type UsageError struct {
	// Err says what is wrong (errors joined, one per line).
	Err error
}

// Error returns the message of Err.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *UsageError) Unwrap() error { return e.Err }

// Validate checks the options and returns the IP families; the error is
// a *UsageError naming the flags.
func (o *Options) Validate() ([]corev1.IPFamily, error) {
	var errs []error
	if len(o.Files) == 0 {
		errs = append(errs, errors.New("at least one -f FILE is required"))
	}
	if o.MaxPasses < 1 {
		errs = append(errs, fmt.Errorf("--max-passes=%d must be at least 1", o.MaxPasses))
	}
	families, err := ParseIPFamilies(o.ServiceIPFamilies)
	if err != nil {
		errs = append(errs, fmt.Errorf("--service-ip-families %q: %w", o.ServiceIPFamilies, err))
	}
	if o.Controllers != nil {
		errs = append(errs, o.Controllers.Validate())
	}
	if err := errors.Join(errs...); err != nil {
		return nil, &UsageError{Err: err}
	}
	return families, nil
}

// Run runs `slicekit render` with o and writes the EndpointSlices (with
// WithInputs, the objects first) to out as multi-document YAML; notes,
// ignored objects and warnings go to o.Stderr. It returns the exit status
// and, when it is not ExitOK, the error for the caller to print:
//
//   - ExitUsage, *UsageError: invalid options;
//   - ExitUsage, *InputError: unreadable or invalid input;
//   - ExitFailure, err: no fixed point, an internal error, or the output
//     could not be written.
//
// The kinds table and the controllers' informer transforms are computed
// once, for reading the input and for the controllers. ctx supplies the
// logger and cancels the reading.
func Run(ctx context.Context, o Options, out io.Writer) (int, error) {
	if o.Controllers == nil {
		o.Controllers = builtin.NewControllerOptions()
	}
	families, err := o.Validate()
	if err != nil {
		return ExitUsage, err
	}
	if o.Logs != nil {
		if err := logsapi.ValidateAndApply(o.Logs, o.Controllers.FeatureGates); err != nil {
			return ExitUsage, &UsageError{Err: err}
		}
		defer klog.Flush()
		if o.Logs.Verbosity == 0 {
			// What the controllers log at -v=0 (a skipped Pod, a Warning
			// event) is printed as a warning: not twice, in klog's format.
			ctx = klog.NewContext(ctx, logr.Discard())
		}
	}
	kinds, err := builtin.InputKinds()
	if err != nil {
		return ExitFailure, err
	}
	transforms, err := o.Controllers.Transforms()
	if err != nil {
		return ExitUsage, &UsageError{Err: err}
	}
	type read struct {
		objs    []Object
		ignored []Ignored
		// defaulted are the Pod ports readFilesCompact defaulted.
		defaulted int
	}
	r, err := inputfile.WithContext(ctx, func() (read, error) {
		if o.WithInputs {
			objs, ignored, err := inputfile.ReadObjects(o.Files, o.Stdin, kinds)
			return read{objs: objs, ignored: ignored}, err
		}
		// The input Pods are not printed: keep only what the controllers
		// read of them.
		objs, ignored, defaulted, err := readFilesCompact(o.Files, o.Stdin, kinds, transforms)
		return read{objs, ignored, defaulted}, err
	})
	if err != nil {
		return inputStatus(err), err
	}
	p := printer{w: o.Stderr, command: o.command()}
	for _, ig := range r.ignored {
		p.line("%s", ig)
	}
	if len(r.objs) == 0 {
		// As check: an empty file, "---" only or an empty directory is no
		// error, but likely the wrong input.
		p.line("note: no objects read from %s: nothing to render", inputfile.DisplayNames(o.Files))
	}
	in := make([]runtime.Object, 0, len(r.objs))
	for _, obj := range r.objs {
		in = append(in, obj.Object)
	}
	for _, n := range DefaultServices(in, families) {
		p.line("note: %s", n)
	}
	if n := r.defaulted + DefaultProtocols(in); n > 0 {
		p.line("note: defaulted the protocol of %d Pod, Endpoints or EndpointSlice port(s) to TCP, as the API server does", n)
	}
	if stubs, note := StubNodes(in); len(stubs) > 0 {
		p.line("note: %s", note)
		in = append(in, stubs...)
	}
	res, err := render(ctx, in, o.Controllers, o.MaxPasses, kinds, transforms)
	if err != nil {
		return ExitFailure, err
	}
	p.result(in, res)
	if err := o.write(out, res); err != nil {
		return ExitFailure, fmt.Errorf("writing the output: %w", err)
	}
	return ExitOK, nil
}

// inputStatus is the exit status of a failed read: ExitUsage for bad
// input, ExitFailure when it was interrupted or failed otherwise.
func inputStatus(err error) int {
	if IsInputError(err) {
		return ExitUsage
	}
	return ExitFailure
}

// write prints res: with WithInputs the objects, then the EndpointSlices.
func (o *Options) write(out io.Writer, res *Result) error {
	if o.WithInputs {
		if err := WriteObjectsYAML(out, res.Objects); err != nil {
			return err
		}
	}
	return WriteYAML(out, res.EndpointSlices)
}

// command returns Command or its default.
func (o *Options) command() string {
	if o.Command == "" {
		return "slicekit render"
	}
	return o.Command
}

// printer writes the lines of Run to standard error, each prefixed with
// the command.
type printer struct {
	w       io.Writer
	command string
}

func (p printer) line(format string, args ...any) {
	if p.w != nil {
		fmt.Fprintf(p.w, "%s: %s\n", p.command, fmt.Sprintf(format, args...))
	}
}

// result prints res's warnings, its Warning events (once each) and the
// notes on what the render did not publish.
func (p printer) result(in []runtime.Object, res *Result) {
	for _, w := range res.Warnings {
		p.line("warning: %v", w)
	}
	seen := map[Event]bool{}
	for _, e := range res.Events {
		if e.Type == corev1.EventTypeWarning && !seen[e] {
			seen[e] = true
			p.line("warning: event on %s: %s: %s", e.Object, e.Reason, e.Message)
		}
	}
	for _, n := range Notes(in, res) {
		p.line("note: %s", n)
	}
}
