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

package celpods

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/slicekit/slicekit/pkg/reconciler"
	"github.com/slicekit/slicekit/pkg/source"
	"github.com/slicekit/slicekit/pkg/source/podendpoint"
)

// Variables of the expressions.
const (
	// VarPod is the Pod, as map(string, dyn).
	VarPod = "pod"
	// VarService is the Service, as map(string, dyn).
	VarService = "service"
)

// Reasons of the Problems (Warning events on the Service, metric label
// values) of the CEL controllers, besides package source's (InvalidAddress,
// DuplicateAddress, AddressFamilyMismatch).
const (
	// ReasonEvaluationFailed: an expression failed at run time (a missing
	// map key, a type error, ...).
	ReasonEvaluationFailed = "CELEvaluationFailed"
	// ReasonCostLimitExceeded: an evaluation exceeded the profile's cost
	// limit and was stopped.
	ReasonCostLimitExceeded = "CELCostLimitExceeded"
	// ReasonInvalidResult: addresses did not return a list of strings of at
	// most MaxAddressesPerPod elements, or ready did not return a bool.
	ReasonInvalidResult = "CELInvalidResult"
)

// interruptCheckFrequency is how many comprehension iterations run between
// two checks of the context (evaluation is stopped when it is done).
const interruptCheckFrequency = 100

// parseJSONOverload is the overload id of parseJSON(string).
const parseJSONOverload = "parseJSON_string"

// NewEnv returns the CEL environment of the expressions: the variables pod
// and service, both map(string, dyn) (the objects' JSON form, see
// Activation), the standard library, optional types (pod.?metadata.?labels),
// and the cel-go extensions strings, lists, sets, math, encoders
// (base64, json.encode), bindings (cel.bind), two-variable comprehensions
// and network (ip(), cidr(), isIP(), isCIDR(), as in Kubernetes CEL), plus
// parseJSON(string) -> dyn, which decodes a JSON document (for instance
// the k8s.v1.cni.cncf.io/network-status annotation) and fails on invalid
// JSON.
func NewEnv() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable(VarPod, cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable(VarService, cel.MapType(cel.StringType, cel.DynType)),
		cel.OptionalTypes(),
		ext.Strings(),
		ext.Lists(),
		ext.Sets(),
		ext.Math(),
		ext.Encoders(),
		ext.Bindings(),
		ext.TwoVarComprehensions(),
		ext.Network(),
		cel.Function("parseJSON",
			cel.Overload(parseJSONOverload, []*cel.Type{cel.StringType}, cel.DynType,
				cel.UnaryBinding(parseJSON))),
	)
}

// parseJSON decodes a JSON string into a CEL value.
func parseJSON(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	var out any
	dec := json.NewDecoder(strings.NewReader(string(s)))
	if err := dec.Decode(&out); err != nil {
		return types.NewErr("parseJSON: %v", err)
	}
	if dec.More() {
		return types.NewErr("parseJSON: trailing data after the JSON value")
	}
	return types.DefaultTypeAdapter.NativeToValue(out)
}

// parseJSONCost is the runtime cost of parseJSON: one unit per 10 bytes
// of input, as cel-go charges string scans.
func parseJSONCost(args []ref.Val, _ ref.Val) *uint64 {
	var n uint64 = 1
	if len(args) == 1 {
		if s, ok := args[0].(types.String); ok {
			n += uint64(len(s)) / 10
		}
	}
	return &n
}

// Program is a compiled, type-checked profile. It is safe for concurrent
// use.
type Program struct {
	profile Profile
	// undeclared is UndeclaredReads' result.
	undeclared error
	addresses  cel.Program
	ready      cel.Program // nil: Pod Ready rule
}

// Compile compiles and type-checks p's expressions in NewEnv's environment
// and builds programs with p's cost limit (DefaultCostLimit when 0). It
// returns an error naming the profile and the expression, wrapping
// ErrInvalidConfig, when p is invalid (Profile.Validate), an expression does
// not parse or type-check, addresses is not of type list(string), list(dyn)
// or dyn, or ready is not of type bool or dyn.
func Compile(p Profile) (*Program, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	env, err := NewEnv()
	if err != nil {
		return nil, fmt.Errorf("building the CEL environment: %w", err) // a bug, not a configuration error
	}
	if p.CostLimit == 0 {
		p.CostLimit = DefaultCostLimit
	}
	prog := &Program{profile: p}
	defer func() { prog.undeclared = undeclaredReads(env, p) }()
	var errs []error
	prog.addresses, err = compileExpr(env, p, "addresses", p.Addresses, func(t *cel.Type) bool {
		switch t.Kind() {
		case types.DynKind:
			return true
		case types.ListKind:
			e := t.Parameters()[0].Kind()
			return e == types.StringKind || e == types.DynKind
		}
		return false
	}, "list(string)")
	if err != nil {
		errs = append(errs, err)
	}
	if strings.TrimSpace(p.Ready) != "" {
		prog.ready, err = compileExpr(env, p, "ready", p.Ready, func(t *cel.Type) bool {
			return t.Kind() == types.BoolKind || t.Kind() == types.DynKind
		}, "bool")
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return prog, nil
}

// compileExpr compiles one expression and checks its output type.
func compileExpr(env *cel.Env, p Profile, field, expr string, typeOK func(*cel.Type) bool, want string) (cel.Program, error) {
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, fmt.Errorf("profile %q: %s: %w", p.Name, field, iss.Err())
	}
	if t := ast.OutputType(); !typeOK(t) {
		return nil, fmt.Errorf("profile %q: %s: the expression is of type %s, want %s", p.Name, field, t, want)
	}

	prg, err := env.Program(ast,
		cel.CostLimit(p.CostLimit),
		cel.CostTrackerOptions(interpreter.OverloadCostTracker(parseJSONOverload, parseJSONCost)),
		cel.InterruptCheckFrequency(interruptCheckFrequency),
	)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %s: %w", p.Name, field, err)
	}
	return prg, nil
}

// CompileConfig compiles every profile of cfg (after Config.Validate) and
// returns the programs in file order, or one error listing every invalid
// profile (each naming the profile), wrapping ErrInvalidConfig.
func CompileConfig(cfg *Config) ([]*Program, error) {
	if cfg == nil {
		return nil, fmt.Errorf("%w: no configuration", ErrInvalidConfig)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var progs []*Program
	var errs []error
	for _, p := range cfg.Profiles {
		prog, err := Compile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		progs = append(progs, prog)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return progs, nil
}

// Profile returns the compiled profile, its cost limit defaulted.
func (p *Program) Profile() Profile { return p.profile }

// Activation returns the variables of an evaluation: pod and service in
// their JSON form (runtime.DefaultUnstructuredConverter, the same maps
// `kubectl get -o json` shows, numbers as int or double), without
// metadata.managedFields. Fields an informer transform dropped are absent.
// A nil object is an empty map. pod and svc are not modified.
func Activation(svc *corev1.Service, pod *corev1.Pod) (map[string]any, error) {
	podMap, err := toMap(pod)
	if err != nil {
		return nil, fmt.Errorf("converting Pod: %w", err)
	}
	svcMap, err := toMap(svc)
	if err != nil {
		return nil, fmt.Errorf("converting Service: %w", err)
	}
	return map[string]any{VarPod: podMap, VarService: svcMap}, nil
}

func toMap(obj runtime.Object) (map[string]any, error) {
	if obj == nil {
		return map[string]any{}, nil
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		if o == nil {
			return map[string]any{}, nil
		}
	case *corev1.Service:
		if o == nil {
			return map[string]any{}, nil
		}
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	return m, nil
}

// Addresses evaluates the addresses expression for pod in svc (a
// source.AddressFunc). The result must be a list of strings, at most
// MaxAddressesPerPod; source.Desired checks that each is an IP address. Failures
// are *source.SkipError with ReasonEvaluationFailed,
// ReasonCostLimitExceeded or ReasonInvalidResult.
func (p *Program) Addresses(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) ([]string, error) {
	vars, err := Activation(svc, pod)
	if err != nil {
		return nil, source.Skip(ReasonEvaluationFailed, "addresses: %w", err)
	}
	out, err := p.eval(ctx, p.addresses, vars)
	if err != nil {
		return nil, evalSkip("addresses", err)
	}
	return addressList(out)
}

// Serving evaluates the ready expression for pod in svc (a
// source.ServingFunc); it must be set (HasReady). Failures are as for
// Addresses; a result that is not a bool is ReasonInvalidResult.
func (p *Program) Serving(ctx context.Context, svc *corev1.Service, pod *corev1.Pod) (bool, error) {
	if p.ready == nil {
		return podendpoint.IsPodReady(pod), nil
	}
	vars, err := Activation(svc, pod)
	if err != nil {
		return false, source.Skip(ReasonEvaluationFailed, "ready: %w", err)
	}
	out, err := p.eval(ctx, p.ready, vars)
	if err != nil {
		return false, evalSkip("ready", err)
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, source.Skip(ReasonInvalidResult, "ready returned %s, want bool", out.Type().TypeName())
	}
	return bool(b), nil
}

// HasReady reports whether the profile has a ready expression.
func (p *Program) HasReady() bool { return p.ready != nil }

// eval runs prg; a panic in a function is an error (cel-go recovers it).
func (p *Program) eval(ctx context.Context, prg cel.Program, vars map[string]any) (ref.Val, error) {
	out, _, err := prg.ContextEval(ctx, vars)
	if err != nil {
		return nil, err
	}
	if types.IsError(out) {
		if e, ok := out.(*types.Err); ok {
			return nil, e
		}
		return nil, fmt.Errorf("%v", out)
	}
	return out, nil
}

// evalSkip classifies an evaluation error.
func evalSkip(field string, err error) error {
	var cancelled interpreter.EvalCancelledError
	if errors.As(err, &cancelled) && cancelled.Cause == interpreter.CostLimitExceeded {
		return source.Skip(ReasonCostLimitExceeded, "%s: %w", field, err)
	}
	return source.Skip(ReasonEvaluationFailed, "%s: %w", field, err)
}

// addressList checks and converts the result of addresses.
func addressList(out ref.Val) ([]string, error) {
	l, ok := out.(traits.Lister)
	if !ok {
		return nil, source.Skip(ReasonInvalidResult, "addresses returned %s, want list(string)", out.Type().TypeName())
	}
	n, ok := l.Size().(types.Int)
	if !ok {
		return nil, source.Skip(ReasonInvalidResult, "addresses returned a list of unknown size")
	}
	if n > MaxAddressesPerPod {
		return nil, source.Skip(ReasonInvalidResult, "addresses returned %d elements, at most %d are allowed", n, MaxAddressesPerPod)
	}
	res := make([]string, 0, int(n))
	for i := types.Int(0); i < n; i++ {
		e := l.Get(i)
		s, ok := e.(types.String)
		if !ok {
			return nil, source.Skip(ReasonInvalidResult, "addresses[%d] is %s, want string", i, e.Type().TypeName())
		}
		res = append(res, string(s))
	}
	return res, nil
}

// PodChanged reports whether a Pod changed at all: an expression may read
// any field. The controller calls it (through
// source.PodAddresses.PodUpdateMatters) only when the resourceVersion
// changed.
func PodChanged(_, _ *corev1.Pod) bool { return true }

// Source returns the source.PodAddresses (a source.Source) of the profile: Addresses, Serving
// when the profile has a ready expression, and PodChanged.
func (p *Program) Source() source.PodAddresses {
	src := source.PodAddresses{Addresses: p.Addresses, PodChanged: PodChanged}
	if p.ready != nil {
		src.Serving = p.Serving
	}
	return src
}

// Desired returns the desired endpoints of svc given pods, the Pods its
// selector matches, with the addresses the profile's expression returns:
// source.Desired with p.Source(). See source.Desired for the rules
// and the errors.
func (p *Program) Desired(ctx context.Context, svc *corev1.Service, pods []*corev1.Pod, nodes podendpoint.NodeGetter) (*reconciler.Desired, []source.Problem, error) {
	return source.Desired(ctx, svc, pods, nodes, p.Source())
}
