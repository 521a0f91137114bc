#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# boot-sweep: the device's boot verification time, tag path vs signature
# path, as a verifier or an ops team sees it in the boot record. Part of
# `make bench-stack`.
#
# What it measures: for BL0 signed through 0, 1 and 2 delegation
# certificates, ECDSA P-256 and hybrid (ECDSA P-256 + SLH-DSA-SHA2-128s,
# every certificate carrying its SLH-DSA signature too), the median of the
# boot record's BL0 and ROM_EXT verify_time_ns and of boot_time_ns (ROM
# start to runtime) over N cold boots of the real device model process
# (otattest-model), on the fast path (the stage's tag checks out) and on
# the slow path (manifest, delegation chain and every signature).
#
# Why: bench_boot times the stage check in-process; this is the same check
# inside the whole device as it boots, read back the way a guest reads it
# (model-peer, then otimage inspect), so it includes everything the record
# reports and nothing the device does not. It answers "what does an owner
# pay at every boot for delegating, and for going post-quantum, and how much
# of it does the tag path take back".
#
# How: each config gets two devices provisioned with otimage (creator key
# signs a 16 KiB ROM_EXT, the owner key or its delegates a 64 KiB random
# BL0, one slot each so a failure cannot hide behind a fallback), one with
# tag boot on and one with it off. With tags off every cold boot takes the
# signature path and writes no tag, so it can be repeated; with tags on the
# first boot after provisioning verifies and retags, and every power cycle
# after it must take the tag path. Every boot's record is checked: boot OK,
# the expected path for both stages, BL0's scheme and delegation depth.
# Anything else fails the run.
#
# Output: one JSON object per (config, path) on stdout, progress on stderr.
# Times are the host's (docs/model.md): compare them with each other, not
# with silicon. The ratio field (bl0_vs_tag) is against the tag path of the
# same config, measured in the same run.
#
# boot_ns is more than the checks: it holds all of the boot's device work
# (the SVN key chain, the alias key and certificate, the boot's own
# bookkeeping; tests/bench/bench_boot_record.c times each) and the model's
# state-file writes, which are writes in place of a few hundred bytes and
# cost microseconds on disk or tmpfs alike. The check times
# (verify_time_ns) do no I/O.
set -euo pipefail

usage() {
	cat <<'EOF'
NAME
    boot-sweep.sh - device boot verification time: tag path vs signature path

SYNOPSIS
    tests/bench/boot-sweep.sh [-n N] [-h|--help]

DESCRIPTION
    For BL0 signed directly by the owner key (depth 0), through a leaf
    delegate (depth 1) and through an intermediate and a leaf (depth 2),
    with ECDSA P-256 keys and with hybrid ECDSA P-256 + SLH-DSA-SHA2-128s
    keys, provisions two devices with build/otimage (tag boot on and off),
    runs each in build/otattest-model, power-cycles it N times and reads
    every boot record with build/tests/model/model-peer. Every boot must
    take the expected path (tag, or signature) with BL0's expected scheme
    and delegation depth, or the run fails.

    Prints one JSON object per config and path on stdout:
        depth             0, 1 or 2 delegation certificates for BL0
        scheme            "ecdsa" or "hybrid"
        path              "tag" or "signature"
        boots             samples (power-cycled boots)
        bl0_check_ns      median BL0 verify_time_ns
        rom_ext_check_ns  median ROM_EXT verify_time_ns
        boot_ns           median boot_time_ns (ROM start to runtime)
        bl0_vs_tag        bl0_check_ns / the same config's tag-path median
    Progress goes to stderr. Times are host time, relative figures only.
    boot_ns is all the boot's device work (not just the checks), and the
    model's state-file writes (microseconds, written in place).

OPTIONS
    -n N        boots per device (default $BOOT_SWEEP_BOOTS or 9).
    -h, --help  this text.

ENVIRONMENT
    BOOT_SWEEP_DIR    where the devices are made (default build/bench/boot-sweep);
                      each run uses a fresh directory under it, removed on
                      success and kept on failure.
    BOOT_SWEEP_BOOTS  default for -n.
    BOOT_SWEEP_KEEP   1 keeps the run directory on success too.
    B                 build directory (default build).

EXIT STATUS
    0 when every boot took its expected path; 1 on any failure (a message
    names it); 2 for a usage error.
EOF
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

BOOTS=${BOOT_SWEEP_BOOTS:-9}
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-n) [ $# -ge 2 ] || { echo "boot-sweep: -n needs a number" >&2; exit 2; }
		BOOTS=$2; shift 2 ;;
	-n*) BOOTS=${1#-n}; shift ;;
	*) echo "boot-sweep: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
case $BOOTS in
'' | *[!0-9]* | 0 | 0*) echo "boot-sweep: boots must be a positive number, not '$BOOTS'" >&2; exit 2 ;;
esac

B=${B:-build}
OTIMAGE=$ROOT/$B/otimage
MODEL=$ROOT/$B/otattest-model
PEER=$ROOT/$B/tests/model/model-peer

die() {
	echo "boot-sweep: FAILED: $*" >&2
	exit 1
}
progress() { echo "boot-sweep: $*" >&2; }

for bin in "$OTIMAGE" "$MODEL" "$PEER"; do
	[ -x "$bin" ] || die "${bin#"$ROOT"/} is missing: run 'make ${bin#"$ROOT"/}'"
done
command -v jq >/dev/null || die "jq is not installed"

base=${BOOT_SWEEP_DIR:-build/bench/boot-sweep}
mkdir -p "$base" || die "cannot create $base"
RUN=$(cd "$(mktemp -d "$base/run.XXXXXX")" && pwd)

# Model processes this script started: stopped on any exit, never left behind.
declare -A MODEL_PIDS=()
ok=0
cleanup() {
	local pid i
	for pid in "${!MODEL_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null || continue
		for ((i = 0; i < 50; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	# Provisioning jobs cut short by a signal: let them finish (seconds), so
	# nothing this script started outlives it.
	wait 2>/dev/null || true
	if [ "$ok" = 1 ] && [ "${BOOT_SWEEP_KEEP:-0}" != 1 ]; then
		rm -rf "$RUN"
	else
		echo "boot-sweep: devices, logs and records kept in $RUN" >&2
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# provision DIR DEPTH SCHEME: keys, certificates, images, owner config, two
# OTP images (tag boot on and off) and one flash image, as an owner would
# make them with otimage. Runs in a subshell; the log is DIR/otimage.log.
provision() (
	local dir=$1 depth=$2 scheme=$3 alg=ecdsa-p256 hybrid=off direct=off
	cd "$dir"
	oi() {
		echo "+ otimage $*" >>otimage.log
		"$OTIMAGE" "$@" >>otimage.log 2>&1 ||
			{ echo "boot-sweep: otimage $1 failed for depth $depth $scheme (see $dir/otimage.log)" >&2; exit 1; }
	}
	# Hybrid owner and delegates, so that the image and every certificate
	# carry SLH-DSA signatures; hybrid-required makes the device refuse the
	# chain if one were missing, so the time measured is the full cost.
	if [ "$scheme" = hybrid ]; then alg=hybrid hybrid=on; fi
	# Depth 0 needs the owner key to sign BL0 itself; the others forbid it,
	# as an owner that delegates would.
	if [ "$depth" = 0 ]; then direct=on; fi
	head -c 16384 /dev/urandom >rom_ext.code
	head -c 65536 /dev/urandom >bl0.code
	oi keygen --out creator.pem --pub creator.pub
	oi keygen --alg "$alg" --out owner.pem --pub owner.pub
	oi sign --key creator.pem --stage rom_ext --svn 1 --payload rom_ext.code --out rom_ext.img
	case $depth in
	0) oi sign --key owner.pem --stage bl0 --svn 1 --payload bl0.code --out bl0.img ;;
	1)
		oi keygen --alg "$alg" --out leaf.pem --pub leaf.pub
		oi delegate --parent-key owner.pem --delegate-pub leaf.pub --type leaf \
			--svn-min 1 --svn-max 20 --lifecycle dev --out leaf.cert
		oi sign --key leaf.pem --cert leaf.cert --stage bl0 --svn 1 --payload bl0.code --out bl0.img
		;;
	2)
		oi keygen --alg "$alg" --out team.pem --pub team.pub
		oi keygen --alg "$alg" --out leaf.pem --pub leaf.pub
		oi delegate --parent-key owner.pem --delegate-pub team.pub --type intermediate \
			--svn-min 1 --svn-max 40 --out team.cert
		oi delegate --parent-key team.pem --parent-cert team.cert --delegate-pub leaf.pub \
			--type leaf --svn-min 1 --svn-max 20 --lifecycle dev --out leaf.cert
		oi sign --key leaf.pem --cert team.cert --cert leaf.cert --stage bl0 --svn 1 \
			--payload bl0.code --out bl0.img
		;;
	esac
	oi owner-config --key owner.pub --max-depth 2 --direct-boot "$direct" \
		--hybrid-required "$hybrid" --out owner.cfg
	oi provision --creator-key creator.pub --owner-config owner.cfg --lifecycle dev \
		--tag-boot on --out otp-tag-on.bin
	oi provision --creator-key creator.pub --owner-config owner.cfg --lifecycle dev \
		--tag-boot off --out otp-tag-off.bin
	oi pack --rom-ext-a rom_ext.img --bl0-a bl0.img --owner-config owner.cfg --out flash.bin
)

# generation_of REPLY: the record generation in a control reply that says
# the boot succeeded ("ok ... boot-status=OK ... record-generation=N").
generation_of() {
	[[ $1 =~ (^|\ )boot-status=OK(\ |$) ]] || return 1
	[[ $1 =~ (^|\ )record-generation=([0-9]+)(\ |$) ]] || return 1
	echo "${BASH_REMATCH[2]}"
}

# run_device DEV OTP: one model process, its first boot and BOOTS power
# cycles. After each boot, the record is read as a guest reads it and
# decoded into DEV/records.json (one object per boot, in order); the
# generation the device reported for that boot goes to DEV/generations.
run_device() {
	local dev=$1 otp=$2 pid i reply gen
	mkdir -p "$dev"
	: >"$dev/records.json"
	: >"$dev/generations"
	"$MODEL" --state-dir="$dev/state" --load-flash="$cfgdir/flash.bin" --load-otp="$otp" \
		--no-fsync --log-level=warn 2>"$dev/model.log" &
	pid=$!
	MODEL_PIDS[$pid]=1
	# The control socket answering means the cold boot is done (docs/model.md).
	for ((i = 0; ; i++)); do
		reply=$("$MODEL" ctl --timeout=10 -d "$dev/state" status 2>/dev/null) && break
		kill -0 "$pid" 2>/dev/null || die "$label: otattest-model exited at startup: $(tail -n 3 "$dev/model.log")"
		[ "$i" -lt 200 ] || die "$label: otattest-model not ready after 10 s ($dev/model.log)"
		sleep 0.05
	done
	for ((i = 0; i <= BOOTS; i++)); do
		if [ "$i" -gt 0 ]; then
			reply=$("$MODEL" ctl --timeout=60 -d "$dev/state" power-cycle) ||
				die "$label: power-cycle failed: $reply"
		fi
		gen=$(generation_of "$reply") ||
			die "$label: $(basename "$dev") boot $i did not succeed: $reply"
		echo "$gen" >>"$dev/generations"
		"$PEER" -d "$dev/state" --timeout=10000 record --out="$dev/record-$i.bin" >/dev/null ||
			die "$label: model-peer could not read the record of $(basename "$dev") boot $i"
		"$OTIMAGE" inspect "$dev/record-$i.bin" --json >>"$dev/records.json" ||
			die "$label: otimage inspect refused $dev/record-$i.bin"
	done
	"$MODEL" ctl -d "$dev/state" stop >/dev/null || die "$label: the model refused to stop"
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$pid" 2>/dev/null && die "$label: otattest-model did not stop within 5 s"
	wait "$pid" || die "$label: otattest-model exited with status $? ($dev/model.log)"
	unset "MODEL_PIDS[$pid]"
}

# check_device DEV TAGS DEPTH SCHEME: every record in DEV/records.json must
# be the boot it was read after (generation), boot OK, one attempt per
# stage, both booted on the expected path (boot 0, the first after
# provisioning: signature-retagged with tags on, signature with them off;
# every power cycle after it: tag with tags on, signature with them off),
# BL0 with the config's scheme and delegation depth. Prints "fail WHY" or
# "ok {boots, bl0_check_ns, rom_ext_check_ns, boot_ns}" (medians over the
# power-cycled boots). One jq for all boots: jq takes ~50 ms to start.
check_device() {
	jq -r -s --slurpfile gens "$1/generations" --argjson tags "$2" --argjson depth "$3" \
		--arg scheme "$4" '
		def median: sort | length as $n |
			if $n % 2 == 1 then .[($n - 1) / 2] else ((.[$n / 2 - 1] + .[$n / 2]) / 2 | floor) end;
		def one($s): [.stages[] | select(.stage == $s)];
		def problem($gen; $path):
			(one("rom_ext")) as $r | (one("bl0")) as $b |
			if .generation != $gen then "record generation \(.generation), the boot made \($gen)"
			elif .boot_status != "OK" then "boot status \(.boot_status)"
			elif .tag_boot_enabled != $tags then "tag_boot_enabled is \(.tag_boot_enabled)"
			elif ($r | length) != 1 or ($b | length) != 1 then
				"\($r | length) ROM_EXT and \($b | length) BL0 attempts, expected one each"
			elif ($r[0].booted and $b[0].booted) | not then "a stage did not boot"
			elif $r[0].path != $path then "ROM_EXT took path \($r[0].path), expected \($path)"
			elif $b[0].path != $path then "BL0 took path \($b[0].path), expected \($path)"
			elif $b[0].scheme != $scheme then "BL0 scheme \($b[0].scheme), expected \($scheme)"
			elif $b[0].delegation_depth != $depth then
				"BL0 delegation depth \($b[0].delegation_depth), expected \($depth)"
			else empty end;
		. as $recs |
		(if $tags then ["signature-retagged", "tag"] else ["signature", "signature"] end) as $paths |
		[range(0; $recs | length) as $i |
		 $recs[$i] | problem($gens[$i]; $paths[if $i == 0 then 0 else 1 end]) |
		 "boot \($i) (record generation \($gens[$i])): \(.)"] as $problems |
		if ($recs | length) != ($gens | length) or ($recs | length) < 2 then
			"fail \($recs | length) records for \($gens | length) boots"
		elif ($problems | length) > 0 then "fail " + $problems[0]
		else
			[$recs[1:][] | {r: (one("rom_ext")[0].verify_time_ns),
			               b: (one("bl0")[0].verify_time_ns), t: .boot_time_ns}] as $s |
			"ok " + ({boots: ($s | length), bl0_check_ns: ([$s[].b] | median),
			          rom_ext_check_ns: ([$s[].r] | median), boot_ns: ([$s[].t] | median)} | tojson)
		end' "$1/records.json"
}

# measure DEV OTP TAGS DEPTH SCHEME: run_device, check_device; sets MEDIANS
# to the medians as JSON. Not run in a $(...) subshell: the model process
# must be this shell's child, for wait and for the exit trap.
measure() {
	local verdict
	run_device "$1" "$2"
	verdict=$(check_device "$1" "$3" "$4" "$5") || die "$label: jq failed on $1/records.json"
	case $verdict in
	ok\ *) MEDIANS=${verdict#ok } ;;
	*) die "$label: $(basename "$1"): ${verdict#fail }" ;;
	esac
}

started=$(date +%s.%N)
schemes=(ecdsa hybrid)
declare -A record_scheme=([ecdsa]=ecdsa-p256 [hybrid]=ecdsa-p256+slh-dsa-sha2-128s)

# Provisioning is signing (an SLH-DSA signature takes about 0.7 s of CPU,
# depth 2 hybrid makes three in a row): do all six configs at once, longest
# first, before any timing starts.
progress "provisioning 6 configs in $RUN"
declare -A prov_pids=()
for scheme in hybrid ecdsa; do
	for depth in 2 1 0; do
		mkdir -p "$RUN/d$depth-$scheme"
		provision "$RUN/d$depth-$scheme" "$depth" "$scheme" &
		prov_pids[$!]="depth $depth $scheme"
	done
done
failed=
for pid in "${!prov_pids[@]}"; do
	wait "$pid" || failed+=" (${prov_pids[$pid]})"
done
[ -z "$failed" ] || die "provisioning failed:$failed"

# Devices one at a time: nothing else on the machine from this script while
# a device boots.
for depth in 0 1 2; do
	for scheme in "${schemes[@]}"; do
		label="depth $depth $scheme"
		cfgdir=$RUN/d$depth-$scheme
		progress "$label: $BOOTS boots on each path ..."
		measure "$cfgdir/tag-off" "$cfgdir/otp-tag-off.bin" false "$depth" "${record_scheme[$scheme]}"
		sig=$MEDIANS
		measure "$cfgdir/tag-on" "$cfgdir/otp-tag-on.bin" true "$depth" "${record_scheme[$scheme]}"
		tag=$MEDIANS
		# Two result lines for stdout, then one progress line for stderr.
		lines=$(jq -n -r --argjson depth "$depth" --arg scheme "$scheme" --arg l "$label" \
			--argjson t "$tag" --argjson s "$sig" '
			def row($path; $m):
				{depth: $depth, scheme: $scheme, path: $path, boots: $m.boots,
				 bl0_check_ns: $m.bl0_check_ns, rom_ext_check_ns: $m.rom_ext_check_ns,
				 boot_ns: $m.boot_ns,
				 bl0_vs_tag: (if $t.bl0_check_ns > 0 then
					($m.bl0_check_ns / $t.bl0_check_ns * 100 | round) / 100 else null end)};
			def us: . / 1000 | floor;
			def ms: . / 100000 | round / 10;
			(row("tag"; $t) | tojson), (row("signature"; $s) | tojson),
			"\($l): BL0 check \($t.bl0_check_ns | us) us on the tag path, " +
			"\($s.bl0_check_ns | us) us on the signature path (x\(row("signature"; $s).bl0_vs_tag)); " +
			"boot \($t.boot_ns | ms) ms vs \($s.boot_ns | ms) ms"')
		head -n 2 <<<"$lines"
		progress "$(tail -n 1 <<<"$lines")"
	done
done

ok=1
progress "done: 6 configs x 2 paths x $BOOTS boots in $(awk -v a="$started" -v b="$(date +%s.%N)" \
	'BEGIN { printf "%.1f", b - a }') s"
