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

package manager

import (
	"context"
	"errors"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// LeaseProblem says why the leader election Lease cannot be used.
type LeaseProblem string

const (
	// LeaseNamespaceMissing: the Lease's namespace does not exist.
	LeaseNamespaceMissing LeaseProblem = "NamespaceMissing"
	// LeaseNamespaceTerminating: the Lease's namespace is being deleted.
	LeaseNamespaceTerminating LeaseProblem = "NamespaceTerminating"
	// LeaseForbidden: the credentials may not create the Lease.
	LeaseForbidden LeaseProblem = "Forbidden"
)

// LeaseError is returned by Run when leader election can never succeed:
// the Lease's namespace does not exist (or is being deleted), or the
// credentials may neither create the Lease nor read an existing one.
// client-go's elector would retry such a Lease forever while the replica
// never leads; `slicekit run` exits with status 2 instead, naming the
// namespace and the ways out.
type LeaseError struct {
	// Namespace and Name locate the Lease.
	Namespace, Name string
	// Problem classifies the cause.
	Problem LeaseProblem
	// Err is the API server's answer.
	Err error
}

// Error names the Lease, the problem and the three ways out.
func (e *LeaseError) Error() string {
	var what, fix string
	switch e.Problem {
	case LeaseNamespaceMissing:
		what = fmt.Sprintf("namespace %q does not exist", e.Namespace)
		fix = fmt.Sprintf("create it (kubectl create namespace %s)", e.Namespace)
	case LeaseNamespaceTerminating:
		what = fmt.Sprintf("namespace %q is being deleted", e.Namespace)
		fix = fmt.Sprintf("re-create it once deleted (kubectl create namespace %s)", e.Namespace)
	default:
		what = fmt.Sprintf("these credentials may not create Leases in namespace %q (%v)", e.Namespace, e.Err)
		fix = fmt.Sprintf("grant get, create and update on leases.coordination.k8s.io in namespace %s (config/rbac/leader_election_role.yaml)", e.Namespace)
	}
	return fmt.Sprintf("cannot use the Lease %s/%s: %s; either %s, or choose an existing namespace with --leader-elect-resource-namespace, or run a single replica with --leader-elect=false",
		e.Namespace, e.Name, what, fix)
}

// Unwrap returns the API server's answer.
func (e *LeaseError) Unwrap() error { return e.Err }

// checkLease tells whether the Lease namespace/name can be used for leader
// election. It creates the Lease with dryRun=All, which goes through
// authorization and admission (the NamespaceLifecycle plugin answers
// NotFound for a missing namespace) but writes nothing. It returns nil when
// the Lease can be created or already exists, a *LeaseError when it never
// can (namespace missing or terminating, create forbidden and the Lease not
// readable), and any other error (API server unreachable, timeout) as is:
// the caller retries those.
func checkLease(ctx context.Context, client kubernetes.Interface, namespace, name string) error {
	lease := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	_, err := client.CoordinationV1().Leases(namespace).Create(ctx, lease, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	switch {
	case err == nil, apierrors.IsAlreadyExists(err):
		return nil
	case apierrors.IsNotFound(err):
		return &LeaseError{Namespace: namespace, Name: name, Problem: LeaseNamespaceMissing, Err: err}
	case apierrors.IsForbidden(err) && apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		return &LeaseError{Namespace: namespace, Name: name, Problem: LeaseNamespaceTerminating, Err: err}
	case apierrors.IsForbidden(err):
		// An existing Lease that these credentials can read may be
		// renewable without create permission (for example one made by
		// an administrator); the elector's own errors tell the rest.
		if _, getErr := client.CoordinationV1().Leases(namespace).Get(ctx, name, metav1.GetOptions{}); getErr == nil {
			return nil
		}
		return &LeaseError{Namespace: namespace, Name: name, Problem: LeaseForbidden, Err: err}
	default:
		return err
	}
}

// waitLeaseUsable calls checkLease every retry period until it returns
// nil or a *LeaseError, logging the other errors (an API server that
// cannot be reached yet). It returns ctx's error when ctx ends first.
func waitLeaseUsable(ctx context.Context, client kubernetes.Interface, namespace, name string, retry time.Duration) error {
	logger := klog.FromContext(ctx)
	for {
		err := checkLease(ctx, client, namespace, name)
		var le *LeaseError
		if err == nil || errors.As(err, &le) {
			return err
		}
		logger.Info("Cannot check the leader election Lease yet, retrying", "lease", klog.KRef(namespace, name), "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retry):
		}
	}
}
