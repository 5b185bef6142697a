#!/usr/bin/env bash
# Benchmark of cling over many pairs on expr v1.17.8 (see main.go): the
# run over all pairs against the single-pair runs it replaces, and two
# shards of a plan side by side against one process. Prints a markdown
# report. It takes about an hour with the defaults; it is resumable:
# run it again with the same work directory and it goes on where it
# stopped.
#
#   bench/scale/run.sh                           # all pairs, 10s each
#   bench/scale/run.sh -max-pairs 3 -budget 2s   # a reduced run
#
# Environment: CLING=PATH measures that binary; BENCH_WORK=DIR is the work
# directory (default bench/results/scale, which git ignores); BENCH_JSON
# appends the figures to that file.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${BENCH_WORK:-bench/results/scale}
exec go run ./bench/scale -work "$work" ${CLING:+-cling "$CLING"} ${BENCH_JSON:+-json "$BENCH_JSON"} "$@"
