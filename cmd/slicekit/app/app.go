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
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slicekit/slicekit/internal/inputfile"
	"github.com/slicekit/slicekit/pkg/manager"
)

// Exit codes of the slicekit command.
const (
	// ExitOK: success.
	ExitOK = 0
	// ExitFailure: the command failed at run time.
	ExitFailure = 1
	// ExitUsage: invalid command line, flags or input, or (slicekit run)
	// a permission the permission preflight found missing.
	ExitUsage = 2
)

// Streams are the standard streams of a command.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// UsageError is a command line error: an unknown command or flag, a bad
// flag value or argument, an invalid option. It maps to ExitUsage.
type UsageError struct {
	// Command is the command path, e.g. "slicekit run".
	Command string
	Err     error
}

// Error implements error.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *UsageError) Unwrap() error { return e.Err }

// usageErrorf returns a *UsageError for cmd.
func usageErrorf(cmd *cobra.Command, format string, args ...any) error {
	return &UsageError{Command: cmd.CommandPath(), Err: fmt.Errorf(format, args...)}
}

// usageError wraps err (nil stays nil).
func usageError(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	return &UsageError{Command: cmd.CommandPath(), Err: err}
}

// ExitError carries an explicit exit code and message.
type ExitError struct {
	Code int
	Err  error
}

// Error implements error.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *ExitError) Unwrap() error { return e.Err }

// Main runs the slicekit command line with args (without the program
// name) and returns the exit status, after printing any error to s.Err as
// "slicekit <command>: <what>: <why>".
func Main(ctx context.Context, args []string, s Streams) int {
	root := NewRootCommand(s)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	path := root.CommandPath()
	if cmd != nil {
		path = cmd.CommandPath()
	}
	return exitCode(path, err, s.Err)
}

// ExitCode prints err (nil: nothing) to stderr and returns the exit status,
// as Main does for the root command; see exitCode.
func ExitCode(err error, stderr io.Writer) int { return exitCode("slicekit", err, stderr) }

// exitCode prints err to stderr as "<command>: <what>: <why>" and returns
// the exit status: ExitError's code; ExitUsage for usage errors (followed
// by a hint to --help), invalid input (one line per problem) and a Lease
// that leader election can never take; ExitFailure otherwise.
func exitCode(command string, err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var (
		ee *ExitError
		ue *UsageError
		le *manager.LeaseError
		ie *inputfile.InputError
	)
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "%s: %v\n", ue.Command, oneErrorPerLine(ue.Err))
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", ue.Command)
		return ExitUsage
	case errors.As(err, &ie) && (ie.File == "kubeconfig" || ie.File == "cluster"):
		fmt.Fprintf(stderr, "%s: %v\n", command, ie)
		return ExitUsage
	case ie != nil:
		fmt.Fprintln(stderr, strings.Replace(fmt.Sprintf("%s: invalid input: %v", command, oneErrorPerLine(err)), ": \n", ":\n", 1))
		return ExitUsage
	case errors.As(err, &le):
		fmt.Fprintf(stderr, "%s: leader election: %v\n", command, le)
		return ExitUsage
	case errors.As(err, &ee):
		if ee.Err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", command, ee.Err)
		}
		return ee.Code
	default:
		fmt.Fprintf(stderr, "%s: %v\n", command, err)
		return ExitFailure
	}
}

// oneErrorPerLine formats a joined error with one error per indented line.
func oneErrorPerLine(err error) string {
	msg := err.Error()
	if !strings.Contains(msg, "\n") {
		return msg
	}
	return "\n  " + strings.ReplaceAll(msg, "\n", "\n  ")
}

// NewRootCommand returns the slicekit command and its subcommands.
func NewRootCommand(s Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "slicekit",
		Short: "EndpointSlice controllers that honour KEP-4770, out of tree",
		Long: `slicekit runs drop-in replacements for kube-controller-manager's EndpointSlice
controllers that honour the KEP-4770 Service label
service.kubernetes.io/endpoint-controller-name, and renders their output offline.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Args turns an unknown subcommand into a usage error.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q", args[0])
			if sugg := cmd.SuggestionsFor(args[0]); len(sugg) > 0 {
				msg += fmt.Sprintf("; did you mean %q?", sugg[0])
			}
			return usageErrorf(cmd, "%s", msg)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SetOut(s.Err)
			_ = cmd.Help()
			return usageErrorf(cmd, "a command is required")
		},
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError(cmd, err)
	})
	root.SuggestionsMinimumDistance = 2
	root.CompletionOptions.HiddenDefaultCmd = true
	root.AddCommand(
		newRunCommand(s),
		newRenderCommand(s),
		newCheckCommand(s),
		newVersionCommand(s),
	)
	return root
}

// noArgs rejects positional arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf(cmd, "unexpected arguments %q", args)
	}
	return nil
}

// batchGCPercent is the garbage collector's target growth, in percent of
// the live heap, for the batch commands render and check: they allocate
// much while decoding and hold little of it (the input is streamed, and
// render keeps a compact record per Pod), so Go's default of 100 makes the
// collector run often on a small heap. `slicekit render` of 100,000
// Deployment-sized Pods as JSON: 29.7 CPU-s and 1.17 GB at 300, 42.5 CPU-s
// and 0.72 GB at 100 (the budget is 1.5 GiB).
const batchGCPercent = 300

// tuneBatchGC sets the garbage collector's target to batchGCPercent for a
// batch command, unless GOGC is set in the environment (the operator's
// choice wins).
func tuneBatchGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(batchGCPercent)
	}
}
