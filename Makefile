# cling — integration tests for pairs of Go packages.
GO ?= go
BIN := bin/cling

.PHONY: build test lint bench demo clean

build:
	$(GO) build -o $(BIN) ./cmd/cling

# The test suite (the README's test command; .ci/run runs it too).
test:
	$(GO) test ./...

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^testdata/')); \
	if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi

# Benchmarks: figures go to BENCHMARKS.md (see bench/README.md).
bench: build
	./bench/run.sh

# cling's main job on a bundled fixture, in a temporary copy.
demo: build
	@d=$$(mktemp -d) && cp -r testdata/shop $$d/ && \
	echo "# copy of testdata/shop in $$d/shop" && \
	./$(BIN) -C $$d/shop pairs && echo && \
	./$(BIN) -C $$d/shop analyze --caller ./checkout --callee ./inventory

clean:
	rm -rf bin
