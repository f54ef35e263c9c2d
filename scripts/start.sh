#!/usr/bin/env bash
# One command from a fresh clone to a running Sundial on the embedded database.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "Building the web app..."
npm run build --silent
export NODE_ENV="${NODE_ENV:-production}"
exec node --import tsx apps/api/src/main.ts
