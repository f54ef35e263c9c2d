#!/usr/bin/env bash
# `npm test` beside N busy loops (default 4), to show the suite does not depend on an idle machine
# (issue 31: load average 8-15 on 2 cores). The loops run in this script's own session: the kernel
# shares CPU by session (sched_autogroup), so loops started from another terminal barely compete.
set -uo pipefail
cd "$(dirname "$0")/.."
loops=${1:-4}
for _ in $(seq 1 "$loops"); do (while :; do :; done) & done
trap 'kill $(jobs -p) 2>/dev/null' EXIT
bash scripts/test.sh
