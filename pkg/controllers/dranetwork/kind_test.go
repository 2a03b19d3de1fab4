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

package dranetwork

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/slicekit/slicekit/pkg/source/networkdata"
)

// testClaim returns claim c1 in namespace ns: allocated and reserved for
// Pod ns/p (uid-p), one device (request nic) reporting ips.
func testClaim(ips ...string) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c1", UID: "uid-c1"},
		Status: resourceapi.ResourceClaimStatus{
			Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{
				Results: []resourceapi.DeviceRequestAllocationResult{{Request: "nic", Driver: "dra.example.com", Pool: "node-a", Device: "eth-nic"}},
			}},
			ReservedFor: []resourceapi.ResourceClaimConsumerReference{{Resource: "pods", Name: "p", UID: "uid-p"}},
			Devices: []resourceapi.AllocatedDeviceStatus{{
				Driver: "dra.example.com", Pool: "node-a", Device: "eth-nic",
				Conditions:  []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue}},
				NetworkData: &resourceapi.NetworkDeviceData{IPs: ips},
			}},
		},
	}
}

// fullClaim is a claim with every field the transform drops set.
func fullClaim() *resourceapi.ResourceClaim {
	c := testClaim("192.168.60.31/24")
	c.Annotations = map[string]string{"a": "b"}
	c.Labels = map[string]string{"l": "v"}
	c.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m"}}
	c.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "uid-p", Controller: ptr.To(true)}}
	c.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "nic", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: "net.example.com"}}}
	c.Status.Allocation.NodeSelector = nil
	c.Status.Allocation.Devices.Results[0].ShareID = ptr.To(types.UID("s"))
	c.Status.Devices[0].ShareID = ptr.To("s")
	c.Status.Devices[0].Data = &runtime.RawExtension{Raw: []byte(`{"big":"blob"}`)}
	c.Status.Devices[0].NetworkData.InterfaceName = "net1"
	c.Status.Devices[0].NetworkData.HardwareAddress = "02:00:00:00:00:01"
	c.Status.Devices[0].Conditions[0].Message = "long message"
	return c
}

func TestTransformResourceClaim(t *testing.T) {
	c := fullClaim()
	before := c.DeepCopy()
	out, err := TransformResourceClaim(c)
	if err != nil {
		t.Fatal(err)
	}
	if !apiequality.Semantic.DeepEqual(before, c) {
		t.Fatal("the transform modified its argument")
	}
	got := out.(*resourceapi.ResourceClaim)
	if got.Annotations != nil || got.Labels != nil || got.ManagedFields != nil || len(got.Spec.Devices.Requests) != 0 ||
		got.Status.Devices[0].Data != nil || got.Status.Devices[0].NetworkData.InterfaceName != "" || got.Status.Devices[0].Conditions[0].Message != "" {
		t.Errorf("kept a field nobody reads: %+v", got)
	}
	// Everything networkdata.Resolve and ClaimPods read is kept: they give
	// the same answers on the transformed claim.
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-p"},
		Spec:       corev1.PodSpec{ResourceClaims: []corev1.PodResourceClaim{{Name: "net", ResourceClaimName: ptr.To("c1")}}},
	}
	for _, obj := range []*resourceapi.ResourceClaim{c, got} {
		get := func(string, string) (*resourceapi.ResourceClaim, error) { return obj, nil }
		res, err := networkdata.Resolve(p, networkdata.ClaimRef{PodClaim: "net"}, get)
		if err != nil || strings.Join(res.Addresses, " ") != "192.168.60.31" {
			t.Errorf("Resolve on %p: %+v, %v", obj, res, err)
		}
	}
	if a, b := networkdata.ClaimPods(c), networkdata.ClaimPods(got); len(a) != len(b) || len(a) != 2 {
		t.Errorf("ClaimPods differ: %v vs %v", a, b)
	}
	again, _ := TransformResourceClaim(got)
	if !apiequality.Semantic.DeepEqual(again, got) {
		t.Error("the transform is not idempotent")
	}
	if o, _ := TransformResourceClaim("x"); o != "x" {
		t.Error("other types are not returned as they are")
	}
}

func TestValidateResourceClaim(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*resourceapi.ResourceClaim)
		want   string // a substring of the joined errors; "" means valid
	}{
		{name: "valid", mutate: func(*resourceapi.ResourceClaim) {}},
		{name: "bare IP", mutate: func(c *resourceapi.ResourceClaim) { c.Status.Devices[0].NetworkData.IPs = []string{"10.0.0.1"} }, want: "networkData.ips[0]"},
		{name: "duplicate IP", mutate: func(c *resourceapi.ResourceClaim) {
			c.Status.Devices[0].NetworkData.IPs = []string{"10.0.0.1/8", "10.0.0.1/8"}
		}, want: "Duplicate"},
		{name: "too many IPs", mutate: func(c *resourceapi.ResourceClaim) {
			var ips []string
			for i := range 17 {
				ips = append(ips, "10.0.0."+string(rune('a'+i))+"/8")
			}
			c.Status.Devices[0].NetworkData.IPs = ips
		}, want: "must have at most 16"},
		{name: "device not allocated", mutate: func(c *resourceapi.ResourceClaim) { c.Status.Devices[0].Device = "eth9" }, want: "must be an allocated device"},
		{name: "reserved but not allocated", mutate: func(c *resourceapi.ResourceClaim) {
			c.Status.Allocation = nil
			c.Status.Devices = nil
		}, want: "may not be specified"},
		{name: "bad name", mutate: func(c *resourceapi.ResourceClaim) { c.Name = "Bad_Name" }, want: "metadata.name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testClaim("192.168.60.31/24")
			tc.mutate(c)
			errs := ValidateResourceClaim(c)
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("errors: %v", errs)
				}
				return
			}
			if !strings.Contains(errs.ToAggregate().Error(), tc.want) {
				t.Fatalf("errors %v, want one containing %q", errs, tc.want)
			}
		})
	}
}

func TestResourceClaimKind(t *testing.T) {
	if err := ResourceClaimKind.Check(); err != nil {
		t.Fatal(err)
	}
	if _, ok := ResourceClaimKind.New().(*resourceapi.ResourceClaim); !ok {
		t.Error("New is not a ResourceClaim")
	}
}
