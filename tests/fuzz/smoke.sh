#!/usr/bin/env bash
# make test: each fuzz target for a short bounded time from the kept
# corpus (FUZZ_SECONDS, default 10: the corpus loads in full, then a short
# look for new coverage; `make fuzz` is the long run), then the
# differential check of the strict decoders over the kept corpora
# (tests/fuzz/differential.py).
cd "$(dirname "$0")/../.." || exit 2
rc=0
FUZZ_SECONDS=${FUZZ_SECONDS:-10} make -s fuzz-smoke || rc=1
make -s build/tests/fuzz/cbor_dump build/otattest-verify build/fuzz/fuzz_evidence_claims || exit 1
/usr/bin/python3 tests/fuzz/differential.py || rc=1
exit $rc
