#!/usr/bin/env bash
# Installs what Sundial needs: npm packages when missing or out of date with the lock file.
# `npm install`, not `npm ci`: the registry this project is built against lacks some optional
# per-platform packages (e.g. Biome's macOS binaries) that `npm ci` insists the lock file lists.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.sundial-lock-hash
want=$(cat package.json apps/*/package.json packages/*/package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing npm packages..."
  npm install --no-audit --no-fund
  # Written aside and renamed: a new file, so a stamp shared by a hard-linked copy of node_modules
  # (another checkout's) never claims this tree is installed.
  echo "$want" > "$stamp.tmp" && mv -f "$stamp.tmp" "$stamp"
fi
