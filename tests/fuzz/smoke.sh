#!/usr/bin/env bash
# make test: each fuzz target for a short bounded time.
cd "$(dirname "$0")/../.." && make -s fuzz-smoke
