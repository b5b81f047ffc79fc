#!/usr/bin/env bash
# Installs what the browser tests and the view benchmark need and do not find: Debian's
# Chromium, which the tests drive with playwright-core (it never downloads a browser of its
# own), and real fonts for the text the view must place exactly: CJK (WenQuanYi Zen Hei),
# colour emoji (Noto Color Emoji) and a monospace font (DejaVu Sans Mono).
set -euo pipefail

CHROMIUM="${TANDEM_CHROMIUM:-/usr/bin/chromium}"
FONT_PACKAGES=(fonts-wqy-zenhei fonts-noto-color-emoji fonts-dejavu-core)

missing=()
if [ ! -x "$CHROMIUM" ]; then
  missing+=(chromium)
fi
for package in "${FONT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  if [ -x "$CHROMIUM" ]; then
    echo "No apt-get to install ${missing[*]}: the browser tests will run on the fonts there are." >&2
    exit 0
  fi
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
    echo "Installing ${missing[*]} needs root: run as root, or install those packages." >&2
    exit 1
  fi
}

echo "Installing Debian's ${missing[*]} for the browser tests ..." >&2
run_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Chromium: $("$CHROMIUM" --version)" >&2
