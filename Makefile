# cling — integration tests for pairs of Go packages.
GO ?= go
BIN := bin/cling

.PHONY: build test lint bench demo clean

build:
	$(GO) build -o $(BIN) ./cmd/cling

# The test suite (the README's test command; .ci/run runs it too). The
# end-to-end tests of cmd/cling run the real binary for several minutes,
# more than go test's default limit of 10 minutes per package on a busy
# machine.
test:
	$(GO) test -timeout 30m ./...

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^testdata/')); \
	if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi

# Benchmarks: figures go to BENCHMARKS.md (see bench/README.md).
bench: build
	./bench/run.sh

# cling's main job on a bundled fixture, in a temporary copy: generate
# integration tests of the shop's checkout package calling pricing, show
# the start of the file, and measure the coverage before and after.
demo: build
	@d=$$(mktemp -d) && cp -r testdata/shop $$d/ && cd $$d/shop && \
	echo "== copy of testdata/shop in $$d/shop" && \
	echo "== coupled-branch coverage of the hand-written tests" && \
	$(CURDIR)/$(BIN) cbc --caller ./checkout --callee ./pricing | head -3 && \
	echo "== cling gen" && \
	$(CURDIR)/$(BIN) gen --caller ./checkout --callee ./pricing --budget 20s && \
	echo "== the first generated test" && \
	sed -n '/^func Test/,/^}/p' checkout/cling_pricing_test.go | sed '/^}/q' && \
	echo "== coverage with the generated tests" && \
	$(CURDIR)/$(BIN) cbc --caller ./checkout --callee ./pricing | head -3 && \
	go test ./checkout

clean:
	rm -rf bin
