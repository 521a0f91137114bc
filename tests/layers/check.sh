#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layering rule (scripts/check-layers.py) on the tree as built, the
# proof that the check can fail, HACKING.md's table against the rule, and
# every path the docs name (scripts/check-doc-paths.py), with its own proof.
#
#   tests/layers/check.sh      (after `make all`; B=build/asan is not read)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build}
check=$root/scripts/check-layers.py
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The tree as built: no include or call goes up.
if python3 "$check" --build "$root/$B" >"$tmp/real.txt" 2>&1; then
	ok "$(tail -1 "$tmp/real.txt")"
else
	bad "the tree has layering violations:"
	sed 's/^/     /' "$tmp/real.txt"
fi

# 2. A planted violation: an object of firmware/lib that includes the
#    runtime's header and calls the runtime's mailbox entry. The check must
#    name both uses and fail.
mkdir -p "$tmp/b/firmware/lib" "$tmp/b/firmware/runtime"
cp "$root/$B/firmware/runtime/command.o" "$tmp/b/firmware/runtime/command.o"
cat >"$tmp/planted.c" <<'C'
#include "../runtime/runtime.h"
void planted(void);
void planted(void)
{
	uint32_t n = 0;
	(void)ota_runtime_command(0, 0, 0, 0, 0, &n);
}
C
cp "$tmp/planted.c" "$root/firmware/lib/.planted-layer-test.c"
if (cd "$root" && cc -Ilibotattest/include -Ifirmware/include -DOTA_FREESTANDING -include firmware.h \
	-MMD -MF "$tmp/b/firmware/lib/tag.d" -MT "$tmp/b/firmware/lib/tag.o" \
	-c -o "$tmp/b/firmware/lib/tag.o" firmware/lib/.planted-layer-test.c); then
	python3 "$check" --build "$tmp/b" >"$tmp/planted.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q '^include: firmware/lib/tag.c (firmware/lib) uses firmware/runtime/runtime.h' "$tmp/planted.txt" &&
		grep -q '^call: firmware/lib/tag.c (firmware/lib) calls ota_runtime_command from firmware/runtime' "$tmp/planted.txt"; then
		ok "a planted include and call from firmware/lib into firmware/runtime fail the check"
	else
		bad "the planted violation was not reported (exit $rc):"
		sed 's/^/     /' "$tmp/planted.txt"
	fi
else
	bad "could not compile the planted object"
fi
rm -f "$root/firmware/lib/.planted-layer-test.c"

# 3. The table in HACKING.md is the rule's own.
if python3 "$check" --check-doc "$root/HACKING.md" 2>"$tmp/doc.txt"; then
	ok "HACKING.md's layout table is what the check enforces"
else
	bad "$(cat "$tmp/doc.txt") (run scripts/check-layers.py --markdown)"
fi

# 4. Every path the docs name exists...
if python3 "$root/scripts/check-doc-paths.py" "$root" >"$tmp/docs.txt" 2>&1; then
	ok "$(tail -1 "$tmp/docs.txt")"
else
	bad "the docs name paths that do not exist:"
	sed 's/^/     /' "$tmp/docs.txt"
fi
# ...and a doc naming the old layout fails the check.
mkdir -p "$tmp/docroot/docs"
for d in firmware qemu-model libotattest kernel daemon tests scripts systemd mk; do
	ln -s "$root/$d" "$tmp/docroot/$d"
done
printf 'The boot flow is in `firmware/boot/boot.c`.\n' >"$tmp/docroot/README.md"
: >"$tmp/docroot/HACKING.md"
if ! python3 "$root/scripts/check-doc-paths.py" "$tmp/docroot" >"$tmp/docs-planted.txt" 2>&1 &&
	grep -q 'README.md: names firmware/boot/boot.c' "$tmp/docs-planted.txt"; then
	ok "a doc naming a path that no longer exists fails the check"
else
	bad "the planted stale path was not reported:"
	sed 's/^/     /' "$tmp/docs-planted.txt"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
