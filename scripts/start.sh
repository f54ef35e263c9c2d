#!/usr/bin/env bash
# One command from a fresh clone to a running Sundial on the embedded database.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# The web app is built again only when what goes into it changed (its sources, the shared core
# package, the lock file), so a restart takes seconds: a stamp in the build folder holds the hash.
dist=apps/web/dist
stamp="$dist/.sundial-build-hash"
want=$(
  {
    find apps/web packages/core \( -name node_modules -o -path "$dist" \) -prune -o -type f -print
    echo package-lock.json
  } | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -d' ' -f1
)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Building the web app..."
  rm -f "$stamp"
  WEB_OUT_DIR=dist npm run build --silent
  echo "$want" > "$stamp"
fi

export NODE_ENV="${NODE_ENV:-production}"
exec node --import tsx apps/api/src/main.ts
