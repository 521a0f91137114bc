#!/usr/bin/env bash
# The fast subset of the mutation tests (make test): the mutations marked
# "fast: yes" in mutations.txt, each of which must make a unit test fail.
# make mutate runs them all (docs/mutation.md).
exec "$(dirname "$0")/mutate.py" --fast "$@"
