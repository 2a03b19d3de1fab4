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
	"fmt"

	"github.com/spf13/cobra"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	"github.com/slicekit/slicekit/pkg/manager"
	"github.com/slicekit/slicekit/pkg/preflight"
)

// newRunCommand returns `slicekit run`.
func newRunCommand(_ Streams) *cobra.Command {
	o := manager.NewOptions()
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the controller manager against a cluster",
		Long: `Run the enabled controllers (default: every controller enabled by default: the
EndpointSlice and EndpointSlice mirroring controllers) against the cluster of --kubeconfig, or the
in-cluster configuration, with leader election, /metrics, /healthz and /readyz.
Flags follow kube-controller-manager's names and defaults where it has them.
SIGTERM or SIGINT stops it gracefully.

At start-up it asks the API server (SelfSubjectAccessReview) for every permission
the enabled controllers and leader election need; a missing one stops the start
with exit status 2 and names the rule to add (--preflight=fail, the default),
or is logged at error level while /readyz fails (--preflight=warn).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := completeRunOptions(o); err != nil {
				return usageError(cmd, err)
			}
			defer klog.Flush()
			ctx := cmd.Context()
			logger := klog.FromContext(ctx)
			bi := manager.ReadBuildInfo()
			logger.Info("Starting slicekit", "version", bi.Version, "revision", bi.Revision, "modified", bi.Modified,
				"goVersion", bi.GoVersion, "platform", bi.Platform)
			m, err := manager.New(ctx, o)
			if cfgErr := (*manager.ClientConfigError)(nil); errors.As(err, &cfgErr) {
				// Exit status 2: no usable kubeconfig is a configuration error.
				return &ExitError{Code: ExitUsage, Err: err}
			}
			if err != nil {
				return fmt.Errorf("starting the manager: %w", err)
			}
			// Once the configuration holds: a start that fails says why
			// without a page of flags before it.
			manager.LogFlags(logger, cmd.Flags())
			err = m.Run(ctx)
			if preflight.IsMissingPermissions(err) {
				// Exit status 2: a configuration error, in the RBAC rules.
				return &ExitError{Code: ExitUsage, Err: err}
			}
			return err
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// completeRunOptions completes and validates o and applies its logging
// configuration; the error is a usage error.
func completeRunOptions(o *manager.Options) error {
	if err := o.Complete(); err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return err
	}
	return logsapi.ValidateAndApply(o.Logs, o.FeatureGates)
}
