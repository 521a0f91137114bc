#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/otimage.md says what otimage does: its exit code table is the one
# status.h gives (scripts/otimage-exits.py), and its examples run and print
# exactly what the page shows (scripts/doc-examples.py). Each check is also
# shown to fail on a page that is wrong.
#
#   tests/tools/otimage-docs.sh      (OTIMAGE=path tests another build)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build}
otimage=${OTIMAGE:-$root/$B/otimage}
page=$root/docs/otimage.md
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${OTIMAGE:-}" ] && ! make -s -C "$root" "$B/otimage" >/dev/null; then
	bad "cannot build $otimage"
	echo "$pass passed, $fail failed"
	exit 1
fi

# 1. The exit table is status.h's, and a stale one is caught.
if python3 "$root/scripts/otimage-exits.py" --check-doc "$page" 2>"$tmp/exits.txt"; then
	ok "docs/otimage.md's exit table is what scripts/otimage-exits.py prints"
else
	bad "$(cat "$tmp/exits.txt")"
fi
sed 's/^| 15 | revoked | `ROOT_KEY_REVOKED` |$/| 15 | revoked | |/' "$page" >"$tmp/stale.md"
if ! cmp -s "$page" "$tmp/stale.md" && ! python3 "$root/scripts/otimage-exits.py" --check-doc "$tmp/stale.md" 2>/dev/null; then
	ok "a table missing a status fails the check"
else
	bad "a stale exit table was not caught"
fi

# 2. Every example runs and prints what the page shows...
if python3 "$root/scripts/doc-examples.py" --bin otimage="$otimage" "$page" >"$tmp/ex.txt" 2>&1; then
	ok "docs/otimage.md's examples: $(tail -1 "$tmp/ex.txt")"
else
	bad "docs/otimage.md's examples:"
	sed 's/^/     /' "$tmp/ex.txt"
fi
# ...and a transcript the tool does not reproduce fails.
cat >"$tmp/wrong.md" <<'MD'
<!-- example: transcript -->
```console
$ otimage inspect missing.img
otimage: missing.img: some other message
```
MD
if ! python3 "$root/scripts/doc-examples.py" --bin otimage="$otimage" "$tmp/wrong.md" >"$tmp/wrong.txt" 2>&1 &&
	grep -qF '+otimage: missing.img: reading or writing a file failed' "$tmp/wrong.txt"; then
	ok "a transcript otimage does not reproduce fails, with the difference"
else
	bad "a wrong transcript was not caught:"
	sed 's/^/     /' "$tmp/wrong.txt"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
