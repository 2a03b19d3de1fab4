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

package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/registry"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

// Exit statuses of `slicekit check`.
const (
	// ExitOK: no finding of severity error (warnings are allowed).
	ExitOK = 0
	// ExitFindings: at least one finding of severity error, or (with a
	// non-nil error from Run) a failure that is not about the input, such
	// as a failed write of the report.
	ExitFindings = 1
	// ExitUsage: invalid flags, unreadable or invalid input files, or a
	// cluster that cannot be reached or listed.
	ExitUsage = 2
)

// Options are the settings of `slicekit check`. Create them with
// NewOptions, which spells out the defaults: Validate takes the Config
// fields as given, like the command line does (an empty controller name
// or a zero limit is refused, not defaulted).
type Options struct {
	Config

	// Files are the dump files (-f); StdinName reads standard input, a
	// directory its *.yaml, *.yml and *.json files. When set, the cluster is
	// not contacted.
	Files []string
	// Kubeconfig is the kubeconfig file of the cluster to check; empty uses
	// the usual rules ($KUBECONFIG, ~/.kube/config, in-cluster).
	Kubeconfig string
	// Context is the kubeconfig context; empty uses the current one.
	Context string
	// Namespace limits the check to one namespace (-n). Without it, a
	// cluster is checked in the context's namespace and files in all
	// namespaces.
	Namespace string
	// AllNamespaces checks every namespace of the cluster (-A).
	AllNamespaces bool
	// Output is OutputText (default) or OutputJSON.
	Output string
	// ListRules prints the rules instead of checking.
	ListRules bool

	// Stdin is read for "-f -"; nil means os.Stdin.
	Stdin io.Reader
	// Stderr receives notes on the input that are not part of the report
	// (such as "no objects read from ...", and one "slicekit check: ignored
	// ..." line per input object of a kind the check does not read); nil
	// discards them.
	Stderr io.Writer
	// Command prefixes the lines written to Stderr, as in "slicekit check:
	// ignored ..." (default "slicekit check"; the kubectl plugin passes
	// "kubectl slicekit check").
	Command string
	// RESTConfig, when set, is used instead of Kubeconfig and Context (for
	// callers that already have one, and for tests). The namespace then
	// defaults to "default".
	RESTConfig *rest.Config

	// Controllers are the registrations of the controllers whose slices
	// are judged (NewOptions): the kinds they read are read too
	// (Reads.Kinds), and each Oracle is added to Config.Oracles by Run,
	// configured by the controller's own flags (AddFlags), so that
	// `slicekit check` names no controller of its own.
	Controllers []registry.Registration

	// overrides hold kubectl's other connection flags (--server, --user,
	// --as, ...), bound by AddFlags.
	overrides clientcmd.ConfigOverrides
	// controllerOptions are the options of the Controllers with an
	// Oracle, by Registration.Name (NewOptions).
	controllerOptions map[string]registry.Options
}

// NewOptions returns the default options judging the slices of
// controllers (Options.Controllers; `slicekit check` passes the built-in
// ones), each with its options' defaults (Registration.NewOptions).
func NewOptions(controllers ...registry.Registration) *Options {
	o := &Options{
		Config: Config{
			DefaultControllerName:          wellknown.EndpointSliceControllerName,
			MirroringControllerName:        wellknown.MirroringControllerName,
			MaxEndpointsPerSlice:           DefaultMaxEndpointsPerSlice,
			MirroringMaxEndpointsPerSubset: DefaultMirroringMaxEndpointsPerSubset,
		},
		Output:            OutputText,
		Controllers:       controllers,
		controllerOptions: map[string]registry.Options{},
	}
	for _, r := range controllers {
		if r.Oracle != nil && r.NewOptions != nil {
			o.controllerOptions[r.Name] = r.NewOptions()
		}
	}
	return o
}

// oracleControllers returns the Controllers with an Oracle and options,
// in order.
func (o *Options) oracleControllers() []registry.Registration {
	var out []registry.Registration
	for _, r := range o.Controllers {
		if o.controllerOptions[r.Name] != nil {
			out = append(out, r)
		}
	}
	return out
}

// oracleNames returns the managed-by values (and their flags) of the
// Controllers with an Oracle (Registration.ManagedBy).
func (o *Options) oracleNames() []registry.ManagedBy {
	var out []registry.ManagedBy
	for _, r := range o.oracleControllers() {
		if r.ManagedBy != nil {
			out = append(out, r.ManagedBy(registry.InitContext{Options: o.controllerOptions[r.Name]})...)
		}
	}
	return out
}

// AddFlags registers the flags of `slicekit check` on fs: -f/--filename,
// --kubeconfig, --context, -n/--namespace, -A/--all-namespaces,
// -o/--output, --controller-name (deprecated alias --default-controller-name), --mirroring-controller-name,
// --max-endpoints-per-slice, --mirroring-max-endpoints-per-subset,
// --secondary-network-controller-name, --slice-set-label, --list-rules, and kubectl's other
// connection flags (client-go's clientcmd.RecommendedConfigOverrideFlags,
// the ones kubectl has: --cluster, --user, -s/--server, --token, --as,
// --as-group, --as-uid, --certificate-authority, --client-certificate,
// --client-key, --insecure-skip-tls-verify, --tls-server-name, --proxy-url,
// --disable-compression, --request-timeout), so that `kubectl slicekit
// check` takes the flags kubectl users type, with kubectl's meaning.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&o.Files, "filename", "f", o.Files,
		"A YAML or JSON dump to check instead of a cluster (multi-document, List kinds allowed); '-' reads standard input, a directory its *.yaml, *.yml and *.json files. Repeatable.")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "The kubeconfig file of the cluster to check (default: $KUBECONFIG, ~/.kube/config or in-cluster).")
	fs.StringVar(&o.Context, "context", o.Context, "The kubeconfig context to use.")
	fs.StringVarP(&o.Namespace, "namespace", "n", o.Namespace, "Check this namespace only (default: the context's namespace for a cluster, all namespaces for files).")
	fs.BoolVarP(&o.AllNamespaces, "all-namespaces", "A", o.AllNamespaces, "Check every namespace of the cluster.")
	fs.StringVarP(&o.Output, "output", "o", o.Output, "Output format: text or json.")
	fs.StringVar(&o.DefaultControllerName, "controller-name", o.DefaultControllerName,
		"The managed-by value of the default EndpointSlice controller, which serves Services without the KEP-4770 label (slicekit run's and render's --controller-name).")
	// The flag's name until slicekit check took run's and render's.
	fs.StringVar(&o.DefaultControllerName, "default-controller-name", o.DefaultControllerName, "")
	_ = fs.MarkDeprecated("default-controller-name", "use --controller-name")
	fs.StringVar(&o.MirroringControllerName, "mirroring-controller-name", o.MirroringControllerName,
		"The managed-by value of the EndpointSlice mirroring controller.")
	fs.Int32Var(&o.MaxEndpointsPerSlice, "max-endpoints-per-slice", o.MaxEndpointsPerSlice,
		"The default controller's --max-endpoints-per-slice (1..1000): fuller slices of it are reported (max-endpoints-per-slice).")
	fs.Int32Var(&o.MirroringMaxEndpointsPerSubset, "mirroring-max-endpoints-per-subset", o.MirroringMaxEndpointsPerSubset,
		"The mirroring controller's --mirroring-max-endpoints-per-subset (1..1000): addresses mirrored per Endpoints subset (mirror-drift).")
	for _, r := range o.oracleControllers() {
		// The flags that shape what the controller writes, its name among
		// them (--secondary-network-controller-name, ...): its oracle
		// judges its slices (endpoint-missing).
		o.controllerOptions[r.Name].AddRenderFlags(fs)
	}
	fs.StringToStringVar(&o.SliceSetLabels, "slice-set-label", o.SliceSetLabels,
		"CONTROLLER=LABEL: the controller whose managed-by value is CONTROLLER publishes several slice sets under one Service, told apart by the label key LABEL (a reconciler library Config.SetLabel); each set is judged on its own by the rules over a Service's slices (duplicate-endpoint, multiple-managers). Repeatable, or comma-separated.")
	fs.BoolVar(&o.ListRules, "list-rules", o.ListRules, "Print the rules with their severities and exit (-o json: {\"rules\": [...]}).")

	names := clientcmd.RecommendedConfigOverrideFlags("")
	// Bound above to Options' fields.
	names.CurrentContext.LongName = ""
	names.ContextOverrideFlags.Namespace.LongName = ""
	// kubectl no longer offers basic authentication flags.
	names.AuthOverrideFlags.Username.LongName = ""
	names.AuthOverrideFlags.Password.LongName = ""
	names.ClusterOverrideFlags.APIServer.ShortName = "s" // as kubectl
	clientcmd.BindOverrideFlags(&o.overrides, fs, names)
}

// connectionFlags returns the kubectl connection flags given besides
// --kubeconfig and --context, which Validate checks by field.
func (o *Options) connectionFlags() []string {
	var set []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--cluster", o.overrides.Context.Cluster != ""},
		{"--user", o.overrides.Context.AuthInfo != ""},
		{"--server", o.overrides.ClusterInfo.Server != ""},
		{"--token", o.overrides.AuthInfo.Token != ""},
		{"--as", o.overrides.AuthInfo.Impersonate != ""},
	} {
		if f.set {
			set = append(set, f.name)
		}
	}
	return set
}

// inputFlags returns the flags given that choose what to check (-f,
// --kubeconfig, --context, -n, -A and the other connection flags).
func (o *Options) inputFlags() []string {
	var set []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"-f", len(o.Files) > 0},
		{"--kubeconfig", o.Kubeconfig != ""},
		{"--context", o.Context != ""},
		{"--namespace", o.Namespace != ""},
		{"--all-namespaces", o.AllNamespaces},
	} {
		if f.set {
			set = append(set, f.name)
		}
	}
	return append(set, o.connectionFlags()...)
}

// UsageError is an invalid option or combination of options (exit status
// 2).
type UsageError struct {
	// Err says what is wrong (errors joined, one per line).
	Err error
}

// Error returns the message of Err.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *UsageError) Unwrap() error { return e.Err }

// Validate checks the options; the error is a *UsageError.
func (o *Options) Validate() error {
	var errs []error
	switch o.Output {
	case "", OutputText, OutputJSON:
	default:
		errs = append(errs, fmt.Errorf("--output %q is not one of text, json", o.Output))
	}
	if len(o.Files) > 0 && (o.Kubeconfig != "" || o.Context != "") {
		errs = append(errs, errors.New("-f cannot be combined with --kubeconfig or --context: check either a dump or a cluster"))
	}
	if set := o.connectionFlags(); len(o.Files) > 0 && len(set) > 0 {
		errs = append(errs, fmt.Errorf("-f cannot be combined with %s: check either a dump or a cluster", strings.Join(set, ", ")))
	}
	if o.Namespace != "" && o.AllNamespaces {
		errs = append(errs, errors.New("--namespace and --all-namespaces are mutually exclusive"))
	}
	if o.Namespace != "" {
		// The API server's rule for a Namespace's name: a typo such as an
		// upper-case letter is no namespace anyone could have.
		if msgs := apivalidation.ValidateNamespaceName(o.Namespace, false); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("--namespace %q is not a valid namespace name: %s", o.Namespace, strings.Join(msgs, "; ")))
		}
	}
	for _, f := range o.Files {
		if f == "" {
			errs = append(errs, errors.New("-f needs a file name"))
		}
	}
	if given := o.inputFlags(); o.ListRules && len(given) > 0 {
		errs = append(errs, fmt.Errorf("--list-rules prints the rules and checks nothing: it cannot be combined with %s", strings.Join(given, ", ")))
	}
	if t := o.overrides.Timeout; t != "" {
		// client-go parses it only when it builds the client, and its
		// error would read as the kubeconfig's.
		switch d, err := clientcmd.ParseTimeout(t); {
		case err != nil:
			errs = append(errs, fmt.Errorf("--request-timeout %q is not a timeout: give whole seconds or a number with a unit (1s, 2m, 3h)", t))
		case d < 0:
			// client-go takes a negative timeout as none at all.
			errs = append(errs, fmt.Errorf("--request-timeout %q is negative: give 0 for no timeout", t))
		}
	}
	// The flags' values as given: "" and 0 are invalid here, not defaults.
	var oracleErrs []error
	for _, r := range o.oracleControllers() {
		if err := o.controllerOptions[r.Name].Validate(true); err != nil {
			oracleErrs = append(oracleErrs, err)
		}
	}
	if err := o.validate(o.oracleNames(), oracleErrs); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}

// Run runs `slicekit check` with o and writes the report to out. It
// returns the exit status and, when the check could not be made, an error
// for the caller to print (the report is then not written):
//
//   - ExitOK, nil: no finding of severity error;
//   - ExitFindings, nil: at least one error finding (in the report);
//   - ExitUsage, err: invalid options (*UsageError) or input (*InputError:
//     unreadable or invalid file, unreachable or unlistable cluster);
//   - ExitFindings, err: the report could not be written.
//
// ctx supplies the logger (klog.FromContext) and cancels cluster calls.
//
// With -o json (o.Output OutputJSON), a check that could not be made also
// writes {"error": "...", "exitStatus": N} to out (WriteJSONError), so that
// a JSON consumer reading out sees the failure; the error is returned as
// well, for the caller to print on standard error.
func Run(ctx context.Context, o Options, out io.Writer) (int, error) {
	code, err := run(ctx, o, out)
	if err != nil && o.Output == OutputJSON {
		if werr := WriteJSONError(out, code, err); werr != nil {
			return code, errors.Join(err, fmt.Errorf("writing the JSON error: %w", werr))
		}
	}
	return code, err
}

func run(ctx context.Context, o Options, out io.Writer) (int, error) {
	if err := o.Validate(); err != nil {
		return ExitUsage, err
	}
	if o.ListRules {
		write := WriteRules
		if o.Output == OutputJSON {
			write = WriteRulesJSON
		}
		if err := write(out); err != nil {
			return ExitFindings, err
		}
		return ExitOK, nil
	}
	logger := klog.FromContext(ctx)
	kinds, err := registry.InputKinds(o.Controllers)
	if err != nil {
		return ExitUsage, &UsageError{Err: err}
	}
	o.Oracles = append(o.Oracles, registry.Oracles(o.oracleControllers(), o.controllerOptions)...)
	var (
		inv    *Inventory
		source string
		notes  []string
		// admission: live clusters only (AdmissionFindings, APIFindings).
		admission []Finding
	)
	if len(o.Files) > 0 {
		type read struct {
			objs    []runtime.Object
			ignored []Ignored
		}
		r, err := inputfile.WithContext(ctx, func() (read, error) {
			objs, ignored, err := ReadFiles(o.Files, o.Stdin, kinds)
			return read{objs, ignored}, err
		})
		if ctx.Err() != nil {
			return ExitFindings, err // interrupted, not bad input
		}
		if err != nil {
			return ExitUsage, err
		}
		if o.Stderr != nil {
			for _, ig := range r.ignored {
				fmt.Fprintf(o.Stderr, "%s: %s\n", o.command(), ig)
			}
		}
		if len(r.objs) == 0 {
			// An empty file, one of only "---", or an empty directory: not
			// an input error (an empty cluster dump is a valid state), but
			// the user likely gave the wrong file.
			notes = append(notes, fmt.Sprintf("no objects read from %s: nothing to check", inputfile.DisplayNames(o.Files)))
		}
		if err := namespaceInInput(r.objs, o.Namespace); err != nil {
			return ExitUsage, &InputError{File: inputfile.DisplayNames(o.Files), Err: err}
		}
		inv = NewInventory(r.objs).InNamespace(o.Namespace)
		inv.Ignored += len(r.ignored)
		source = inputfile.DisplayNames(o.Files)
		if o.Namespace != "" {
			source += " (namespace " + o.Namespace + ")"
		}
	} else {
		cfg, ns, err := o.cluster()
		if err != nil {
			return ExitUsage, err
		}
		cfg = rest.CopyConfig(cfg)
		// Listing v1 Endpoints draws a deprecation warning on every call.
		cfg.WarningHandler = rest.NoWarnings{}
		client, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return ExitUsage, &InputError{File: "kubeconfig", Err: err}
		}
		logger.V(2).Info("Checking a cluster", "host", cfg.Host, "namespace", ns)
		if inv, err = LoadCluster(ctx, client, ns, kinds); err != nil {
			return ExitUsage, err
		}
		admission = AdmissionFindings(ctx, client, inv, o.Config)
		admission = append(admission, APIFindings(client.Discovery(), inv, o.Controllers, o.controllerOptions)...)
		where := "all namespaces"
		if ns != "" {
			where = "namespace " + ns
		}
		source = fmt.Sprintf("cluster %s (%s)", cfg.Host, where)
	}

	if o.Stderr != nil {
		for _, n := range notes {
			fmt.Fprintf(o.Stderr, "%s: note: %s\n", o.command(), n)
		}
	}
	rep := Check(ctx, inv, o.Config)
	if len(admission) > 0 {
		rep.Findings = sortFindings(append(rep.Findings, admission...))
	}
	if o.Output == OutputJSON {
		err = WriteJSON(out, rep, source, inv.Ignored, notes...)
	} else {
		err = WriteText(out, rep, source, inv.Ignored)
	}
	if err != nil {
		return ExitFindings, fmt.Errorf("writing the report: %w", err)
	}
	return rep.ExitCode(), nil
}

// cluster returns the REST config and the namespace to list ("" for all).
func (o *Options) cluster() (*rest.Config, string, error) {
	ns := o.Namespace
	if o.RESTConfig != nil {
		if ns == "" && !o.AllNamespaces {
			ns = "default"
		}
		return o.RESTConfig, ns, nil
	}
	// kubectl's loading rules and precedence: flags over the context over
	// the kubeconfig file ($KUBECONFIG, ~/.kube/config) over in-cluster.
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = o.Kubeconfig
	overrides := o.overrides
	overrides.CurrentContext = o.Context
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &overrides)
	cfg, err := cc.ClientConfig()
	if clientcmd.IsEmptyConfig(err) {
		// client-go's own message suggests the long-gone KUBERNETES_MASTER,
		// and kubectl's loading rules skip $KUBECONFIG files that do not
		// exist without a word: name them.
		why := "no kubeconfig found"
		if missing := missingKubeconfigFiles(rules); len(missing) > 0 {
			verb := "does"
			if len(missing) > 1 {
				verb = "do"
			}
			why += fmt.Sprintf(" ($KUBECONFIG names %s, which %s not exist)", strings.Join(missing, ", "), verb)
		}
		return nil, "", &InputError{File: "kubeconfig", Err: errors.New(why + ": give --kubeconfig FILE, set $KUBECONFIG or create ~/.kube/config (for `make up`: --kubeconfig .local/kubeconfig), or check files with -f FILE")}
	}
	if err != nil {
		return nil, "", &InputError{File: "kubeconfig", Err: err}
	}
	if ns == "" && !o.AllNamespaces {
		if ns, _, err = cc.Namespace(); err != nil {
			return nil, "", &InputError{File: "kubeconfig", Err: err}
		}
	}
	return cfg, ns, nil
}

// missingKubeconfigFiles returns the files of rules' $KUBECONFIG list
// (rules.Precedence, used when no --kubeconfig is given) that do not exist.
func missingKubeconfigFiles(rules *clientcmd.ClientConfigLoadingRules) []string {
	if rules.ExplicitPath != "" || os.Getenv(clientcmd.RecommendedConfigPathEnvVar) == "" {
		return nil
	}
	var missing []string
	for _, f := range rules.Precedence {
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, f)
		}
	}
	return missing
}

// WriteRules writes the rule table (ID, SEVERITY, SUMMARY).
func WriteRules(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tSUMMARY")
	for _, r := range Rules() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Summary)
	}
	return tw.Flush()
}

// WriteRulesJSON writes the rules as one indented JSON document
// {"rules": [{"id", "severity", "summary", "source"}, ...]}.
func WriteRulesJSON(w io.Writer) error {
	return writeJSONDocument(w, struct {
		Rules []Rule `json:"rules"`
	}{Rules()})
}

// ExitError is returned by the command of NewCommand when the exit status
// is not 0; Err is nil when the status only reports error findings.
type ExitError struct {
	// Code is the exit status (ExitFindings or ExitUsage).
	Code int
	// Err is the error to print, nil when the report says it all.
	Err error
}

// Error returns the message of Err, or says that errors were found.
func (e *ExitError) Error() string {
	if e.Err == nil {
		return "the check found errors"
	}
	return e.Err.Error()
}

// Unwrap returns Err.
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode returns the exit status.
func (e *ExitError) ExitCode() int { return e.Code }

// Long is the help text of `slicekit check`.
const Long = `Check EndpointSlices against the EndpointSlice contract, for any controller:
metadata (kubernetes.io/service-name, managed-by, ownerReferences), KEP-4770
delegation (service.kubernetes.io/endpoint-controller-name), mirroring, API
limits, address types, duplicates, and, for slices derived from a Service's
selector, every endpoint against its Pod (selected, not ended, conditions,
nodeName, zone, hostname, ports).

The objects come from a cluster (--kubeconfig, --context; -n NAMESPACE or
--all-namespaces) or from dumps (-f FILE, repeatable: multi-document YAML or
JSON, List kinds allowed, decoded strictly and validated as the API server
would, each invalid object reported with file, document and field; objects of
other kinds are listed as ignored on standard error; an object given twice
must be identical). 'slicekit render --with-inputs' prints a complete state
for -f.
A Service without any slice although its controller publishes ready endpoints
for it is a warning (slices-missing); otherwise the check judges the slices
that exist.
--list-rules prints the rules.

The summary and the exit status count every finding; the text output lists at
most 5 findings per rule and object and a note with the number of the others
(-o json lists them all). With -o json, a check that cannot be made still
writes a JSON document, {"error": ..., "exitStatus": 2}. An input without any
object draws a note on standard error.

Exit status: 0 no errors (warnings allowed), 1 at least one error finding,
2 invalid flags or input (unreadable or invalid file, no kubeconfig,
unreachable cluster).`

// command returns Command or its default.
func (o *Options) command() string {
	if o.Command == "" {
		return "slicekit check"
	}
	return o.Command
}

// NewCommand returns a ready `check` command bound to a fresh Options. Its
// RunE returns nil for exit status 0 and an *ExitError carrying the status
// otherwise (Err nil when only findings caused it, since the report is
// already written). Callers with their own exit-code mapping can instead
// call Run from their own command with Options.AddFlags.
func NewCommand() *cobra.Command {
	o := NewOptions()
	cmd := &cobra.Command{
		Use:   "check [-f FILE]... [--kubeconfig FILE] [-n NAMESPACE | -A] [-o text|json]",
		Short: "Check EndpointSlices against the EndpointSlice contract",
		Long:  Long,
		Example: `  slicekit check -A
  slicekit check -n shop -o json
  kubectl get svc,pods,nodes,endpoints,endpointslices -A -o yaml | slicekit check -f -`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Stdin = cmd.InOrStdin()
			o.Stderr = cmd.ErrOrStderr()
			o.Command = cmd.CommandPath()
			code, err := Run(cmd.Context(), *o, cmd.OutOrStdout())
			if code == ExitOK && err == nil {
				return nil
			}
			return &ExitError{Code: code, Err: err}
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
