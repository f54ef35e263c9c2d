#!/usr/bin/env bash
# Every check CI runs, from a fresh clone: install, lint, types, unit, API integration
# (all on PGlite; with DATABASE_URL all on PostgreSQL and a sample on PGlite), build, browser journeys.
# The log ends with each tier's time and the slowest test files, pass or fail (issue 31).
set -euo pipefail
cd "$(dirname "$0")/.."

reports=$(mktemp -d)
tiers=()
tier_name=''
tier_start=$SECONDS
suite_start=$SECONDS
step() {
  [ -n "$tier_name" ] && tiers+=("$(printf '%6d s  %s' $((SECONDS - tier_start)) "$tier_name")")
  tier_name=$1
  tier_start=$SECONDS
  printf '\n=== %s ===\n' "$1"
}
summary() {
  local rc=$?
  # A tier that failed beside the build does not leave it running.
  if [ -n "${building:-}" ]; then wait "$building" 2>/dev/null || true; fi
  [ -n "$tier_name" ] && tiers+=("$(printf '%6d s  %s' $((SECONDS - tier_start)) "$tier_name")")
  printf '\n=== time by tier (exit %s, %d s in all) ===\n' "$rc" $((SECONDS - suite_start))
  printf '%s\n' "${tiers[@]}"
  node scripts/slowest.mjs 15 "unit=$reports/unit.json" "pglite=$reports/pglite.json" \
    "postgres=$reports/postgres.json" "e2e=$reports/e2e.json" || true
  rm -rf "$reports"
}
trap summary EXIT
json() { echo "--reporter=default --reporter=json --outputFile.json=$reports/$1.json"; }

step "install";             bash scripts/setup.sh; bash scripts/ensure-chromium.sh
step "lint (Biome)";        npm run lint --silent
step "types (tsc)";         npm run typecheck --silent
# shellcheck disable=SC2046 # the reporter flags are words
step "unit tests";          npx vitest run --project unit $(json unit)
# The build needs only the sources, and much of it runs on one core (Rollup, the prerender, the
# precompression): it runs beside the API tests, its output kept until they end.
build_log=$(mktemp)
(
  started=$SECONDS
  rc=0; npm run build --silent > "$build_log" 2>&1 || rc=$?
  printf 'build: exit %s after %d s\n' "$rc" $((SECONDS - started)) >> "$build_log"
  exit "$rc"
) &
building=$!
if [ -n "${DATABASE_URL:-}" ]; then
  # PostgreSQL (production) runs every API test; PGlite, side by side, runs what differs between the
  # two and a parity sample (PGLITE_SAMPLE in vitest.config.ts, issue 31). Each run's output follows in turn.
  step "API tests on PostgreSQL (all) and on PGlite (sample), side by side, and the build"
  logs=$(mktemp -d)
  # shellcheck disable=SC2046
  env -u DATABASE_URL npx vitest run --project int-pglite $(json pglite) > "$logs/pglite.log" 2>&1 &
  on_pglite=$!
  # shellcheck disable=SC2046
  npx vitest run --project int --maxWorkers="${API_TEST_WORKERS:-2}" $(json postgres) > "$logs/postgres.log" 2>&1 &
  on_postgres=$!
  pglite_rc=0; wait "$on_pglite" || pglite_rc=$?
  postgres_rc=0; wait "$on_postgres" || postgres_rc=$?
  printf '\n=== API tests on PGlite, sample (exit %s) ===\n' "$pglite_rc"; cat "$logs/pglite.log"
  printf '\n=== API tests on PostgreSQL (exit %s) ===\n' "$postgres_rc"; cat "$logs/postgres.log"
  rm -rf "$logs"
  if [ "$pglite_rc" -ne 0 ] || [ "$postgres_rc" -ne 0 ]; then exit 1; fi
else
  # shellcheck disable=SC2046
  step "API tests on PGlite, and the build"; env -u DATABASE_URL npx vitest run --project int $(json pglite)
fi
step "build (what is left of it)"
build_rc=0; wait "$building" || build_rc=$?
building=''
cat "$build_log"; rm -f "$build_log"
if [ "$build_rc" -ne 0 ]; then exit 1; fi
step "browser journeys"
PLAYWRIGHT_JSON_OUTPUT_FILE="$reports/e2e.json" npx playwright test -c e2e/playwright.config.ts --reporter=list,json
