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

package reconciler

import (
	"context"
	"fmt"

	discovery "k8s.io/api/discovery/v1"
	metainternalversionscheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// partialObjectMetadataAccept asks the API server for the object of a
// response as metav1.PartialObjectMetadata (its ObjectMeta only), protobuf
// first, as client-go's metadata client does.
const partialObjectMetadataAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1," +
	"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"

// updateSlice updates s (an existing slice of namespace) and returns the
// slice as written, for the tracker, which reads only its metadata (name,
// UID, labels, generation).
//
// Against an API server (the typed client's RESTClient is a
// *rest.RESTClient) the response is asked for as PartialObjectMetadata:
// decoding the whole slice back costs as much as encoding it, and the
// informer's watch brings the slice anyway. The returned slice then has
// only ObjectMeta set. Other clients (the fake clientset of tests and of
// `slicekit render`, whose RESTClient is nil) take the typed Update, which
// returns the whole slice. Errors are the client's (apierrors statuses
// such as Conflict), or a decoding error of the response.
func (r *Reconciler) updateSlice(ctx context.Context, namespace string, s *discovery.EndpointSlice, opts metav1.UpdateOptions) (*discovery.EndpointSlice, error) {
	rc, ok := r.client.DiscoveryV1().RESTClient().(*rest.RESTClient)
	if !ok || rc == nil {
		return r.client.DiscoveryV1().EndpointSlices(namespace).Update(ctx, s, opts)
	}
	body, err := rc.Put().
		Namespace(namespace).
		Resource("endpointslices").
		Name(s.Name).
		VersionedParams(&opts, scheme.ParameterCodec).
		SetHeader("Accept", partialObjectMetadataAccept).
		Body(s).
		Do(ctx).
		Raw()
	if err != nil {
		return nil, err
	}
	return sliceMetadata(body)
}

// sliceMetadata decodes an update's response body: a PartialObjectMetadata
// (protobuf or JSON), or the whole EndpointSlice from an API server that
// does not honour the Accept header's "as=" parameter.
func sliceMetadata(body []byte) (*discovery.EndpointSlice, error) {
	obj, err := runtime.Decode(metainternalversionscheme.Codecs.UniversalDeserializer(), body)
	if runtime.IsNotRegisteredError(err) {
		obj, err = runtime.Decode(scheme.Codecs.UniversalDeserializer(), body)
	}
	if err != nil {
		return nil, fmt.Errorf("decoding the updated EndpointSlice's metadata: %w", err)
	}
	switch o := obj.(type) {
	case *metav1.PartialObjectMetadata:
		return &discovery.EndpointSlice{ObjectMeta: o.ObjectMeta}, nil
	case *discovery.EndpointSlice:
		return o, nil
	default:
		return nil, fmt.Errorf("decoding the updated EndpointSlice's metadata: got a %T", obj)
	}
}
