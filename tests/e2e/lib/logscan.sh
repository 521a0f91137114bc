# SPDX-License-Identifier: MIT
# Finding kernel trouble in a guest's logs. Host side.
#
# A scenario fails when any kernel line in the serial log or the guest's
# dmesg matches one of these (case-sensitive, extended regex). They are the
# headers the kernel prints for a bug, a warning, an oops, a lockdep or
# sanitizer report, a stall or a panic; ordinary messages that merely
# contain "bug" ("...and report a bug") do not match.
E2E_KERNEL_PROBLEMS='BUG:|kernel BUG at|WARNING:|Oops|Call Trace|general protection fault|Kernel panic|kernel NULL pointer dereference|Unable to handle|unable to handle|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|lockdep|KASAN|UBSAN|kmemleak|INFO: task .* blocked for more than|rcu: INFO|self-detected stall|soft lockup|hard LOCKUP|refcount_t:|list_add corruption|list_del corruption|double free|use-after-free'

# e2e_strip_escapes < raw > clean: drop the terminal control sequences
# SeaBIOS and systemd write to the serial port, and carriage returns.
e2e_strip_escapes() {
	sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][A-Z0-9]//g' -e 's/\x1b[=>c]//g' -e 's/\r//g'
}

# e2e_kernel_lines FILE...: only lines the kernel printed (timestamped by
# printk), so the scenario's own output on the console never counts.
# Messages userspace wrote to /dev/kmsg ("name[pid]: ...") are skipped too.
e2e_kernel_lines() {
	cat "$@" 2>/dev/null | grep -aE '^\[ *[0-9]+\.[0-9]+\] ' | grep -avE '^\[ *[0-9.]+\] [^ :]+\[[0-9]+\]: '
}

# e2e_kernel_problems ALLOW FILE...: print the offending lines, one each,
# except those matching ALLOW (a scenario's expected messages; may be
# empty). Exit 0 when there is at least one.
e2e_kernel_problems() {
	local allow=$1
	shift
	e2e_kernel_lines "$@" | grep -aE -- "$E2E_KERNEL_PROBLEMS" |
		{ if [ -n "$allow" ]; then grep -avE -- "$allow"; else cat; fi; } |
		sort -u | grep -a .
}
