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

package registry

import "github.com/spf13/pflag"

// ControllerNameFlag returns the flag, with its dashes, of the name a
// labelled controller registered as controller answers to:
// "--<controller>-controller-name" (--secondary-network-controller-name,
// --dra-network-controller-name). The name is the KEP-4770 label value of
// the Services it manages and its managed-by value.
func ControllerNameFlag(controller string) string {
	return "--" + controller + "-controller-name"
}

// AddControllerNameFlag binds ControllerNameFlag(controller) to *name in
// fs, with *name as its default and a help text naming the controller: the
// flag of a labelled controller's Options (its AddFlags and AddRenderFlags;
// the name shapes output, so render has it too).
func AddControllerNameFlag(fs *pflag.FlagSet, name *string, controller string) {
	fs.StringVar(name, ControllerNameFlag(controller)[2:], *name,
		"The service.kubernetes.io/endpoint-controller-name value the "+controller+
			" controller answers to, and its managed-by value.")
}

// ValidateControllerName returns ControllerName's error for the name of
// the labelled controller registered as controller when it is enabled
// (nil when it is not: a disabled controller's flags are not checked), so
// that `slicekit run` and `slicekit render` refuse it before starting
// (exit 2). The manager checks the name against the other controllers'
// (Registration.ManagedBy).
func ValidateControllerName(controller, name string, enabled bool) error {
	if !enabled {
		return nil
	}
	return ControllerName(ControllerNameFlag(controller), name)
}
