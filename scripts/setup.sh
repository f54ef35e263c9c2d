#!/usr/bin/env bash
# Installs what Sundial needs: npm packages when missing or out of date with the lock file.
# `npm install`, not `npm ci`: the registry this project is built against lacks some optional
# per-platform packages (e.g. Biome's macOS binaries) that `npm ci` insists the lock file lists.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.sundial-lock-hash
want=$(cat package.json apps/*/package.json packages/*/package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing npm packages (a first start takes a few minutes: see README, Start it)..."
  # npm shows no progress when its output is not a terminal, and little when it is: its http log
  # (a line per registry request) is counted here into a line every 100 requests; the rest of
  # what npm says (warnings, errors, its summary) passes through.
  npm install --no-audit --no-fund --loglevel=http 2>&1 | awk '
    / http (fetch|cache) / { if (++n % 100 == 0) { printf "  ...%d registry requests so far\n", n; fflush() } next }
    { print; fflush() }'
  # Written aside and renamed: a new file, so a stamp shared by a hard-linked copy of node_modules
  # (another checkout's) never claims this tree is installed.
  echo "$want" > "$stamp.tmp" && mv -f "$stamp.tmp" "$stamp"
fi
