# Bestiary: the two commands a newcomer needs are `make serve` and `make test`.
SWIFT ?= swift
BESTIARY = .build/debug/bestiary
PORT ?= 8000

.PHONY: setup build serve test test-swift test-js test-browser bench release clean

## setup: install what building needs (Debian packages; idempotent)
setup:
	@scripts/setup.sh build

## build: compile the bestiary command (debug)
build: setup
	$(SWIFT) build --product bestiary

## serve: build the example site and preview it at http://127.0.0.1:$(PORT)/
serve: build
	$(BESTIARY) serve --port $(PORT)

## test: every test: Swift, the web app's JS modules, the bench's scripts, and the site in a real browser.
## Builds are timed as CI times them (2026-01-01) unless SOURCE_DATE_EPOCH is set: by hand as in CI.
test: export SOURCE_DATE_EPOCH ?= 1767225600
test:
	@scripts/setup.sh test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	node --test Tests/js/
	.venv/bin/python -m pytest -q Tests/scripts Tests/browser

## bench: speed and memory on a generated 10,000-animal corpus (see docs/BENCHMARKS.md)
bench:
	@scripts/setup.sh bench
	scripts/bench.sh

## release: an optimised binary at .build/release/bestiary with Swift's own libraries linked in:
## it runs on a Debian machine without Swift (libcmark, libsqlite3, libcurl and libssl installed) and
## starts in 12 ms instead of 18
release:
	@scripts/setup.sh release
	$(SWIFT) build -c release --static-swift-stdlib --product bestiary

clean:
	rm -rf output .bestiary
