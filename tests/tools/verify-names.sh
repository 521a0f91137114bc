#!/usr/bin/env bash
# otattest-verify with a key names file (docs/keynames.md): the root key
# and each stage's key chain by name, an unnamed key as its short hex,
# key_chain in --json, a policy failure's key id followed by its name; a
# names file that does not parse refused with its line (exit 10), one
# given that does not exist refused (exit 22), and the default path's
# absence is no error. Evidence comes from the firmware's runtime
# (tests/interop/evidence_tool). Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
verify=${VERIFY:-$B/otattest-verify}

suite="verify-names"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
make -s "$tool" "$verify" >/dev/null || fail_early "cannot build $tool and $verify"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" "$work" >/dev/null || fail_early "evidence_tool failed"
args=(--ca "$work/ca.pem" --nonce "$(cat "$work/nonce.hex")")

"$verify" --json "${args[@]}" --key-names /dev/null "$work/evidence.cose" >"$work/plain.json"
ok $? "verifies with an empty names file"
# The BL0 stage signed through delegates: name its root and its leaf, not the one between.
jq -e '.claims.stages[1].key_ids | length == 3' "$work/plain.json" >/dev/null ||
	fail_early "the fixture's BL0 stage has no two-delegate chain"
root=$(jq -r '.claims.stages[1].key_ids[0]' "$work/plain.json")
mid=$(jq -r '.claims.stages[1].key_ids[1]' "$work/plain.json")
leaf=$(jq -r '.claims.stages[1].key_ids[2]' "$work/plain.json")
printf '# names\n%s owner-root\n%s ci-signer\n' "$root" "$leaf" >"$work/names"

"$verify" "${args[@]}" --key-names "$work/names" "$work/evidence.cose" >"$work/t.out"
ok $? "verifies with names"
grep -q "root key    $root (owner-root)$" "$work/t.out"
ok $? "root key line: the id and its name"
grep -qx "          key chain   owner-root > ${mid:0:16} > ci-signer" "$work/t.out"
ok $? "key chain line by name, the unnamed delegate as short hex"

"$verify" --json "${args[@]}" --key-names "$work/names" "$work/evidence.cose" >"$work/t.json"
jq -e --arg r "$root" --arg m "$mid" '.claims.stages[1].key_chain[0:2] == [{"key_id": $r, "name": "owner-root"}, {"key_id": $m, "name": null}]' "$work/t.json" >/dev/null
ok $? "--json: key_chain with the name, null for the unnamed key"
jq -e '[.claims.stages[] | (.key_chain | map(.key_id)) == .key_ids] | all' "$work/t.json" >/dev/null
ok $? "--json: key_chain lists key_ids in order"

# A policy failure names the key: its id, then its name.
printf 'allowed_root_key = %s\n' "$(printf 'ab%.0s' $(seq 32))" >"$work/policy"
"$verify" "${args[@]}" --key-names "$work/names" --policy "$work/policy" "$work/evidence.cose" >"$work/p.out"
ok $([ $? = 1 ] && echo 0 || echo 1) "the policy refuses the root key (exit 1)"
grep -q "FAILED VERIFY_ROOT_KEY_NOT_ALLOWED: bl0 root key $root (owner-root) is not in allowed_root_key" "$work/p.out"
ok $? "failure detail: the key id followed by its name"

printf '%s owner-root\n%s bad name\n' "$root" "$leaf" >"$work/bad"
"$verify" "${args[@]}" --key-names "$work/bad" "$work/evidence.cose" >"$work/b.out" 2>"$work/b.err"
ok $([ $? = 10 ] && echo 0 || echo 1) "a names file that does not parse: exit 10"
grep -q "$work/bad:2: blank after the name" "$work/b.err"
ok $? "the refusal names file and line: $(head -c 200 "$work/b.err")"
"$verify" "${args[@]}" --key-names "$work/missing" "$work/evidence.cose" >/dev/null 2>"$work/m.err"
ok $([ $? = 22 ] && echo 0 || echo 1) "a --key-names file that does not exist: exit 22"

finish
