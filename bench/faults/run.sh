#!/usr/bin/env bash
# The fault triage runs of docs/faults.md: cling gen --faults-only on the
# most coupled pairs of real modules, each for a time budget, with every
# reported fault and its reproducer kept for triage by hand.
#
# Usage: bench/faults/run.sh [-budget 5m] [-pairs 2] [-seed 1] [-out DIR] [MODULE@VERSION...]
#
# Modules default to expr v1.17.8, hcl v1.0.0, goldmark v1.8.7,
# go-toml/v2 v2.2.4 and BurntSushi/toml v1.6.0. For each module, a
# writable copy is made from the module cache (go mod download), `cling
# pairs` lists its pairs, most coupled first, and the first -pairs of them
# whose caller and callee both belong to the module are searched (a pair
# whose caller's exported API reaches no call site into the callee is
# passed over for the next one). Per pair,
# DIR/<module>/<caller>__<callee>.json is gen's --json report (its faults
# with their reproducers), .log its stderr, and _faults_test.go.txt the
# faults file it wrote. A rerun skips the pairs whose report exists, so an
# interrupted run resumes; delete a report to run its pair again. At the
# end, one line per fault of every report is printed, and the counts per
# module.
#
# DIR defaults to bench/results/faults (ignored by git). Takes about
# modules × pairs × (budget + 1 minute): about an hour with the defaults.
#
# Environment:
#   CLING=PATH   run this cling binary instead of building one
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
budget=5m
npairs=2
seed=1
out=$ROOT/bench/results/faults
modules=()
while [ $# -gt 0 ]; do
	case $1 in
	-budget) budget=$2; shift 2 ;;
	-pairs) npairs=$2; shift 2 ;;
	-seed) seed=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run.sh: unknown flag $1 (run.sh -h lists them)" >&2; exit 2 ;;
	*@*) modules+=("$1"); shift ;;
	*) echo "run.sh: $1: want MODULE@VERSION" >&2; exit 2 ;;
	esac
done
if [ ${#modules[@]} -eq 0 ]; then
	modules=(github.com/expr-lang/expr@v1.17.8 github.com/hashicorp/hcl@v1.0.0 github.com/yuin/goldmark@v1.8.7
		github.com/pelletier/go-toml/v2@v2.2.4 github.com/BurntSushi/toml@v1.6.0)
fi
command -v jq >/dev/null || { echo "run.sh: needs jq" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/cling-faults.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
if [ -z "${CLING:-}" ]; then
	(cd "$ROOT" && go build -o "$work/cling" ./cmd/cling)
	CLING=$work/cling
fi
mkdir -p "$out"

for spec in "${modules[@]}"; do
	path=${spec%@*}
	short=$(echo "$spec" | tr '/@' '__')
	src=$(cd "$work" && go mod download -json "$spec" | jq -r '.Dir // empty')
	[ -n "$src" ] || { echo "run.sh: go mod download $spec failed" >&2; exit 1; }
	dir=$work/$short
	cp -r "$src" "$dir" && chmod -R u+w "$dir"
	(cd "$dir" && go mod download)
	mkdir -p "$out/$short"
	pairs=$(cd "$dir" && "$CLING" pairs --json ./... |
		jq -r --arg m "$path" \
			'[.pairs[] | select((.caller | startswith($m)) and (.callee | startswith($m)))][] | "\(.caller) \(.callee)"')
	# The first -pairs pairs that can be searched: a caller whose exported
	# API reaches no call site into the callee has nothing to call.
	searched=0
	while read -r caller callee; do
		[ -n "$caller" ] || continue
		[ "$searched" -lt "$npairs" ] || break
		name=$(echo "${caller#"$path"}__${callee#"$path"}" | tr '/' '_')
		report=$out/$short/$name.json
		if [ -s "$report" ]; then
			echo "== $spec $caller -> $callee: done before ($report)" >&2
			searched=$((searched + 1))
			continue
		fi
		echo "== $spec $caller -> $callee: cling gen --faults-only --budget $budget" >&2
		code=0
		(cd "$dir" && "$CLING" gen --faults-only --json --budget "$budget" --seed "$seed" \
			--caller "$caller" --callee "$callee" >"$report.tmp" 2>"$out/$short/$name.log") || code=$?
		if [ $code -ne 0 ]; then
			echo "   failed (exit $code): $(tail -1 "$out/$short/$name.log")" >&2
			rm -f "$report.tmp"
			if grep -q '^cling: no covering function' "$out/$short/$name.log"; then
				echo "   (not counted: the next pair is taken instead)" >&2
			else
				searched=$((searched + 1))
			fi
			continue
		fi
		searched=$((searched + 1))
		faults=$(jq -r '.faultsFile // empty' "$report.tmp")
		if [ -n "$faults" ] && [ -f "$faults" ]; then
			cp "$faults" "$out/$short/${name}_faults_test.go.txt"
		fi
		mv "$report.tmp" "$report"
	done <<<"$pairs"
done

echo "# faults reported (kind, position, call site, reproducer)"
for spec in "${modules[@]}"; do
	short=$(echo "$spec" | tr '/@' '__')
	for report in "$out/$short"/*.json; do
		[ -f "$report" ] || continue
		jq -r --arg m "$spec" --arg p "$(basename "$report" .json)" \
			'.faults // [] | .[] | "\($m) \($p): \(.kind) at \(.pos) (\(.func)), call site \(if .callSite == "" then "none" else .callSite end), \(.test)"' "$report"
	done
done
echo "# per module: pairs run, faults, misuse, failures outside the pair, explicit panics, unconfirmed"
for spec in "${modules[@]}"; do
	short=$(echo "$spec" | tr '/@' '__')
	ls "$out/$short"/*.json >/dev/null 2>&1 || { echo "$spec: no report"; continue; }
	jq -s -r --arg m "$spec" '"\($m): \(length) pairs, \(map(.faults // [] | length) | add) faults, \(map(.misuse) | add) misuse, \(map(.outsidePair // 0) | add) outside the pair, \(map(.explicitPanics) | add) explicit panics, \(map(.unconfirmedFaults) | add) unconfirmed"' "$out/$short"/*.json
done
