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
	"errors"

	"github.com/spf13/cobra"

	"github.com/slicekit/slicekit/pkg/render"
)

// newRenderCommand returns `slicekit render`: render.Run on the
// controllers' options. Exit codes: 0 success, 1 no fixed point or
// internal error, 2 usage or input errors.
func newRenderCommand(s Streams) *cobra.Command {
	o := render.NewOptions()
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
			tuneBatchGC()
			o.Stdin = s.In
			o.Stderr = s.Err
			o.Command = cmd.CommandPath()
			code, err := render.Run(cmd.Context(), *o, s.Out)
			var ue *render.UsageError
			switch {
			case errors.As(err, &ue):
				return usageError(cmd, err)
			case err != nil && code == render.ExitUsage:
				return err // an *InputError: exitCode prints it
			case err != nil:
				return &ExitError{Code: code, Err: err}
			}
			return nil
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
