# SPDX-License-Identifier: MIT
# Finding kernel trouble in a guest's logs. Host side.
#
# A scenario fails when any kernel line in the serial log or the guest's
# dmesg matches one of these (case-sensitive, extended regex). They are the
# headers the kernel prints for a bug, a warning, an oops, a lockdep or
# sanitizer report, a stall or a panic; ordinary messages that merely
# contain "bug" ("...and report a bug") do not match, nor do the debug
# kernel's boot lines that name a checker ("RCU lockdep checking is
# enabled", "kasan: KernelAddressSanitizer initialized"): a checker is
# matched by the header of its report.
E2E_KERNEL_PROBLEMS='BUG:|kernel BUG at|WARNING:|Oops|Call Trace|general protection fault|Kernel panic|kernel NULL pointer dereference|Unable to handle|unable to handle|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|BUG: KASAN:|BUG: KFENCE:|UBSAN:|ODEBUG:|suspected memory leak|INFO: task .* blocked for more than|rcu: INFO|self-detected stall|soft lockup|hard LOCKUP|refcount_t:|list_add corruption|list_del corruption|double free|use-after-free'

# (kmemleak's own boot lines name it too, so its pattern is the line a scan
# that found something prints; the report itself comes from
# e2e_kmemleak_problems.)

# e2e_kernel_checker LINE: the name of the kernel checker that printed a
# problem line, or nothing for an ordinary BUG/WARNING.
e2e_kernel_checker() {
	case $1 in
	*KASAN*) echo KASAN ;;
	*KFENCE*) echo KFENCE ;;
	*UBSAN*) echo UBSAN ;;
	*"circular locking"* | *"recursive locking"* | *"inconsistent lock state"* | *"suspicious RCU usage"* | *lockdep* | *"lock held when returning"* | *"bad unlock balance"*)
		echo lockdep ;;
	*"sleeping function called from invalid context"* | *"scheduling while atomic"*) echo DEBUG_ATOMIC_SLEEP ;;
	*ODEBUG*) echo DEBUG_OBJECTS ;;
	*"memory leak"* | *"unreferenced object"*) echo kmemleak ;;
	esac
}

# e2e_kernel_problem_summary LINE: the line without its timestamp, after
# the checker's name in brackets when a checker printed it.
e2e_kernel_problem_summary() {
	local c line
	line=$(sed 's/^\[ *[0-9.]*\] //' <<<"$1")
	c=$(e2e_kernel_checker "$line")
	echo "${c:+[$c] }$line"
}

# e2e_kmemleak_problems FILE: one line per object in a kmemleak report
# (/sys/kernel/debug/kmemleak as the guest saved it), naming who allocated
# it: the first frame in a module ("[otattest]"), else the first past the
# allocators.
e2e_kmemleak_problems() {
	[ -s "$1" ] || return 0
	awk '
		function flush() {
			if (obj == "") return
			print obj (mod != "" ? " allocated in " mod : other != "" ? " allocated in " other : "")
		}
		/^unreferenced object/ { flush(); obj = "kmemleak: " $0; mod = ""; other = ""; next }
		/^    \[<[0-9a-f]+>\] / && obj != "" {
			f = $2
			if (mod == "" && $3 ~ /^\[[a-z0-9_]+\]$/) mod = f " " $3
			if (other == "" && f !~ /(^(kmemleak_|__kmalloc|kmalloc|kmem_cache_|__kmem_cache|kvmalloc|__kvmalloc|kzalloc|slab_|__slab|krealloc|__alloc|alloc_pages|__do_kmalloc|__create_object|__vmalloc|vmalloc|kmemdup|kstrdup|kvmemdup)|_noprof\+)/) other = f
		}
		END { flush() }
	' "$1"
}

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
