#!/usr/bin/env bash
# Browser tests drive the system Chromium; install it from Debian when it is missing.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then exit 0; fi
# Elsewhere (not root, no apt-get): install it yourself or point CHROMIUM_PATH at a Chromium.
bash "$(dirname "$0")/apt-install.sh" "The browser tests (Chromium at $chromium_path)" chromium
