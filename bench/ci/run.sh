#!/usr/bin/env bash
# Benchmark of `cling ci`: the gate against `go test ./parser/...` on a
# copy of expr v1.17.8 in which one function of parser/lexer changed and
# was committed. The commands run alternately (after one warm-up round)
# through bench/cmd/benchcmp, which prints a markdown table of medians and
# the ratio of `cling ci` to `go test`; target: at most 3.
#
# Environment:
#   CLING=PATH        measure that binary (default: built from this checkout)
#   BENCH_RUNS=N      timed rounds (default 7)
#   BENCH_WORK=DIR    work directory; a repository prepared there by an
#                     earlier run is used again (default: a new temporary
#                     directory, removed at the end)
#   BENCH_JSON=FILE   append the summaries to FILE (JSON lines)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${BENCH_RUNS:-7}
if [ -n "${BENCH_WORK:-}" ]; then
	work=$BENCH_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
fi
if [ -z "${CLING:-}" ]; then
	go build -o "$work/cling" ./cmd/cling
	CLING=$work/cling
fi
go build -o "$work/benchcmp" ./bench/cmd/benchcmp

# The repository: expr as the module proxy serves it, committed on branch
# base, then one change of (*Lexer).scanString committed on main.
repo=$work/expr-ci
git_() {
	GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@cling.invalid \
		GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@cling.invalid \
		GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -C "$repo" "$@"
}
if ! git_ rev-parse -q --verify base >/dev/null 2>&1 || [ "$(git_ rev-list --count base..main 2>/dev/null)" != 1 ]; then
	rm -rf "$repo"
	src=$(go mod download -json github.com/expr-lang/expr@v1.17.8 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	cp -r "$src" "$repo"
	chmod -R u+w "$repo"
	git_ init -q -b main
	git_ add -A
	git_ commit -q -m "expr v1.17.8"
	git_ branch base
	lexer=$repo/parser/lexer/lexer.go
	old="if ch == '\\\\n' || ch == eof {"
	grep -qF "if ch == '\\n' || ch == eof {" "$lexer"
	sed -i "s/$old/if ch == '\\\\n' || ch == '\\\\r' || ch == eof {/" "$lexer"
	git_ commit -q -a -m "lexer: a carriage return ends a string literal too"
fi
echo "bench: expr v1.17.8 with the change in $repo" >&2
echo 'The change, committed on a copy of expr v1.17.8 (`git diff base main`):'
echo
echo '```diff'
git_ diff base main
echo '```'
echo

"$work/benchcmp" -dir "$repo" -runs "$runs" -warmup 1 -baseline "go test" \
	${BENCH_JSON:+-json "$BENCH_JSON"} \
	-show "$CLING=cling" \
	-ratio "cling ci/go test" -target "cling ci/go test<=3" \
	-ratio "cling ci parser/go test" \
	-- "cling ci" "$CLING" ci --base base \
	--- "cling ci parser" "$CLING" ci ./parser/... --base base \
	--- "go test" go test -count=1 ./parser/...
