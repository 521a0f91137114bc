# SPDX-License-Identifier: MIT
# Self-test of the runner: a guest that never finishes is killed at the
# scenario's timeout and reported as timed out.
E2E_DESCRIPTION="self-test: a hung guest is killed at its timeout"
E2E_TIMEOUT=8
E2E_EXPECT=timeout

guest_main() {
	sleep 1000
}
