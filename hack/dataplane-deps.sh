#!/usr/bin/env bash

# Copyright 2026 The slicekit Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# Installs the Debian packages `make test-dataplane` needs when a command is
# missing: nftables (nft), iptables, conntrack (kube-proxy's modes and its
# UDP conntrack clean-up), podman and runc (the image test). As root with
# apt-get only (CI runs as root); otherwise it names what is missing and
# fails.

set -o errexit -o nounset -o pipefail

declare -A pkg=([nft]=nftables [iptables]=iptables [conntrack]=conntrack [podman]=podman [runc]=runc [ip]=iproute2 [sysctl]=procps)
missing=()
for cmd in "${!pkg[@]}"; do
  command -v "${cmd}" >/dev/null 2>&1 || missing+=("${pkg[${cmd}]}")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing packages: ${missing[*]} (install them as root: apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
