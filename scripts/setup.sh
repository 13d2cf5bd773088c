#!/usr/bin/env bash
# Installs what building and testing Bestiary needs on a fresh Debian machine, idempotently.
# Run as root (or with sudo available). Usage: scripts/setup.sh [build|test|release|bench]
#   build    the C libraries Bestiary links (libcmark-dev, libcurl4-openssl-dev, libssl-dev, libsqlite3-dev)
#   test     + Chromium, chromedriver, and a Python venv (.venv) with Selenium, axe, the Nu checker
#   release  the same (the release binary links Swift's libraries statically)
#   bench    + those of release, hyperfine, hugo
set -euo pipefail
level="${1:-build}"
cd "$(dirname "$0")/.."

packages=(libcmark-dev libcurl4-openssl-dev libssl-dev libsqlite3-dev pkg-config)
case "$level" in
  test) packages+=(chromium chromium-driver) ;;
  bench) packages+=(hyperfine hugo bc curl time) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: error: swift is not on PATH; install Swift 6.1 or newer from https://swift.org/install" >&2
  exit 1
fi
if ! command -v node >/dev/null 2>&1 && { [ "$level" = test ] || [ "$level" = bench ]; }; then
  echo "setup: error: node is not on PATH; the web app's unit tests need Node 20 or newer" >&2
  exit 1
fi

if [ "$level" = test ] || [ "$level" = bench ]; then
  requirements="Tests/browser/requirements.txt"
  stamp=".venv/.installed-$(sha256sum "$requirements" | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
    touch "$stamp"
  fi
fi
