#!/usr/bin/env bash
# otattest-verify --batch: a directory, files and a list on standard input,
# verdicts in input order (also past the 256-job ring and with one or many
# threads), per-evidence nonces and records from the files beside each
# evidence, --json Lines with a "file" member, ERROR lines for evidence that
# cannot be used, the summary on stderr, exit codes, and refused usage.
# Evidence comes from the firmware's runtime (tests/interop/evidence_tool).
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
verify=${VERIFY:-$B/otattest-verify}
py=/usr/bin/python3

suite="verify-batch"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
make -s "$tool" "$verify" >/dev/null || fail_early "cannot build $tool and $verify"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/src" && "$tool" "$work/src" || fail_early "evidence_tool failed"
ca=$work/src/ca.pem
d=$work/ev
mkdir -p "$d/sub" "$d/.hidden"
# a: good, with its nonce and record; b: someone else's nonce; c: not evidence;
# d: no nonce file; e: a record that is not this boot's.
cp "$work/src/evidence.cose" "$d/a.cose"
cp "$work/src/nonce.hex" "$d/a.nonce"
cp "$work/src/record.bin" "$d/a.record"
cp "$work/src/evidence.cose" "$d/b.cose"
echo 00112233445566778899aabbccddeeff >"$d/b.nonce"
cp "$work/src/record.bin" "$d/b.record"
printf '\xd2\x80' >"$d/c.cose" # tag 18 (COSE_Sign1) around an empty array
cp "$work/src/nonce.hex" "$d/c.nonce"
cp "$work/src/record.bin" "$d/c.record"
cp "$work/src/evidence.cose" "$d/d.cose"
cp "$work/src/record.bin" "$d/d.record"
cp "$work/src/evidence.cose" "$d/e.cose"
cp "$work/src/nonce.hex" "$d/e.nonce"
head -c 576 /dev/zero >"$d/e.record"
cp "$work/src/evidence.cose" "$d/.hidden.cose"
cp "$work/src/evidence.cose" "$d/sub/x.cose"

run() { # out-prefix args...: stdout, stderr and exit code
	local p=$1
	shift
	"$verify" "$@" >"$work/$p.out" 2>"$work/$p.err"
	echo $? >"$work/$p.rc"
}

run dir --batch --ca "$ca" --nonce-files --record-files "$d"
cat >"$work/want" <<EOF
$d/a.cose: PASS
$d/b.cose: FAIL VERIFY_NONCE_MISMATCH
EOF
[ "$(sed -n 1,2p "$work/dir.out")" = "$(cat "$work/want")" ]
ok $? "a directory: files in name order, PASS and FAIL with the failed check"
grep -q "^$d/c.cose: FAIL COSE_BAD_HEADER" "$work/dir.out"
ok $? "a file that is not evidence fails with its COSE reason"
grep -q "^$d/d.cose: ERROR .*d.nonce" "$work/dir.out"
ok $? "a missing nonce file is an ERROR naming it"
grep -q "^$d/e.cose: FAIL VERIFY_RECORD_MISMATCH" "$work/dir.out"
ok $? "a record that is not the one signed fails VERIFY_RECORD_MISMATCH"
[ "$(wc -l <"$work/dir.out")" = 5 ] && ! cut -d: -f1 "$work/dir.out" | grep -q "hidden\|sub/\|\.nonce\|\.record"
ok $? "hidden files, subdirectories and side files are not evidence (5 lines)"
[ "$(cat "$work/dir.rc")" = 1 ]
ok $? "exit 1 when any evidence did not pass"
grep -q "5 evidences: 1 passed, 3 failed, 1 unusable; .* evidences/s, .* per CPU-second" "$work/dir.err"
ok $? "the summary on stderr counts every outcome and gives the rate"

run json --batch --json --ca "$ca" --nonce-files --record-files "$d"
$py - "$work/json.out" "$d" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
objs = [json.loads(l) for l in lines]
d = sys.argv[2]
assert [o["file"] for o in objs] == [f"{d}/{n}.cose" for n in "abcde"], [o["file"] for o in objs]
assert [o["verdict"] for o in objs] == ["pass", "fail", "fail", "error", "fail"], objs
assert objs[0]["authentic"] is True and objs[0]["claims"]["stages"]
assert objs[1]["failures"][0]["check"] == "VERIFY_NONCE_MISMATCH"
assert objs[3]["status"] == "HOST_IO" and "d.nonce" in objs[3]["detail"]
PY
ok $? "--json: one object per line, in order, with file, verdict, failures and claims"

# Only good evidence, from a list on standard input and as files: exit 0.
for i in 1 2 3; do
	cp "$d/a.cose" "$work/g$i.cose"
	cp "$d/a.nonce" "$work/g$i.nonce"
done
printf '%s\n' "$work/g1.cose" "$work/g2.cose" >"$work/list"
"$verify" --batch --ca "$ca" --nonce-files - "$work/g3.cose" <"$work/list" >"$work/stdin.out" 2>/dev/null
rc=$?
[ $rc = 0 ] && [ "$(cut -d: -f1 "$work/stdin.out" | tr '\n' ' ')" = "$work/g1.cose $work/g2.cose $work/g3.cose " ]
ok $? "paths on standard input, then a file: all pass, exit 0, in order"

# Past the ring (256 jobs in flight): 600 evidences, the same order with one thread and many.
mkdir "$work/many"
nonce=$(cat "$d/a.nonce")
for i in $(seq -w 1 600); do
	ln -s "$d/a.cose" "$work/many/$i.cose"
done
"$verify" --batch --ca "$ca" --nonce "$nonce" --jobs 1 "$work/many" >"$work/j1.out" 2>/dev/null
rc1=$?
"$verify" --batch --ca "$ca" --nonce "$nonce" --jobs 4 "$work/many" >"$work/j4.out" 2>"$work/j4.err"
rc4=$?
[ $rc1 = 0 ] && [ $rc4 = 0 ] && [ "$(wc -l <"$work/j4.out")" = 600 ] &&
	cmp -s "$work/j1.out" "$work/j4.out" && [ "$(head -c 4 <(sed -n 600p "$work/j4.out" | xargs basename))" = "600." ]
ok $? "600 evidences, one nonce for all: 600 PASS lines in the same order with 1 and 4 threads"
grep -q "on 4 threads" "$work/j4.err"
ok $? "--jobs 4 runs 4 threads"
"$verify" --batch -q --ca "$ca" --nonce "$nonce" "$work/many" >"$work/q.out" 2>"$work/q.err"
[ $? = 0 ] && [ ! -s "$work/q.out" ] && [ ! -s "$work/q.err" ]
ok $? "-q: nothing printed, exit 0"

# Usage.
expect_usage() { # name args...
	local name=$1
	shift
	"$verify" "$@" >/dev/null 2>&1
	[ $? = 2 ]
	ok $? "usage error (exit 2): $name"
}
expect_usage "--batch without an input" --batch --ca "$ca" --no-nonce
expect_usage "--batch with two nonce choices" --batch --ca "$ca" --no-nonce --nonce-files "$d"
expect_usage "--batch with --record" --batch --ca "$ca" --no-nonce --record "$d/a.record" "$d"
expect_usage "--jobs 0" --batch --ca "$ca" --no-nonce --jobs 0 "$d"
expect_usage "--jobs without --batch" --ca "$ca" --no-nonce --jobs 2 "$d/a.cose"
expect_usage "--nonce-files without --batch" --ca "$ca" --nonce-files "$d/a.cose"
"$verify" --batch --ca "$work/nothing.pem" --no-nonce "$d" >/dev/null 2>&1
[ $? = 22 ]
ok $? "an unreadable CA stops the batch before it starts (exit 22)"

finish
