# SPDX-License-Identifier: MIT
# The runner fails a scenario whose host_check fails at any command, not
# only at its last one (a subshell on the left of || would ignore set -e).
# Passes only because the runner reports exactly that (E2E_EXPECT).
E2E_DESCRIPTION="harness: a host_check failing before its last command fails the scenario"
E2E_EXPECT=host-check-fails

guest_main() {
	e2e_log "nothing to do in the guest"
}

host_check() {
	false
	echo "host_check went on after a failing command"
}
