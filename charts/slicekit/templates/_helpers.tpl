{{/* Chart name, truncated to a DNS label. */}}
{{- define "slicekit.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: the release name when it contains the chart name ("slicekit"), else release-chart. */}}
{{- define "slicekit.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Labels of every object; config/ sets app.kubernetes.io/part-of and name too. */}}
{{- define "slicekit.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "slicekit.selectorLabels" . }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: slicekit
{{- end }}

{{/* Selector labels (immutable in a Deployment). */}}
{{- define "slicekit.selectorLabels" -}}
app.kubernetes.io/name: {{ include "slicekit.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "slicekit.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "slicekit.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "slicekit.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/*
The --controllers value: "*" (endpointslice and endpointslice-mirroring, the
controllers slicekit enables by default) with the differences the values ask
for. Names are pkg/manager's registry names.
*/}}
{{- define "slicekit.controllers" -}}
{{- $c := .Values.controllers }}
{{- if not (or $c.endpointslice.enabled $c.mirroring.enabled $c.endpoints.enabled $c.secondaryNetwork.enabled $c.draNetwork.enabled $c.cel.enabled $c.selectorlessCleanup.enabled) }}
{{- fail "controllers: enable at least one controller" }}
{{- end }}
{{- if and $c.selectorlessCleanup.dryRun (not $c.selectorlessCleanup.enabled) }}
{{- fail "controllers.selectorlessCleanup.dryRun needs controllers.selectorlessCleanup.enabled=true" }}
{{- end }}
{{- $l := list "*" }}
{{- if not $c.endpointslice.enabled }}{{ $l = append $l "-endpointslice" }}{{ end }}
{{- if not $c.mirroring.enabled }}{{ $l = append $l "-endpointslice-mirroring" }}{{ end }}
{{- if $c.endpoints.enabled }}{{ $l = append $l "endpoints" }}{{ end }}
{{- if $c.secondaryNetwork.enabled }}{{ $l = append $l "secondary-network" }}{{ end }}
{{- if $c.draNetwork.enabled }}{{ $l = append $l "dra-network" }}{{ end }}
{{- if $c.cel.enabled }}{{ $l = append $l "cel" }}{{ end }}
{{- if $c.selectorlessCleanup.enabled }}{{ $l = append $l "selectorless-cleanup" }}{{ end }}
{{- join "," $l }}
{{- end }}

{{/* Whether a controller that writes EndpointSlices for Services with selectors (and reads Pods and Nodes) is enabled. */}}
{{- define "slicekit.podSlices" -}}
{{- $c := .Values.controllers }}
{{- if or $c.endpointslice.enabled $c.secondaryNetwork.enabled $c.draNetwork.enabled $c.cel.enabled }}true{{ end }}
{{- end }}

{{/* Where the CEL profiles are mounted. */}}
{{- define "slicekit.celConfigPath" -}}/etc/slicekit/cel/profiles.yaml{{- end }}

{{/* A list of strings as a CEL list literal: ['a', 'b'] (single quotes escaped). */}}
{{- define "slicekit.celStringList" -}}
{{- $q := list }}
{{- range . }}{{ $q = append $q (printf "'%s'" (. | replace "\\" "\\\\" | replace "'" "\\'")) }}{{ end }}
{{- printf "[%s]" (join ", " $q) }}
{{- end }}

{{/*
Whether the admission policies (templates/admission-policies.yaml) are
installed. It returns "" when admissionPolicies.enabled resolves false (null:
true when the secondaryNetwork or cel controller is enabled), "install" when
the cluster can take them, and otherwise the reason it cannot, which NOTES.txt
prints. With admissionPolicies.enabled=true set explicitly it fails instead
of skipping them.

The policies are admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy
and ValidatingAdmissionPolicyBinding, GA in Kubernetes 1.30. On a live install
or upgrade (and helm template --validate) Helm fills .Capabilities.APIVersions
from the cluster's discovery: every served group version and every served
"group/version/Kind". Offline (helm template) it holds only the group versions
Helm's client-go knows, never a kind, plus --api-versions; there the policies
are rendered when admissionregistration.k8s.io/v1 is listed and --kube-version
is 1.30 or later. A version set counts as discovery's when it names the kind
v1/Service, which every API server serves.
*/}}
{{- define "slicekit.admissionPolicies" -}}
{{- $c := .Values.controllers }}
{{- $set := .Values.admissionPolicies.enabled }}
{{- $on := $set }}
{{- if kindIs "invalid" $on }}{{ $on = or $c.secondaryNetwork.enabled $c.cel.enabled }}{{ end }}
{{- if $on }}
{{- $api := .Capabilities.APIVersions }}
{{- $kv := .Capabilities.KubeVersion.Version }}
{{- $why := "" }}
{{- if and ($api.Has "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy") ($api.Has "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding") }}
{{- else if $api.Has "v1/Service" }}
{{- $why = printf "the cluster (Kubernetes %s) does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding" $kv }}
{{- else if not (semverCompare ">=1.30.0-0" $kv) }}
{{- $why = printf "Kubernetes %s (helm template --kube-version) is older than 1.30, the first release with admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy" $kv }}
{{- else if not ($api.Has "admissionregistration.k8s.io/v1") }}
{{- $why = "the API versions Helm was given do not include admissionregistration.k8s.io/v1" }}
{{- end }}
{{- if not $why }}install
{{- else if kindIs "bool" $set }}
{{- fail (printf "admissionPolicies.enabled=true, but %s (Kubernetes 1.30 or later, with the API not switched off by kube-apiserver --runtime-config). Install on such a cluster, or set admissionPolicies.enabled=false to install without the policies: then anyone who may create or update Pods can set the annotations and labels the secondary-network and cel controllers read, and so choose the addresses in their EndpointSlices (docs/security.md)" $why) }}
{{- else }}{{ $why }}
{{- end }}
{{- end }}
{{- end }}
