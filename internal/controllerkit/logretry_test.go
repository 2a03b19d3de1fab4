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

package controllerkit

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestLogRetry(t *testing.T) {
	endpoints := schema.GroupResource{Resource: "endpoints"}
	forbidden := apierrors.NewForbidden(endpoints, "web", errors.New(`User "system:serviceaccount:slicekit-system:slicekit" cannot create resource "endpoints"`))
	terminating := apierrors.NewForbidden(endpoints, "web", errors.New("namespace is being terminated"))
	terminating.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: corev1.NamespaceTerminatingCause}}
	for _, tc := range []struct {
		name      string
		err       error
		verbosity int // of the logger
		want      string
	}{
		{name: "forbidden at error level at once", err: forbidden, want: `"msg"="Error syncing, retrying" "error"="endpoints \"web\" is forbidden`},
		{name: "wrapped and joined forbidden", err: fmt.Errorf("creating: %w", errors.Join(errors.New("x"), forbidden)), want: `"msg"="Error syncing, retrying" "error"=`},
		{name: "other error hidden below verbosity 2", err: errors.New("conflict"), verbosity: 1, want: ""},
		{name: "other error at verbosity 2", err: errors.New("conflict"), verbosity: 2, want: `"level"=2 "msg"="Error syncing, retrying" "key"="ns/web" "err"="conflict"`},
		{name: "namespace terminating is not a permission error", err: terminating, verbosity: 1, want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lines []string
			logger := funcr.New(func(prefix, args string) { lines = append(lines, args) }, funcr.Options{Verbosity: tc.verbosity})
			LogRetry(logger, 2, tc.err, "Error syncing, retrying", "key", "ns/web")
			got := strings.Join(lines, "\n")
			if tc.want == "" {
				if got != "" {
					t.Errorf("logged %q, want nothing", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("logged %q, want it to contain %q", got, tc.want)
			}
			// funcr writes "level" on info lines only.
			if IsForbidden(tc.err) && (strings.Contains(got, `"level"=`) || !strings.Contains(got, `"hint"="the API server forbids this request`)) {
				t.Errorf("logged %q, want an error line with the hint", got)
			}
		})
	}
}
