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
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/slicekit/slicekit/pkg/manager"
)

// newVersionCommand returns `slicekit version`.
func newVersionCommand(s Streams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version and build information",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bi := manager.ReadBuildInfo()
			switch output {
			case "json":
				b, err := json.MarshalIndent(bi, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintln(s.Out, string(b))
			case "", "text":
				fmt.Fprintf(s.Out, "slicekit %s\n", bi.Version)
				fmt.Fprintf(s.Out, "  module:   %s\n", bi.Module)
				rev := bi.Revision
				if rev == "" {
					rev = "unknown (built without VCS information)"
				} else if bi.Modified {
					rev += " (modified)"
				}
				fmt.Fprintf(s.Out, "  revision: %s\n", rev)
				if bi.Time != "" {
					fmt.Fprintf(s.Out, "  time:     %s\n", bi.Time)
				}
				fmt.Fprintf(s.Out, "  go:       %s %s\n", bi.GoVersion, bi.Platform)
			default:
				return usageErrorf(cmd, "--output must be text or json, not %q", output)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "Output format: text or json.")
	return cmd
}
