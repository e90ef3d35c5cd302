#!/usr/bin/env bash
# Debian packages, in three sets. Installs only what is missing.
#   run:   what the app needs to serve: nothing. ReportLab draws every PDF (issue 27) with the DejaVu fonts the
#          package ships (scorekeeper/fonts/, issue 35); no Pango, HarfBuzz or fontconfig.
#   test:  Chromium for the browser tests (and the DejaVu fonts it draws the pages with), poppler-utils to read PDFs
#          back, zbar-tools (zbarimg) to decode the QR codes a browser test screenshots or a PDF prints, nginx and
#          openssl for the reverse-proxy test (tests/integration/test_proxy.py).
#   bench: test + wrk for the benchmark, Pango, HarfBuzz and fontconfig for its WeasyPrint baseline (bench/weasy.py,
#          the old path; `make bench` installs the `bench` extra).
set -euo pipefail
run=()
test=("${run[@]}" fonts-dejavu-core chromium poppler-utils zbar-tools nginx openssl)
bench=("${test[@]}" wrk libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 fontconfig)
case "${1:-}" in
  run) wanted=("${run[@]}") ;;
  test) wanted=("${test[@]}") ;;
  bench) wanted=("${bench[@]}") ;;
  *) echo "usage: $0 run|test|bench" >&2; exit 2 ;;
esac
missing=()
for pkg in ${wanted[@]+"${wanted[@]}"}; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
