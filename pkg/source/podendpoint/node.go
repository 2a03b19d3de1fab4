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

package podendpoint

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
)

// NodeGetter looks up a Node by name. A corelisters.NodeLister satisfies
// it. Get must return an error for which apierrors.IsNotFound is true when
// the Node does not exist; any other error is treated as a failure of the
// lookup itself.
type NodeGetter interface {
	Get(name string) (*corev1.Node, error)
}

// SkippedPodError reports a Pod left out of the desired endpoints because
// the Node named by its spec.nodeName does not exist (KCM behaviour C18,
// edge case E14). servicepods Desired and source Desired return one per
// skipped Pod, joined; the message is KCM's.
type SkippedPodError struct {
	// Pod is the skipped Pod's name; it is in the Service's namespace.
	Pod string
	// Namespace and Service name the Service.
	Namespace, Service string
	// Node is the missing Node's name (may be empty: an unscheduled pod).
	Node string
}

// Error is KCM's message; for a Pod without spec.nodeName (an IP but no
// Node: only a hand-written object) it says so instead of naming an empty
// Node.
func (e *SkippedPodError) Error() string {
	if e.Node == "" {
		return fmt.Sprintf("skipping Pod %s for Service %s/%s: the Pod has no spec.nodeName", e.Pod, e.Namespace, e.Service)
	}
	return fmt.Sprintf("skipping Pod %s for Service %s/%s: Node %s Not Found", e.Pod, e.Namespace, e.Service, e.Node)
}

// nodeResult is a cached Node lookup.
type nodeResult struct {
	node *corev1.Node
	err  error
}

// CachedNodes returns a NodeGetter that looks each Node name up in nodes
// once and then returns the same result, the Node or the error (a sync's
// cache in servicepods Desired and source Desired; the incremental index's
// for one update). It is not
// safe for concurrent use.
func CachedNodes(nodes NodeGetter) NodeGetter {
	return &cachingNodeGetter{nodes: nodes, results: map[string]nodeResult{}}
}

// cachingNodeGetter looks each Node name up once (CachedNodes).
type cachingNodeGetter struct {
	nodes   NodeGetter
	results map[string]nodeResult
}

func (c *cachingNodeGetter) Get(name string) (*corev1.Node, error) {
	if r, ok := c.results[name]; ok {
		return r.node, r.err
	}
	n, err := c.nodes.Get(name)
	c.results[name] = nodeResult{node: n, err: err}
	return n, err
}
