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

	"github.com/slicekit/slicekit/pkg/check"
	"github.com/slicekit/slicekit/pkg/controllers/builtin"
)

// newCheckCommand returns slicekit check: the EndpointSlice checker of
// pkg/check against a live cluster or a dump. Exit codes: 0 no error
// finding (warnings allowed), 1 error findings, 2 usage or input errors.
func newCheckCommand(s Streams) *cobra.Command {
	o := check.NewOptions(builtin.Registrations()...)
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check EndpointSlices against the EndpointSlice contract, for any controller",
		Long:  check.Long,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tuneBatchGC()
			o.Stdin = s.In
			o.Stderr = s.Err
			o.Command = cmd.CommandPath()
			code, err := check.Run(cmd.Context(), *o, s.Out)
			var ue *check.UsageError
			switch {
			case errors.As(err, &ue):
				return usageError(cmd, err)
			case err != nil:
				return &ExitError{Code: code, Err: err}
			case code != 0:
				return &ExitError{Code: code, Err: errors.New("found errors")}
			}
			return nil
		},
	}
	o.AddFlags(cmd.Flags())
	// pflag's notes (a deprecated flag) go to standard error, not among
	// the report on standard output, where cobra would print them.
	cmd.Flags().SetOutput(s.Err)
	return cmd
}
