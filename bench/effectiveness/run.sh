#!/usr/bin/env bash
# The effectiveness benchmark of cling gen: configurations of gen, variants
# (MOSA and random search by default; -algorithms for other algorithms,
# -variants for any named sets of gen flags), compared with a baseline on
# pairs of packages from real modules, with the coupled-branch coverage of
# the pairs' own tests and optional measures of every written file
# (-measure mutate,suitecost). See bench/effectiveness/README.md.
#
# Usage: bench/effectiveness/run.sh [-algorithms mosa,random | -variants NAME[=FLAGS],...] [-baseline NAME]
#          [-measure mutate,suitecost] [-budget 60s] [-seeds 5] [-pairs module:R:E,...] [more flags]
#        (bench/effectiveness/run.sh -h lists every flag)
#
# Every run is appended to bench/effectiveness/algorithms.jsonl (-store), and
# a rerun skips the runs it holds. Prints the markdown report on stdout and progress
# on stderr; the report, runs.jsonl, runs.csv, the generated files and a log
# of every command go to bench/effectiveness/results/<UTC time>/ (ignored by
# git).
#
# Needs: go, and the Go module proxy (or a module cache that already holds
# the modules). Takes about pairs × seeds × algorithms × (budget + 25 s) plus
# a few minutes of selection and coverage runs: about 2 hours with the
# defaults.
#
# Environment:
#   CLING=PATH   measure this cling binary instead of building one
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=$(mktemp -d "${TMPDIR:-/tmp}/cling-effectiveness-bin.XXXXXX")
trap 'rm -rf "$BIN"' EXIT

(cd "$ROOT" && go build -o "$BIN/effectiveness" ./bench/effectiveness)
if [ -z "${CLING:-}" ]; then
	(cd "$ROOT" && go build -o "$BIN/cling" ./cmd/cling)
	CLING=$BIN/cling
fi

# The measured cling is named by the last commit that changed anything but
# the results files (bench/effectiveness/*.jsonl, not those of testdata), so
# that committing results between sittings does not make the next sitting
# run everything again.
results=':(exclude,glob)bench/effectiveness/*.jsonl'
version=unknown
if v=$(git -C "$ROOT" log -1 --format=%h -- . "$results" 2>/dev/null) && [ -n "$v" ]; then
	version=$v
	if [ -n "$(git -C "$ROOT" --no-optional-locks status --porcelain -- . "$results" 2>/dev/null)" ]; then
		version="$version (with uncommitted changes)"
	fi
fi

cd "$ROOT"
"$BIN/effectiveness" -cling "$CLING" -cling-version "$version" -results "$ROOT/bench/effectiveness/results" "$@"
