#!/usr/bin/env bash
# cling's benchmarks (make bench). See bench/README.md for what each figure
# means. Prints markdown on stdout, progress on stderr, and keeps a copy of
# the report (and CPU profiles) in bench/results/ (ignored by git).
#
# Needs: go, network access to the Go module proxy (or a module cache that
# already holds the modules below). Takes several minutes.
#
# Environment:
#   BENCH_RUNS=N        timed rounds per measurement (default 7)
#   CLING=PATH          measure this cling binary instead of building one
#   BENCH_KEEP=1        keep the work directory (printed on stderr)
#   BENCH_EFFECTIVENESS=0  skip the two-hour effectiveness benchmark
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${BENCH_RUNS:-7}

# The real modules measured, at fixed versions.
EXPR=github.com/expr-lang/expr@v1.17.8
HCL=github.com/hashicorp/hcl@v1.0.0
GOLDMARK=github.com/yuin/goldmark@v1.8.7

log() { printf 'bench: %s\n' "$*" >&2; }

# fetch MODULE@VERSION DEST: a writable copy of a module from the module
# proxy (through the module cache).
fetch() {
	local dir
	dir=$(cd "$WORK" && go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
	if [ -z "$dir" ] || [ ! -d "$dir" ]; then
		echo "bench: cannot download $1" >&2
		return 1
	fi
	cp -R "$dir" "$2"
	chmod -R u+w "$2"
}

# probe_overhead LABEL DIR CALLER CALLEE COUNT [more probeoverhead flags]
probe_overhead() {
	local label=$1 dir=$2 caller=$3 callee=$4 count=$5
	shift 5
	log "probe overhead: $label"
	"$BIN/probeoverhead" -dir "$dir" -caller "$caller" -callee "$callee" -count "$count" \
		-runs "$RUNS" -warmup 1 -target 3 -label "$label" -json "$JSON" "$@"
}

# cbc_vs_plain LABEL DIR CALLER CALLEE
cbc_vs_plain() {
	local label=$1 dir=$2 caller=$3 callee=$4
	log "cbc end to end: $label"
	echo
	echo "#### $label: \`$caller\` → \`$callee\`"
	echo
	"$BIN/benchcmp" -dir "$dir" -runs "$RUNS" -warmup 1 -baseline plain -json "$JSON" -show "$BIN/=" \
		-ratio 'cbc/plain' -ratio 'cbc/plain+analyze' -ratio 'cbc-analyze/plain' \
		-target 'cbc/plain+analyze<=2' \
		-- plain go test -count=1 -vet=off "$caller" \
		--- analyze "$CLING" analyze --caller "$caller" --callee "$callee" \
		--- cbc "$CLING" cbc --caller "$caller" --callee "$callee"
}

# cbc_json NAME DIR CALLER CALLEE: cling cbc --json into $WORK/cbc-NAME.json.
cbc_json() {
	local name=$1 dir=$2 caller=$3 callee=$4 status=0
	log "coverage: $name"
	(cd "$dir" && "$CLING" cbc --json --caller "$caller" --callee "$callee") \
		>"$WORK/cbc-$name.json" 2>"$WORK/cbc-$name.err" || status=$?
	if [ "$status" -ne 0 ]; then
		echo "- \`cling cbc --caller $caller --callee $callee\` ($name) exited with status $status: $(head -c 300 "$WORK/cbc-$name.err")"
	fi
}

main() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/cling-bench.XXXXXX")
	if [ -n "${BENCH_KEEP:-}" ]; then
		log "work directory: $WORK"
	else
		trap 'chmod -R u+w "$WORK" 2>/dev/null || true; rm -rf "$WORK"' EXIT
	fi
	BIN=$WORK/bin
	JSON=$RESULTS/$STAMP.jsonl
	mkdir -p "$BIN"

	log "building cling and the bench tools"
	(cd "$ROOT" && go build -o "$BIN/" ./bench/cmd/benchcmp ./bench/cmd/probeoverhead ./bench/cmd/cbcsummary)
	if [ -z "${CLING:-}" ]; then
		(cd "$ROOT" && go build -o "$BIN/cling" ./cmd/cling)
		CLING=$BIN/cling
	fi
	local tools
	tools=$(cd "$ROOT" && go list -m -f '{{.Version}}' golang.org/x/tools)
	log "installing golang.org/x/tools/cmd/callgraph@$tools"
	(cd "$WORK" && GOBIN=$BIN go install "golang.org/x/tools/cmd/callgraph@$tools")

	log "fetching $EXPR $HCL $GOLDMARK"
	fetch "$EXPR" "$WORK/expr"
	fetch "$HCL" "$WORK/hcl"
	fetch "$GOLDMARK" "$WORK/goldmark"
	cp -R "$ROOT/testdata/cpubound" "$WORK/cpubound"

	local commit=unknown
	if commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null); then
		if [ -n "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ]; then
			commit="$commit (with uncommitted changes)"
		fi
	fi
	local cpu
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1 || true)

	cat <<EOF
# cling benchmark run

- date: $(date -u '+%Y-%m-%d %H:%M UTC')
- machine: $(uname -sm), ${cpu:-unknown CPU}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores
- $(go version)
- cling: $commit; callgraph: golang.org/x/tools@$tools
- modules: $EXPR, $HCL, $GOLDMARK, testdata/cpubound
- every figure is the median of $RUNS timed runs, commands alternating, after one untimed warm-up run of each

## Analysis (cling pairs / cling analyze)

Module $EXPR. Targets: \`cling pairs ./...\` at most 1.5× the wall time and
1.5× the peak RSS of \`callgraph -algo=vta ./...\`; \`cling analyze\` of one
pair below \`cling pairs\`. Standard output of every command goes to
/dev/null (callgraph prints the whole graph).

EOF
	log "analysis: cling pairs vs callgraph -algo=vta on $EXPR"
	"$BIN/benchcmp" -dir "$WORK/expr" -runs "$RUNS" -warmup 1 -baseline callgraph -json "$JSON" -show "$BIN/=" \
		-target 'cling pairs/callgraph<=1.5' -target 'rss:cling pairs/callgraph<=1.5' \
		-target 'cling analyze/cling pairs<1' -target 'rss:cling analyze/cling pairs<1' \
		-- "cling pairs" "$CLING" pairs ./... \
		--- callgraph "$BIN/callgraph" -algo=vta ./... \
		--- "cling analyze" "$CLING" analyze --caller ./parser --callee ./parser/lexer
	echo
	echo "Pairs found: $(cd "$WORK/expr" && "$CLING" pairs ./... | tail -n +2 | wc -l | tr -d ' ') (non-trivial); parser → parser/lexer: $(cd "$WORK/expr" && "$CLING" analyze --caller ./parser --callee ./parser/lexer | sed -n 3p)."

	cat <<EOF

## Probes (cling cbc)

### Probe overhead

Run time of the caller's test binary built with cling's probes (the
overlay \`cling cbc\` uses) over the same binary built plainly; compilation
not included. Target: at most 3×.

EOF
	probe_overhead "testdata/cpubound: \`./calc\` → \`./lexer\`" "$WORK/cpubound" ./calc ./lexer 1 \
		-cpuprofile "$RESULTS/$STAMP-cpubound.pprof"
	probe_overhead "expr: \`./parser\` → \`./parser/lexer\`" "$WORK/expr" ./parser ./parser/lexer 150 -header=false
	probe_overhead "hcl: \`./hcl/parser\` → \`./hcl/scanner\`" "$WORK/hcl" ./hcl/parser ./hcl/scanner 500 -header=false
	probe_overhead "goldmark: \`.\` → \`./parser\`" "$WORK/goldmark" . ./parser 1 -header=false
	probe_overhead "testdata/cpubound, \`--criteria all\`" "$WORK/cpubound" ./calc ./lexer 1 -criteria all -header=false
	probe_overhead "testdata/cpubound, \`--criteria weak-mutation\`" "$WORK/cpubound" ./calc ./lexer 1 -criteria weak-mutation -header=false
	probe_overhead "expr, \`--criteria all\`" "$WORK/expr" ./parser ./parser/lexer 150 -criteria all -header=false
	cat <<EOF

(tests × count: test functions × \`-test.count\`; the real suites are short,
so they are repeated to run for about half a second.)

Where the instrumented fixture spends its time (\`go tool pprof -top\` of
bench/results/$STAMP-cpubound.pprof.instrumented, first entries):

\`\`\`
$(go tool pprof -top -nodecount=15 "$RESULTS/$STAMP-cpubound.pprof.instrumented" 2>/dev/null | sed -n '/flat%/,$p')
\`\`\`

### cling cbc end to end

Wall time of \`cling cbc\` (analysis, instrumentation, instrumented build,
test run) against a plain \`go test -count=1 -vet=off\` of the same package
(cbc runs go test with -vet=off too) and \`cling analyze\` of the same pair.
Warm: the go build cache holds both the plain and the instrumented build
(the warm-up run compiles them). Target: \`cbc / (plain + analyze)\` at most 2.
EOF
	cbc_vs_plain "testdata/cpubound" "$WORK/cpubound" ./calc ./lexer
	cbc_vs_plain "expr" "$WORK/expr" ./parser ./parser/lexer
	cbc_vs_plain "hcl" "$WORK/hcl" ./hcl/parser ./hcl/scanner
	cbc_vs_plain "goldmark" "$WORK/goldmark" . ./parser

	cat <<EOF

### Coupled-branch coverage of the modules' own test suites

\`cling cbc --json --caller R --callee E\`, run in each module's root.

EOF
	cbc_json cpubound "$WORK/cpubound" ./calc ./lexer
	cbc_json expr "$WORK/expr" ./parser ./parser/lexer
	cbc_json hcl "$WORK/hcl" ./hcl/parser ./hcl/scanner
	cbc_json goldmark "$WORK/goldmark" . ./parser
	cbc_json goldmark-ext "$WORK/goldmark" ./extension ./text
	"$BIN/cbcsummary" "testdata/cpubound=$WORK/cbc-cpubound.json" "$EXPR=$WORK/cbc-expr.json" \
		"$HCL=$WORK/cbc-hcl.json" "$GOLDMARK=$WORK/cbc-goldmark.json" "$GOLDMARK=$WORK/cbc-goldmark-ext.json"

	cat <<EOF

## Executor throughput (cling gen)

Test executions per second per worker on the personcar fixture, 1 and 2
workers, with results in batches and one write per result, against \`go
test -fuzz\` on a fuzz target calling the same entry function (the speed
of light for in-process execution; target ≥ 5,000/s per worker and ≥ 0.4×
fuzz); and, as the search runs tests (Explore, 2 workers), the hostile
fixture against personcar (target ≥ 1/50).

EOF
	log "executor throughput"
	(cd "$ROOT" && go run ./bench/throughput)

	# Mutation benchmarks belong to bench/mutate; their output is appended.
	if [ -x "$ROOT/bench/mutate/run.sh" ]; then
		log "running bench/mutate/run.sh"
		echo
		CLING=$CLING BENCH_RUNS=$RUNS BENCH_WORK=$WORK "$ROOT/bench/mutate/run.sh"
	fi

	# The pre-merge gate against go test on a change of expr's lexer.
	if [ -x "$ROOT/bench/ci/run.sh" ]; then
		log "running bench/ci/run.sh"
		echo
		echo "## Pre-merge gate (cling ci)"
		echo
		CLING=$CLING BENCH_RUNS=$RUNS BENCH_WORK=$WORK/ci "$ROOT/bench/ci/run.sh"
	fi

	# The effectiveness benchmark takes about two hours; BENCH_EFFECTIVENESS=0
	# skips it.
	if [ "${BENCH_EFFECTIVENESS:-1}" != 0 ]; then
		log "running bench/effectiveness/run.sh (about two hours)"
		echo
		CLING=$CLING "$ROOT/bench/effectiveness/run.sh"
	fi
}

RESULTS=$ROOT/bench/results
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$RESULTS"
main "$@" | tee "$RESULTS/$STAMP.md"
log "report: bench/results/$STAMP.md"
