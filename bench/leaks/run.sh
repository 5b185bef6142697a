#!/usr/bin/env bash
# The search with and without the garbage collector's leak detection in
# the executor (CLING_LEAK_PROFILE=off leaves it out): cling gen at an
# evaluation budget on pairs whose tests block on channels or leave
# goroutines waiting, the same binary, the two modes interleaved.
#
# Usage: bench/leaks/run.sh [-runs 3] [-evals 3000] [-store FILE]
#
# Pairs: the fixtures constructs (caller -> callee: range over a channel
# the test made, select), faults (catalog -> store: a goroutine left
# sending), hostile (caller -> callee: waits no one answers), and
# github.com/sourcegraph/conc@v0.3.0 (stream -> pool: workers waiting
# for tasks). Each run is one line of FILE (default
# bench/leaks/results.jsonl): pair, mode, run, search seconds, executions,
# confirmed hangs, worker starts, retirements and coupled branches
# covered, from gen --json with --faults=false --cost-runs 0 --seed 3. A
# rerun skips the runs FILE has, so an interrupted run resumes. At the
# end, the medians per pair and mode are printed, and the ratio of the
# search times. A round of the four pairs in both modes takes about 15
# minutes on two cores (hostile, whose callee crashes its worker, most of
# it).
#
# Environment:
#   CLING=PATH   run this cling binary instead of building one
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=3
evals=3000
store=$ROOT/bench/leaks/results.jsonl
while [ $# -gt 0 ]; do
	case $1 in
	-runs) runs=$2; shift 2 ;;
	-evals) evals=$2; shift 2 ;;
	-store) store=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument $1 (run.sh -h lists them)" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "run.sh: needs jq" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/cling-leaks.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
if [ -z "${CLING:-}" ]; then
	(cd "$ROOT" && go build -o "$work/cling" ./cmd/cling)
	CLING=$work/cling
fi
touch "$store"

# module NAME SOURCE: a writable copy of a fixture or a module in $work.
module() {
	local name=$1 src=$2
	if [ ! -d "$work/$name" ]; then
		cp -r "$src" "$work/$name"
		chmod -R u+w "$work/$name"
	fi
	echo "$work/$name"
}
conc=$(go mod download -json github.com/sourcegraph/conc@v0.3.0 | jq -r .Dir)

# name dir caller callee
pairs=(
	"constructs $(module constructs "$ROOT/testdata/constructs") ./caller ./callee"
	"faults $(module faults "$ROOT/testdata/faults") ./catalog ./store"
	"hostile $(module hostile "$ROOT/testdata/hostile") ./caller ./callee"
	"conc $(module conc "$conc") ./stream ./pool"
)
for run in $(seq 1 "$runs"); do
	for p in "${pairs[@]}"; do
		read -r name dir caller callee <<<"$p"
		for mode in off on; do
			have=$(jq -s --arg p "$name" --arg m "$mode" --argjson r "$run" '[.[] | select(.pair == $p and .mode == $m and .run == $r)] | length' "$store")
			if [ "$have" -gt 0 ]; then
				continue
			fi
			env=()
			[ "$mode" = off ] && env=(CLING_LEAK_PROFILE=off)
			out=$(cd "$dir" && env "${env[@]}" "$CLING" gen --json --caller "$caller" --callee "$callee" \
				--max-evals "$evals" --seed 3 --faults=false --cost-runs 0 --force 2>"$work/err" || true)
			if [ -z "$out" ]; then
				echo "run.sh: $name ($mode): $(tail -1 "$work/err")" >&2
				continue
			fi
			jq -c --arg p "$name" --arg m "$mode" --argjson r "$run" '{pair: $p, mode: $m, run: $r,
				search: .stages.search, executions: .executor.executions, hangs: .executor.confirmedHangs,
				workerStarts: .executor.workerStarts, retirements: .executor.retirements, covered: .covered}' <<<"$out" >>"$store"
			tail -1 "$store"
		done
	done
done

echo
echo "| pair | off: search s | on: search s | on/off | off: retirements | on: retirements | off: hangs | on: hangs | off: covered | on: covered |"
echo "|---|---|---|---|---|---|---|---|---|---|"
jq -s -r 'def median: sort | if length == 0 then null elif length % 2 == 1 then .[length/2|floor] else (.[length/2-1] + .[length/2]) / 2 end;
	group_by(.pair)[] | . as $rows | ($rows[0].pair) as $p |
	[ "off", "on" ] | map(. as $m | [$rows[] | select(.mode == $m)]) as [$off, $on] |
	"| \($p) | \($off | map(.search) | median | . * 10 | round / 10) | \($on | map(.search) | median | . * 10 | round / 10) | \((($on | map(.search) | median) / ($off | map(.search) | median)) * 100 | round / 100) | \($off | map(.retirements) | median) | \($on | map(.retirements) | median) | \($off | map(.hangs) | median) | \($on | map(.hangs) | median) | \($off | map(.covered) | median) | \($on | map(.covered) | median) |"' "$store"
