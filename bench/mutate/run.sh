#!/usr/bin/env bash
# Benchmark of `cling mutate`: mutant schemata against the naive approach
# (one build per mutant) on the same mutants in the same run, plus
# gremlins as a reference. Prints a markdown table; see main.go for the
# flags (for example: bench/mutate/run.sh -repeat 1 -skip-gremlins).
# Environment: CLING=PATH measures that binary; BENCH_MUTATE_RUNS=N sets
# the repetitions (default 3).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec go run ./bench/mutate "$@"
