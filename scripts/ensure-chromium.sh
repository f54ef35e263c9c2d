#!/usr/bin/env bash
# Browser tests drive the system Chromium; install it from Debian when it is missing. They prefer
# Chromium's headless shell (Debian's chromium-headless-shell, the same engine without the full
# browser's windowing and UI: less CPU a journey), installed here when it can be; without it the
# journeys run in the full Chromium (e2e/playwright.config.ts).
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
headless_shell=/usr/lib/chromium/chromium-headless-shell
if [ -x "$chromium_path" ] && { [ -n "${CHROMIUM_PATH:-}" ] || [ -x "$headless_shell" ]; }; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  if [ -x "$chromium_path" ]; then exit 0; fi
  echo "Chromium is missing at $chromium_path. Install it (apt-get install -y chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ ! -x "$chromium_path" ]; then
  echo "Installing Chromium from Debian packages..."
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x "$headless_shell" ]; then
  echo "Installing Chromium's headless shell from Debian packages..."
  { apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; }; } ||
    echo "The headless shell did not install: the journeys run in the full Chromium." >&2
fi
