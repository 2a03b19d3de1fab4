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
	"fmt"
	"sync"

	"github.com/google/uuid"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
)

// uidNamespace is the UUID namespace of derived uids (a fixed random UUID).
var uidNamespace = uuid.MustParse("5b0c3a4e-6f53-4c1b-9a55-0d1c2f7e8a61")

// derivedUID returns a uid that depends only on the object's kind,
// namespace and name (a version 5 UUID).
func derivedUID(kind, namespace, name string) types.UID {
	return types.UID(uuid.NewSHA1(uidNamespace, []byte(kind+"/"+namespace+"/"+name)).String())
}

// kindOf returns the kind of a built-in typed object.
func kindOf(obj runtime.Object) (string, error) {
	if k := obj.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k, nil
	}
	kinds, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return "", err
	}
	return kinds[0].Kind, nil
}

// nameAlphabet is the API server's alphabet for generated names
// (k8s.io/apimachinery/pkg/util/rand): no vowels, no look-alike digits.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedNameLength is the longest base the API server keeps.
const maxGeneratedNameLength = 58

// namer is a create reactor, run before internal/memapi's, that names
// objects created with generateName deterministically and gives them a
// derived uid: the base plus a 5-character suffix from a counter per
// namespace and base, skipping names in use. With the controllers' stable
// order of writes, a render's names depend only on its input.
type namer struct {
	tracker k8stesting.ObjectTracker

	mu       sync.Mutex
	counters map[string]int64
}

func newNamer(c *fake.Clientset) *namer {
	return &namer{tracker: c.Tracker(), counters: map[string]int64{}}
}

// create names the object of a create action; it never ends the reactor
// chain.
func (n *namer) create(action k8stesting.Action) (bool, runtime.Object, error) {
	ca, ok := action.(k8stesting.CreateActionImpl)
	if !ok || ca.GetSubresource() != "" {
		return false, nil, nil
	}
	obj := ca.GetObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, nil, nil
	}
	ns := m.GetNamespace()
	if ns == "" {
		ns = ca.GetNamespace()
	}
	if m.GetName() == "" && m.GetGenerateName() != "" {
		m.SetName(n.generate(ca.GetResource(), ns, m.GetGenerateName()))
	}
	if m.GetUID() == "" && m.GetName() != "" {
		if kind, err := kindOf(obj); err == nil {
			m.SetUID(derivedUID(kind, ns, m.GetName()))
		}
	}
	return false, nil, nil
}

// generate returns base (cut to 58 characters) plus the next free suffix
// of the counter of namespace ns and base.
func (n *namer) generate(gvr schema.GroupVersionResource, ns, base string) string {
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	key := gvr.String() + "|" + ns + "|" + base
	for {
		i := n.counters[key]
		n.counters[key] = i + 1
		name := base + suffix(i)
		if _, err := n.tracker.Get(gvr, ns, name); apierrors.IsNotFound(err) {
			return name
		}
	}
}

// suffix renders i in base 27 over nameAlphabet, 5 characters.
func suffix(i int64) string {
	b := make([]byte, 5)
	for j := len(b) - 1; j >= 0; j-- {
		b[j] = nameAlphabet[i%int64(len(nameAlphabet))]
		i /= int64(len(nameAlphabet))
	}
	return string(b)
}

// recorder is the EventRecorder of a render: it logs each event (Warnings
// at level 0, others at level 2) and keeps it in the result.
type recorder struct {
	logger klog.Logger
	mu     *sync.Mutex
	events *[]Event
}

var _ record.EventRecorderLogger = (*recorder)(nil)

// Event implements record.EventRecorder.
func (r *recorder) Event(obj runtime.Object, eventtype, reason, message string) {
	kind, _ := kindOf(obj)
	ref := kind
	if m, err := meta.Accessor(obj); err == nil {
		ref += " " + klog.KObj(m).String()
	}
	r.mu.Lock()
	*r.events = append(*r.events, Event{Object: ref, Type: eventtype, Reason: reason, Message: message})
	r.mu.Unlock()
	v := 2
	if eventtype == corev1.EventTypeWarning {
		v = 0
	}
	r.logger.V(v).Info("Event", "object", ref, "type", eventtype, "reason", reason, "message", message)
}

// Eventf implements record.EventRecorder.
func (r *recorder) Eventf(obj runtime.Object, eventtype, reason, messageFmt string, args ...any) {
	r.Event(obj, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

// AnnotatedEventf implements record.EventRecorder.
func (r *recorder) AnnotatedEventf(obj runtime.Object, _ map[string]string, eventtype, reason, messageFmt string, args ...any) {
	r.Eventf(obj, eventtype, reason, messageFmt, args...)
}

// WithLogger implements record.EventRecorderLogger.
func (r *recorder) WithLogger(logger klog.Logger) record.EventRecorderLogger {
	return &recorder{logger: logger, mu: r.mu, events: r.events}
}
