#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests, when it is not installed yet. The tests
# drive it with playwright-core, which never downloads a browser of its own.
set -euo pipefail

CHROMIUM="${TANDEM_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is not at $CHROMIUM and there is no apt-get to install it with." >&2
  echo "Install Chromium, then set TANDEM_CHROMIUM to its path." >&2
  exit 1
fi

run_as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "Installing Chromium needs root: run as root, or install the chromium package." >&2
    exit 1
  fi
}

echo "Installing Debian's chromium package for the browser tests ..." >&2
run_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "Chromium installed: $("$CHROMIUM" --version)" >&2
