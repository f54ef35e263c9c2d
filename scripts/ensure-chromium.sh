#!/usr/bin/env bash
# Browser tests drive the system Chromium; install it from Debian when it is missing. They prefer
# Chromium's headless shell (Debian's chromium-headless-shell, the same engine without the full
# browser's windowing and UI: less CPU a journey), installed here when it can be; without it the
# journeys run in the full Chromium (e2e/playwright.config.ts).
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
headless_shell=/usr/lib/chromium/chromium-headless-shell
if [ ! -x "$chromium_path" ]; then
  # Elsewhere (not root, no apt-get): install it yourself or point CHROMIUM_PATH at a Chromium.
  bash "$(dirname "$0")/apt-install.sh" "The browser tests (Chromium at $chromium_path)" chromium
fi
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x "$headless_shell" ]; then
  # Best effort: the full Chromium runs the journeys without it.
  bash "$(dirname "$0")/apt-install.sh" "Faster browser tests" chromium-headless-shell 2>/dev/null ||
    echo "The headless shell did not install: the journeys run in the full Chromium." >&2
fi
