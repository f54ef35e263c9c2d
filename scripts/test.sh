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
if [ -n "${DATABASE_URL:-}" ]; then
  # Side by side: Vitest runs one test file at a time on a two-core machine, so the PGlite and the
  # PostgreSQL runs each take a core (CI stays under 30 minutes). Each run's output follows in turn.
  step "API tests on PGlite and on PostgreSQL, side by side"
  logs=$(mktemp -d)
  env -u DATABASE_URL npx vitest run --project int > "$logs/pglite.log" 2>&1 &
  on_pglite=$!
  npx vitest run --project int > "$logs/postgres.log" 2>&1 &
  on_postgres=$!
  pglite_rc=0; wait "$on_pglite" || pglite_rc=$?
  postgres_rc=0; wait "$on_postgres" || postgres_rc=$?
  step "API tests on PGlite (exit $pglite_rc)"; cat "$logs/pglite.log"
  step "API tests on PostgreSQL (exit $postgres_rc)"; cat "$logs/postgres.log"
  rm -rf "$logs"
  if [ "$pglite_rc" -ne 0 ] || [ "$postgres_rc" -ne 0 ]; then exit 1; fi
else
  step "API tests on PGlite"; env -u DATABASE_URL npx vitest run --project int
fi
step "build";               npm run build --silent
step "browser journeys";    npx playwright test -c e2e/playwright.config.ts
