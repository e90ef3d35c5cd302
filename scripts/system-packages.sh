#!/usr/bin/env bash
# Debian packages the app and its tests need: Pango and fonts for the PDFs, Chromium for the browser tests,
# poppler-utils to read PDFs back, wrk for the benchmark, nginx and openssl for the reverse-proxy test (tests/test_proxy.py).
# Installs only what is missing.
set -euo pipefail
wanted=(chromium poppler-utils fonts-dejavu-core libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 wrk nginx openssl)
missing=()
for pkg in "${wanted[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
