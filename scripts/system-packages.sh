#!/usr/bin/env bash
# Debian packages, in two sets. Installs only what is missing.
#   run:  what the app needs to serve: the DejaVu fonts every PDF is drawn with (ReportLab draws them all since
#         issue 27; æ ø å, suits, −). No Pango, HarfBuzz or fontconfig.
#   test: run + Chromium for the browser tests, poppler-utils to read PDFs back, zbar-tools (zbarimg) to decode the
#         QR codes a browser test screenshots or a PDF prints, wrk for the benchmark, Pango, HarfBuzz and fontconfig
#         for the benchmark's WeasyPrint baseline (bench/weasy.py, the old path), nginx and openssl for the
#         reverse-proxy test (tests/integration/test_proxy.py).
set -euo pipefail
run=(fonts-dejavu-core)
test=("${run[@]}" chromium poppler-utils zbar-tools wrk libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b
  libharfbuzz-subset0 fontconfig nginx openssl)
case "${1:-}" in
  run) wanted=("${run[@]}") ;;
  test) wanted=("${test[@]}") ;;
  *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac
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
