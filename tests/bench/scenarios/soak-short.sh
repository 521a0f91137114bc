# SPDX-License-Identifier: MIT
# make test's 2-minute soak (tests/bench/soak-short.sh): scenarios/soak.sh
# under its own name, so that its run directory (build/e2e/soak-short)
# never replaces a `make soak` report.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/bench/scenarios/soak.sh" ||
	{ echo "cannot read soak.sh" >&2; return 1; }
E2E_DESCRIPTION="soak, 2 minutes (make test): fleet readers, update agent, faults at random; all judged"
