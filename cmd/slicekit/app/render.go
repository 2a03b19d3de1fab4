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

package app

import (
	"fmt"
	"strings"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
	"github.com/slicekit/slicekit/pkg/render"
)

// newRenderCommand returns `slicekit render`.
func newRenderCommand(s Streams) *cobra.Command {
	copts := builtin.NewControllerOptions()
	logs := logsapi.NewLoggingConfiguration()
	var (
		files      []string
		maxPasses  int
		withInputs bool
		ipFamilies string
	)
	cmd := &cobra.Command{
		Use:   "render -f FILE...",
		Short: "Run the controllers offline on YAML and print the resulting EndpointSlices",
		Long: `Read Services, Pods (with status), Nodes, Endpoints, EndpointSlices and Namespaces
(and ResourceClaims, which the dra-network controller reads) from YAML or JSON files (-f, repeatable; '-f -' reads standard input), validate
them as the API server would (each invalid object is reported with file,
document and field), apply the API server's Service defaulting (type, cluster
IPs, IP families and policy, port protocol and targetPort; one note per
defaulted Service on standard error), run the enabled controllers on them in
memory until nothing changes, and print every EndpointSlice that exists
afterwards, foreign ones included, as multi-document YAML sorted by namespace
and name. The output is valid input for the next render; with --with-inputs
the input objects come first, a complete state for 'slicekit check -f -'.
Objects of other kinds are listed as ignored on standard error. The
controllers are the same code 'slicekit run' runs.

Exit status: 0 success, 1 no fixed point or internal error, 2 invalid flags or
input (the error names the file and document).`,
		Example: `  slicekit render -f examples/
  slicekit render --with-inputs -f examples/ | slicekit check -f -
  cat cluster.yaml | slicekit render -f - --controller-name my-ctrl.example.com`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(files) == 0 {
				return usageErrorf(cmd, "at least one -f FILE is required")
			}
			tuneBatchGC()
			if maxPasses < 1 {
				return usageErrorf(cmd, "--max-passes=%d must be at least 1", maxPasses)
			}
			if err := copts.Validate(); err != nil {
				return usageError(cmd, err)
			}
			if err := logsapi.ValidateAndApply(logs, copts.FeatureGates); err != nil {
				return usageError(cmd, err)
			}
			defer klog.Flush()
			families, err := render.ParseIPFamilies(ipFamilies)
			if err != nil {
				return usageErrorf(cmd, "--service-ip-families %q: %v", ipFamilies, err)
			}
			type read struct {
				objs    []render.Object
				ignored []render.Ignored
				// defaulted are the Pod ports ReadFilesCompact defaulted.
				defaulted int
			}
			r, err := inputfile.WithContext(cmd.Context(), func() (read, error) {
				if withInputs {
					objs, ignored, err := render.ReadFiles(files, s.In)
					return read{objs: objs, ignored: ignored}, err
				}
				// The input Pods are not printed: keep only what the
				// controllers read of them.
				objs, ignored, defaulted, err := render.ReadFilesCompact(files, s.In, copts)
				return read{objs, ignored, defaulted}, err
			})
			if err != nil {
				return err
			}
			for _, ig := range r.ignored {
				fmt.Fprintf(s.Err, "%s: %s\n", cmd.CommandPath(), ig)
			}
			if len(r.objs) == 0 {
				// As check: an empty file, "---" only or an empty
				// directory is no error, but likely the wrong input.
				fmt.Fprintf(s.Err, "%s: note: no objects read from %s: nothing to render\n", cmd.CommandPath(), strings.Join(files, ", "))
			}
			in := make([]runtime.Object, 0, len(r.objs))
			for _, o := range r.objs {
				in = append(in, o.Object)
			}
			for _, n := range render.DefaultServices(in, families) {
				fmt.Fprintf(s.Err, "%s: note: %s\n", cmd.CommandPath(), n)
			}
			if n := r.defaulted + render.DefaultProtocols(in); n > 0 {
				fmt.Fprintf(s.Err, "%s: note: defaulted the protocol of %d Pod, Endpoints or EndpointSlice port(s) to TCP, as the API server does\n", cmd.CommandPath(), n)
			}
			if stubs, note := render.StubNodes(in); len(stubs) > 0 {
				fmt.Fprintf(s.Err, "%s: note: %s\n", cmd.CommandPath(), note)
				in = append(in, stubs...)
			}
			ctx := cmd.Context()
			if logs.Verbosity == 0 {
				// What the controllers log at -v=0 (a skipped Pod, a
				// Warning event) is printed below as a warning: do not
				// print it twice, in klog's format.
				ctx = klog.NewContext(ctx, logr.Discard())
			}
			res, err := render.Render(ctx, in, render.Options{Controllers: copts, MaxPasses: maxPasses})
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				fmt.Fprintf(s.Err, "%s: warning: %v\n", cmd.CommandPath(), w)
			}
			seen := map[render.Event]bool{}
			for _, e := range res.Events {
				if e.Type == corev1.EventTypeWarning && !seen[e] {
					seen[e] = true
					fmt.Fprintf(s.Err, "%s: warning: event on %s: %s: %s\n", cmd.CommandPath(), e.Object, e.Reason, e.Message)
				}
			}
			for _, n := range render.Notes(in, res) {
				fmt.Fprintf(s.Err, "%s: note: %s\n", cmd.CommandPath(), n)
			}
			if withInputs {
				if err := render.WriteObjectsYAML(s.Out, res.Objects); err != nil {
					return err
				}
			}
			return render.WriteYAML(s.Out, res.EndpointSlices)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVarP(&files, "filename", "f", nil, "A YAML or JSON file of input objects, or a directory of them (its *.yaml, *.yml and *.json files in name order); '-' reads standard input. Repeatable.")
	fs.IntVar(&maxPasses, "max-passes", render.DefaultMaxPasses, "The most passes over all objects before giving up without a fixed point.")
	fs.BoolVar(&withInputs, "with-inputs", false, "Print the input objects (Namespaces, Nodes, Services as defaulted, Pods, Endpoints, ResourceClaims) before the EndpointSlices: a complete state that 'slicekit check -f' accepts.")
	fs.StringVar(&ipFamilies, "service-ip-families", "IPv4", "The cluster's service IP families, primary first (IPv4, IPv6, IPv4,IPv6 or IPv6,IPv4): the ipFamilies of Services that give neither ipFamilies nor a clusterIP.")
	copts.AddRenderFlags(fs)
	logsapi.AddFlags(logs, fs)
	return cmd
}
