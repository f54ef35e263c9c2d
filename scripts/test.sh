#!/usr/bin/env bash
# Every check CI runs, from a fresh clone: install, lint, types, unit, API integration
# (PGlite, then PostgreSQL when DATABASE_URL is set), build, browser journeys.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/ensure-chromium.sh

step() { printf '\n=== %s ===\n' "$1"; }
step "lint (Biome)";        npm run lint --silent
step "types (tsc)";         npm run typecheck --silent
step "unit tests";          npx vitest run --project unit
step "API tests on PGlite"; env -u DATABASE_URL npx vitest run --project int
if [ -n "${DATABASE_URL:-}" ]; then
  step "API tests on PostgreSQL"; npx vitest run --project int
fi
step "build";               npm run build --silent
step "browser journeys";    npx playwright test -c e2e/playwright.config.ts
