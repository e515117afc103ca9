#!/usr/bin/env bash
# Install every Debian package faultline's build, tests and benchmarks need.
# Idempotent: quiet and quick when everything is already present.
set -euo pipefail

PKGS=(
  build-essential meson ninja-build pkg-config clang libclang-rt-14-dev
  libsqlite3-dev sqlite3 liblz4-dev libpcre2-dev libhyperscan-dev libgit2-dev
  zlib1g-dev
  libjansson-dev libssl-dev libxxhash-dev libcurl4-openssl-dev libmicrohttpd-dev
  libcmark-gfm-dev libcmark-gfm-extensions-dev libcmocka-dev git ripgrep jq
  chromium wrk nodejs strace python3 procps
  groff-base man-db zsh fish
)
# npm (the MCP SDK client test): Debian packages it apart from nodejs;
# NodeSource's nodejs already carries it.
command -v npm >/dev/null 2>&1 || PKGS+=(npm)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "bootstrap: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
