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

// Command demoapply is the kubectl-free helper of `make apply-examples`,
// `make delete-examples` and `make demo`: it waits for slicekit to be
// ready, creates the objects of the given YAML files with
// internal/localapply (Pod and Node status through the status subresource,
// as a kubelet would report it, since the local control plane has none),
// waits until the EndpointSlices settle and prints them as a table. The
// demo's story steps label a Service for another controller (waiting for
// the hand-over and printing the EndpointSlicesHandedOver events), remove
// the label (waiting for the slices to come back), and show a namespace.
//
//	demoapply -kubeconfig .local/kubeconfig -ready-url http://127.0.0.1:18081/readyz examples/*.yaml
//	demoapply -kubeconfig .local/kubeconfig -delete examples/*.yaml
//	demoapply -kubeconfig .local/kubeconfig -label demo/web=other.example.com [-no-wait]
//	demoapply -kubeconfig .local/kubeconfig -unlabel demo/web
//	demoapply -kubeconfig .local/kubeconfig -show demo
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	corev1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/slicekit/slicekit/internal/localapply"
	"github.com/slicekit/slicekit/pkg/render"
	"github.com/slicekit/slicekit/pkg/wellknown"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "demoapply: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	kubeconfig := flag.String("kubeconfig", ".local/kubeconfig", "kubeconfig of the cluster")
	readyURL := flag.String("ready-url", "", "wait until this URL (slicekit's /readyz) answers 200 before applying")
	timeout := flag.Duration("timeout", 90*time.Second, "how long to wait for readiness and for the slices")
	del := flag.Bool("delete", false, "delete the objects of the files (and the slices of their Services) instead of creating them")
	label := flag.String("label", "", "NAMESPACE/SERVICE=VALUE: set the KEP-4770 label on the Service, wait until slicekit has handed it over (its slices gone, unless -no-wait), print the slices and the EndpointSlicesHandedOver events")
	unlabel := flag.String("unlabel", "", "NAMESPACE/SERVICE: remove the KEP-4770 label, wait until slicekit publishes the Service's slices again, print the slices")
	show := flag.String("show", "", "NAMESPACE: print the slices of the namespace (and its Endpoints objects)")
	noWait := flag.Bool("no-wait", false, "with -label: do not wait for the hand-over (the controller is stopped)")
	awaitSweep := flag.String("await-sweep", "", "NAMESPACE/SERVICE: do not change the Service (labelled while slicekit was stopped); wait until slicekit's start-up sweep has deleted its slices of it, print the slices and the EndpointSlicesHandedOver events")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if *label != "" || *unlabel != "" || *show != "" || *awaitSweep != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
		if err != nil {
			return err
		}
		cfg.UserAgent = "slicekit-demoapply"
		cfg.WarningHandler = rest.NoWarnings{} // v1 Endpoints is deprecated: the demo writes one on purpose
		client, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return err
		}
		switch {
		case *label != "":
			return labelService(ctx, client, *label, !*noWait, *timeout)
		case *unlabel != "":
			return unlabelService(ctx, client, *unlabel, *timeout)
		case *awaitSweep != "":
			return awaitHandOver(ctx, client, *awaitSweep, *timeout)
		default:
			return showNamespace(ctx, client, *show)
		}
	}
	if flag.NArg() == 0 {
		return errors.New("usage: demoapply [-kubeconfig K] [-ready-url URL] [-delete] FILE... | -label NS/SVC=VALUE [-no-wait] | -unlabel NS/SVC | -await-sweep NS/SVC | -show NS")
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return err
	}
	cfg.UserAgent = "slicekit-demoapply"
	cfg.WarningHandler = rest.NoWarnings{} // v1 Endpoints is deprecated: the demo writes one on purpose
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	objs, ignored, err := render.ReadFiles(flag.Args(), os.Stdin)
	if err != nil {
		return err
	}
	for _, ig := range ignored {
		fmt.Fprintf(os.Stderr, "demoapply: %s\n", ig)
	}
	if *del {
		return deleteAll(ctx, client, objs)
	}

	if *readyURL != "" {
		fmt.Printf("waiting for slicekit (%s) ...\n", *readyURL)
		if err := waitReady(ctx, *readyURL, *timeout); err != nil {
			return fmt.Errorf("slicekit did not answer ready at %s within %s: is `slicekit run` running against this cluster? Its log (.local/slicekit.log in the Quick start, .local/demo-slicekit.log in make demo) says why it stopped: %w", *readyURL, *timeout, err)
		}
	}

	// Create what others refer to first.
	slices.SortStableFunc(objs, func(a, b render.Object) int { return localapply.Compare(a.Object, b.Object) })
	var services []*corev1.Service
	namespaces := map[string]bool{}
	for _, o := range objs {
		created, err := localapply.Apply(ctx, client, o.Object, os.Stdout)
		if err != nil {
			return fmt.Errorf("%s document %d: %w", o.File, o.Document, err)
		}
		if svc, ok := created.(*corev1.Service); ok {
			services = append(services, svc)
			namespaces[svc.Namespace] = true
		}
	}

	fmt.Println("waiting for the EndpointSlices to settle ...")
	list, err := settle(ctx, client, services, namespaces, *timeout)
	if err != nil {
		return err
	}
	printTable(list, services)
	return nil
}

// deleteAll deletes objs in reverse dependency order, then the
// EndpointSlices left in their namespaces (there is no garbage collector
// in the local control plane), then the namespaces. Missing objects are
// fine.
func deleteAll(ctx context.Context, c kubernetes.Interface, objs []render.Object) error {
	var errs []error
	ignore := func(err error) {
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	namespaces := map[string]bool{}
	for i := len(objs) - 1; i >= 0; i-- {
		opts := metav1.DeleteOptions{}
		switch o := objs[i].Object.(type) {
		case *corev1.Pod:
			zero := int64(0)
			opts.GracePeriodSeconds = &zero // no kubelet will confirm a graceful stop
			ignore(c.CoreV1().Pods(o.Namespace).Delete(ctx, o.Name, opts))
		case *corev1.Service:
			ignore(c.CoreV1().Services(o.Namespace).Delete(ctx, o.Name, opts))
			namespaces[o.Namespace] = true
		case *corev1.Endpoints:
			ignore(c.CoreV1().Endpoints(o.Namespace).Delete(ctx, o.Name, opts))
		case *discovery.EndpointSlice:
			ignore(c.DiscoveryV1().EndpointSlices(o.Namespace).Delete(ctx, o.Name, opts))
		case *corev1.Node:
			ignore(c.CoreV1().Nodes().Delete(ctx, o.Name, opts))
		case *corev1.Namespace:
			namespaces[o.Name] = true
		}
	}
	for ns := range namespaces {
		ignore(c.DiscoveryV1().EndpointSlices(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}))
		ignore(c.CoreV1().Events(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}))
	}
	for _, o := range objs {
		if n, ok := o.Object.(*corev1.Namespace); ok {
			ignore(deleteNamespace(ctx, c, n.Name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Println("deleted the demo objects")
	return nil
}

// deleteNamespace deletes the namespace name and, its content being gone,
// finalizes it as kube-controller-manager's namespace controller would: the
// local control plane runs no such controller, and a namespace left
// Terminating would refuse the next apply-examples.
func deleteNamespace(ctx context.Context, c kubernetes.Interface, name string) error {
	if err := c.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return err
	}
	ns, err := c.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ns = ns.DeepCopy()
	ns.Spec.Finalizers = nil
	if _, err := c.CoreV1().Namespaces().Finalize(ctx, ns, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("finalizing namespace %s: %w", name, err)
	}
	return nil
}

// waitReady polls url until it answers 200.
func waitReady(ctx context.Context, url string, timeout time.Duration) error {
	return wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return false, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, nil
		}
		_ = resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
}

// settle waits until every Service that slicekit serves has a slice, and
// the slices of the namespaces stay unchanged for two seconds.
func settle(ctx context.Context, c kubernetes.Interface, services []*corev1.Service, namespaces map[string]bool, timeout time.Duration) ([]discovery.EndpointSlice, error) {
	var (
		last       []discovery.EndpointSlice
		lastKey    string
		stableFrom time.Time
	)
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		var all []discovery.EndpointSlice
		for ns := range namespaces {
			l, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err
			}
			all = append(all, l.Items...)
		}
		var keys []string
		served := map[string]bool{}
		for _, s := range all {
			keys = append(keys, s.Namespace+"/"+s.Name+"@"+s.ResourceVersion)
			served[s.Namespace+"/"+s.Labels[discovery.LabelServiceName]] = true
		}
		slices.Sort(keys)
		key := strings.Join(keys, ",")
		if key != lastKey {
			lastKey, last, stableFrom = key, all, time.Now()
			return false, nil
		}
		for _, svc := range services {
			_, delegated := svc.Labels[wellknown.LabelEndpointControllerName]
			if svc.Spec.Selector != nil && !delegated && !served[svc.Namespace+"/"+svc.Name] {
				return false, nil
			}
		}
		return time.Since(stableFrom) >= 2*time.Second, nil
	})
	if err != nil {
		return last, fmt.Errorf("the EndpointSlices did not settle within %s: %w", timeout, err)
	}
	return last, nil
}

// printTable prints one row per slice, and a row for each Service without
// any slice.
func printTable(list []discovery.EndpointSlice, services []*corev1.Service) {
	slices.SortFunc(list, func(a, b discovery.EndpointSlice) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace),
			cmp.Compare(a.Labels[discovery.LabelServiceName], b.Labels[discovery.LabelServiceName]),
			cmp.Compare(a.Name, b.Name))
	})
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nSERVICE\tENDPOINTSLICE\tMANAGED-BY\tADDRESS-TYPE\tREADY/TOTAL")
	served := map[string]bool{}
	for _, s := range list {
		svc := s.Namespace + "/" + s.Labels[discovery.LabelServiceName]
		served[svc] = true
		ready := 0
		for _, e := range s.Endpoints {
			if e.Conditions.Ready == nil || *e.Conditions.Ready {
				ready++
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d/%d\n", svc, s.Name, s.Labels[discovery.LabelManagedBy], s.AddressType, ready, len(s.Endpoints))
	}
	for _, svc := range services {
		if key := svc.Namespace + "/" + svc.Name; !served[key] {
			fmt.Fprintf(w, "%s\t(none)\t\t\t\n", key)
		}
	}
	_ = w.Flush()
}

// ownManagedBy are the managed-by values of slicekit's default controllers.
var ownManagedBy = map[string]bool{wellknown.EndpointSliceControllerName: true, wellknown.MirroringControllerName: true}

// splitRef splits "namespace/name".
func splitRef(ref string) (string, string, error) {
	ns, name, ok := strings.Cut(ref, "/")
	if !ok || ns == "" || name == "" {
		return "", "", fmt.Errorf("%q is not NAMESPACE/NAME", ref)
	}
	return ns, name, nil
}

// ownSlices lists slicekit's slices of Service ns/name.
func ownSlices(ctx context.Context, c kubernetes.Interface, ns, name string) ([]discovery.EndpointSlice, error) {
	l, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discovery.LabelServiceName + "=" + name})
	if err != nil {
		return nil, err
	}
	var out []discovery.EndpointSlice
	for _, s := range l.Items {
		if ownManagedBy[s.Labels[discovery.LabelManagedBy]] {
			out = append(out, s)
		}
	}
	return out, nil
}

// setLabel sets (value non-nil) or removes the KEP-4770 label of a Service.
func setLabel(ctx context.Context, c kubernetes.Interface, ns, name string, value *string) error {
	svc, err := c.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if value == nil {
		delete(svc.Labels, wellknown.LabelEndpointControllerName)
	} else {
		if svc.Labels == nil {
			svc.Labels = map[string]string{}
		}
		svc.Labels[wellknown.LabelEndpointControllerName] = *value
	}
	_, err = c.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{FieldManager: "slicekit-demo"})
	return err
}

// labelService labels ns/svc for another controller and, with wait, waits
// for slicekit's slices of it to go, then prints the namespace's slices and
// the hand-over events.
func labelService(ctx context.Context, c kubernetes.Interface, ref string, waitGone bool, timeout time.Duration) error {
	target, value, ok := strings.Cut(ref, "=")
	if !ok {
		return fmt.Errorf("-label %q is not NAMESPACE/SERVICE=VALUE", ref)
	}
	ns, name, err := splitRef(target)
	if err != nil {
		return err
	}
	fmt.Printf("$ label Service %s/%s %s=%s\n", ns, name, wellknown.LabelEndpointControllerName, value)
	if err := setLabel(ctx, c, ns, name, &value); err != nil {
		return err
	}
	if waitGone {
		if err := waitHandedOver(ctx, c, ns, name, "", timeout); err != nil {
			return err
		}
	}
	return showNamespace(ctx, c, ns)
}

// awaitHandOver waits, without changing the Service ns/svc (labelled while
// slicekit was stopped), for slicekit's start-up sweep to delete its slices
// of it, then prints the hand-over events and the namespace's slices.
func awaitHandOver(ctx context.Context, c kubernetes.Interface, ref string, timeout time.Duration) error {
	ns, name, err := splitRef(ref)
	if err != nil {
		return err
	}
	fmt.Printf("$ (Service %s/%s keeps the label set while slicekit was stopped)\n", ns, name)
	if err := waitHandedOver(ctx, c, ns, name, " (its start-up sweep)", timeout); err != nil {
		return err
	}
	return showNamespace(ctx, c, ns)
}

// waitHandedOver waits for slicekit's slices of ns/name to go, says how long
// that took (how is appended to the subject), and prints the hand-over
// events.
func waitHandedOver(ctx context.Context, c kubernetes.Interface, ns, name, how string, timeout time.Duration) error {
	start := time.Now()
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		own, err := ownSlices(ctx, c, ns, name)
		return len(own) == 0, err
	}); err != nil {
		return fmt.Errorf("slicekit did not delete its slices of %s/%s: %w", ns, name, err)
	}
	fmt.Printf("slicekit%s deleted its slices of %s/%s within %s\n", how, ns, name, time.Since(start).Round(100*time.Millisecond))
	return printEvents(ctx, c, ns, name, "EndpointSlicesHandedOver", timeout)
}

// unlabelService removes the label and waits for slicekit's slices.
func unlabelService(ctx context.Context, c kubernetes.Interface, ref string, timeout time.Duration) error {
	ns, name, err := splitRef(ref)
	if err != nil {
		return err
	}
	fmt.Printf("$ remove the label %s from Service %s/%s\n", wellknown.LabelEndpointControllerName, ns, name)
	if err := setLabel(ctx, c, ns, name, nil); err != nil {
		return err
	}
	start := time.Now()
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		own, err := ownSlices(ctx, c, ns, name)
		return len(own) > 0, err
	}); err != nil {
		return fmt.Errorf("slicekit did not publish slices of %s/%s again: %w", ns, name, err)
	}
	fmt.Printf("slicekit published %s/%s's slices again within %s\n", ns, name, time.Since(start).Round(100*time.Millisecond))
	return showNamespace(ctx, c, ns)
}

// printEvents waits for and prints the events of reason about Service
// ns/name.
func printEvents(ctx context.Context, c kubernetes.Interface, ns, name, reason string, timeout time.Duration) error {
	var found []corev1.Event
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		l, err := c.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "reason=" + reason + ",involvedObject.name=" + name})
		if err != nil {
			return false, err
		}
		found = l.Items
		return len(found) > 0, nil
	})
	if err != nil {
		return fmt.Errorf("no %s event for %s/%s: %w", reason, ns, name, err)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nEVENT TYPE\tREASON\tOBJECT\tMESSAGE")
	for _, e := range found {
		fmt.Fprintf(w, "%s\t%s\t%s %s/%s\t%s\n", e.Type, e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Namespace, e.InvolvedObject.Name, e.Message)
	}
	return w.Flush()
}

// showNamespace prints the namespace's slices (and a row for each Service
// without any) and its hand-written Endpoints objects.
func showNamespace(ctx context.Context, c kubernetes.Interface, ns string) error {
	sl, err := c.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	svcs, err := c.CoreV1().Services(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	var services []*corev1.Service
	for i := range svcs.Items {
		services = append(services, &svcs.Items[i])
	}
	printTable(sl.Items, services)
	eps, err := c.CoreV1().Endpoints(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	header := false
	for _, e := range eps.Items {
		if e.Labels[wellknown.LabelEndpointsManagedBy] != "" {
			continue // written by a controller, not by hand
		}
		if !header {
			fmt.Fprintln(w, "\nENDPOINTS (hand-written)\tADDRESSES")
			header = true
		}
		var addrs []string
		for _, ss := range e.Subsets {
			for _, a := range ss.Addresses {
				addrs = append(addrs, a.IP)
			}
			for _, a := range ss.NotReadyAddresses {
				addrs = append(addrs, a.IP+" (not ready)")
			}
		}
		fmt.Fprintf(w, "%s/%s\t%s\n", e.Namespace, e.Name, strings.Join(addrs, ", "))
	}
	return w.Flush()
}
