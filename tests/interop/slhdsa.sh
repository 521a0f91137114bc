#!/usr/bin/env bash
# SLH-DSA-SHA2-128s interop: otattest (slhdsa_tool) against @noble/post-quantum
# (slhdsa_noble.mjs), both in FIPS 205 pure mode with an empty context.
#
# Shows: keys from the same seeds are identical; deterministic and
# same-addrnd signatures are byte-identical; each side verifies the other's
# signatures for empty to 1 MiB messages; a flipped bit in message,
# signature or public key is rejected by BOTH; a non-empty context is not
# confused with the empty one; noble's internal API on 0x00 0x00 || M agrees.
# Prints one line per check and "N passed, N failed"; exits 1 on any failure.
#
# Exit codes compared exactly: slhdsa_tool says 12 for an invalid
# signature and 10 for a wrong-length file; slhdsa_noble says 1 for invalid.
set -u
cd "$(dirname "$0")/../.."
# SLHDSA_TOOL=path tests another build of the helper (ASan, a mutant) as is.
B=${B:-build}
tool=${SLHDSA_TOOL:-$B/tests/interop/slhdsa_tool}
noble=(node tests/interop/slhdsa_noble.mjs)
C_INVALID=12 C_BAD_LENGTH=10 N_INVALID=1

if ! command -v node >/dev/null; then
	echo "slhdsa interop: node (Node.js >= 20.19, which noble requires) is not installed"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -d tests/interop/node_modules/@noble/post-quantum ]; then
	echo "slhdsa interop: @noble/post-quantum is not installed (run: make deps)"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ -z "${SLHDSA_TOOL:-}" ] && ! make -s "$tool" >/dev/null; then
	echo "slhdsa interop: cannot build $tool"
	echo "0 passed, 1 failed"
	exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # check NAME CMD...: pass when CMD succeeds
	local name=$1
	shift
	if "$@"; then ok "$name"; else bad "$name"; fi
}
rc_is() { # rc_is WANT CMD...: CMD's exit status is exactly WANT
	local want=$1 rc
	shift
	"$@" 2>"$work/stderr"
	rc=$?
	[ "$rc" -eq "$want" ] && return 0
	echo "     expected exit $want, got $rc: $*" >&2
	sed 's/^/     /' "$work/stderr" >&2
	return 1
}
same() { cmp -s "$1" "$2"; }

# Deterministic test bytes (SHAKE-256 of a label), so failures reproduce.
bytes() { # bytes LABEL LEN OUT
	python3 -c 'import hashlib,sys; open(sys.argv[3],"wb").write(hashlib.shake_256(sys.argv[1].encode()).digest(int(sys.argv[2])))' "$1" "$2" "$3"
}
flip() { # flip IN BIT OUT
	python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); i=int(sys.argv[2]); b[i//8]^=1<<(i%8); open(sys.argv[3],"wb").write(b)' "$1" "$2" "$3"
}

c_verify_ok() { rc_is 0 "$tool" verify "$@"; }
c_verify_rejects() { rc_is $C_INVALID "$tool" verify "$@"; }
n_verify_ok() { rc_is 0 "${noble[@]}" verify "$@"; }
n_verify_rejects() { rc_is $N_INVALID "${noble[@]}" verify "$@"; }
both_reject() { c_verify_rejects "$@" && n_verify_rejects "$@"; }

# --- keys: the same seeds give the same keys ---------------------------------
head -c 48 /dev/urandom >"$work/seed2"
echo "     random seed for key 2: $(od -An -tx1 -v "$work/seed2" | tr -d ' \n')"
bytes "otattest slhdsa interop seed 0" 48 "$work/seed0"
bytes "otattest slhdsa interop seed 1" 48 "$work/seed1"
for k in 0 1 2; do
	"$tool" keygen "$work/seed$k" "$work/c$k.pk" "$work/c$k.sk" &&
		"${noble[@]}" keygen "$work/seed$k" "$work/n$k.pk" "$work/n$k.sk"
	check "keygen, key $k: otattest and noble give identical pk and sk" \
		eval 'same "$work/c$k.pk" "$work/n$k.pk" && same "$work/c$k.sk" "$work/n$k.sk"'
done
pk=$work/c0.pk sk=$work/c0.sk

# --- deterministic signatures: identical, and each verifies the other's ------
for len in 0 1 63 64 1000 65539 1048576; do
	m=$work/m$len
	bytes "message $len" "$len" "$m"
	"$tool" sign "$sk" "$m" "$m.c.sig"
	"${noble[@]}" sign "$sk" "$m" "$m.n.sig"
	check "deterministic, $len-byte message: signatures byte-identical" same "$m.c.sig" "$m.n.sig"
	check "deterministic, $len-byte message: noble verifies otattest's" n_verify_ok "$pk" "$m" "$m.c.sig"
	check "deterministic, $len-byte message: otattest verifies noble's" c_verify_ok "$pk" "$m" "$m.n.sig"
done

# --- hedged signatures with the same addrnd ----------------------------------
for len in 0 1000; do
	m=$work/m$len
	head -c 16 /dev/urandom >"$work/addrnd$len"
	"$tool" sign "$sk" "$m" "$m.ch.sig" --addrnd "$work/addrnd$len"
	"${noble[@]}" sign "$sk" "$m" "$m.nh.sig" --addrnd "$work/addrnd$len"
	check "hedged, $len-byte message: same addrnd gives identical signatures" same "$m.ch.sig" "$m.nh.sig"
	check "hedged, $len-byte message: differs from the deterministic one" eval '! same "$m.ch.sig" "$m.c.sig"'
	check "hedged, $len-byte message: verified by both" \
		eval 'c_verify_ok "$pk" "$m" "$m.nh.sig" && n_verify_ok "$pk" "$m" "$m.ch.sig"'
done

# --- other keys: each side signs, the other verifies --------------------------
for k in 1 2; do
	m=$work/m1000
	"$tool" sign "$work/c$k.sk" "$m" "$work/k$k.c.sig"
	"${noble[@]}" sign "$work/n$k.sk" "$m" "$work/k$k.n.sig" --addrnd "$work/addrnd0"
	check "key $k: noble verifies otattest's, otattest verifies noble's (hedged)" \
		eval 'n_verify_ok "$work/c$k.pk" "$m" "$work/k$k.c.sig" && c_verify_ok "$work/n$k.pk" "$m" "$work/k$k.n.sig"'
	check "key $k: a signature under key $k fails under key 0 in both" both_reject "$pk" "$m" "$work/k$k.n.sig"
done

# --- a flipped bit fails under both ------------------------------------------
m=$work/m1000 sig=$work/m1000.n.sig # noble's signature; otattest's is identical
for bit in 0 3999 7999; do
	flip "$m" $bit "$work/flip.msg"
	check "message bit $bit flipped: rejected by both" both_reject "$pk" "$work/flip.msg" "$sig"
done
# R, a FORS secret, a FORS auth node, the first WOTS+ chain, an XMSS auth
# node of layer 3, the last bit of the top layer.
for bit in 5 $((16 * 8 + 1)) $((16 * 8 * 5 + 6)) $((2928 * 8 + 2)) $(((2928 + 3 * 704 + 600) * 8)) $((7856 * 8 - 1)); do
	flip "$sig" $bit "$work/flip.sig"
	check "signature bit $bit flipped: rejected by both" both_reject "$pk" "$m" "$work/flip.sig"
done
for bit in 0 127 128 255; do
	flip "$pk" $bit "$work/flip.pk"
	check "public key bit $bit flipped: rejected by both" both_reject "$work/flip.pk" "$m" "$sig"
done

# --- like with like: the empty context, and noble's internal API --------------
"${noble[@]}" sign "$sk" "$m" "$work/ctx.sig" --context otattest
check "noble signature with context \"otattest\" is valid under that context" \
	n_verify_ok "$pk" "$m" "$work/ctx.sig" --context otattest
check "noble signature with context \"otattest\" is rejected by otattest (empty context)" \
	c_verify_rejects "$pk" "$m" "$work/ctx.sig"
check "otattest's signature is rejected by noble under context \"otattest\"" \
	n_verify_rejects "$pk" "$m" "$m.c.sig" --context otattest
"${noble[@]}" sign "$sk" "$m" "$work/internal.sig" --internal
check "noble slh_sign_internal over 0x00 0x00 || M equals otattest's signature" \
	same "$work/internal.sig" "$m.c.sig"
check "noble slh_verify_internal over 0x00 0x00 || M accepts otattest's signature" \
	n_verify_ok "$pk" "$m" "$m.c.sig" --internal

# --- the helper refuses wrong lengths and writes nothing ----------------------
head -c 7855 "$sig" >"$work/short.sig"
check "slhdsa_tool: a 7855-byte signature is refused as a length error" \
	rc_is $C_BAD_LENGTH "$tool" verify "$pk" "$m" "$work/short.sig"
head -c 31 "$pk" >"$work/short.pk"
check "slhdsa_tool: a 31-byte public key is refused as a length error" \
	rc_is $C_BAD_LENGTH "$tool" verify "$work/short.pk" "$m" "$sig"
head -c 47 "$work/seed0" >"$work/short.seed"
check "slhdsa_tool: a 47-byte seed is refused and no key file is written" \
	eval 'rc_is $C_BAD_LENGTH "$tool" keygen "$work/short.seed" "$work/none.pk" "$work/none.sk" && [ ! -e "$work/none.pk" ] && [ ! -e "$work/none.sk" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
