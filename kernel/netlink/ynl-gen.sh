#!/usr/bin/env bash
# Generate the netlink family's C from its one description,
# kernel/netlink/otattest.yaml, with the kernel's own YNL generator:
#   libotattest/include/otattest/genl.h   UAPI (ynl-gen-c --mode uapi)
#   kernel/netlink-gen.h, netlink-gen.c   policies and ops (--mode kernel)
#   daemon/otattestd/genl-bounds.h        reply-attribute bounds
#                                         (gen-attr-bounds.py, same classes)
#
#   kernel/netlink/ynl-gen.sh write              regenerate the files in the tree
#   kernel/netlink/ynl-gen.sh generate DIR [SPEC] write them under DIR instead
#                                                (the same paths), from SPEC
# `make netlink-gen` runs "write"; kernel/netlink/check-gen.sh compares.
#
# YNL comes from Debian's linux-source-6.12 (the guest's 6.1 predates a
# usable ynl-gen-c): only the generator, its spec library and the schema
# are unpacked, into $B/ynl, and they must match kernel/netlink/ynl.sha256.
# The generator insists on kernel-tree conventions: it finds the tree's root
# by a MAINTAINERS file (to name the spec in the output's header) and the
# schema two directories above the spec. So the spec runs from a staging
# copy laid out like this tree, which keeps "kernel/netlink/otattest.yaml"
# as the name the generated files carry.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
TARBALL=${YNL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
TOP=linux-source-6.12
PIN=kernel/netlink/ynl.sha256
SCHEMA=Documentation/netlink/genetlink-legacy.yaml
# The generated files, relative to the top of the tree.
OUTPUTS=(libotattest/include/otattest/genl.h kernel/netlink-gen.h kernel/netlink-gen.c
	daemon/otattestd/genl-bounds.h)
# /usr/bin/python3: Debian's python3-yaml and python3-jsonschema (scripts/deps.sh).
PY=/usr/bin/python3

die() {
	echo "ynl-gen: $*" >&2
	exit 1
}

# Unpack the pinned generator into $B/ynl once; print its directory.
ynl_root() {
	local root=$B/ynl/$TOP tmp
	if [ ! -f "$root/.unpacked" ]; then
		[ -r "$TARBALL" ] || die "$TARBALL missing: install linux-source-6.12 (make deps)"
		mkdir -p "$B/ynl"
		tmp=$(mktemp -d "$B/ynl/unpack.XXXXXX")
		grep -v '^#' "$PIN" | awk '{ print "'"$TOP"'/" $2 }' >"$tmp/files"
		tar -xJf "$TARBALL" -C "$tmp" -T "$tmp/files" || die "cannot unpack YNL from $TARBALL"
		touch "$tmp/$TOP/.unpacked"
		rm -rf "$root"
		mv "$tmp/$TOP" "$root"
		rm -rf "$tmp"
	fi
	(cd "$root" && grep -v '^#' "$OLDPWD/$PIN" | sha256sum --quiet --strict -c -) >&2 ||
		die "$root (unpacked from $TARBALL) is not the pinned YNL generator ($PIN says what to do)"
	realpath "$root"
}

# generate OUTDIR SPEC: the generated files under OUTDIR.
generate() {
	local out=$1 spec=$2 ynl stage f
	ynl=$(ynl_root)
	stage=$(mktemp -d "${TMPDIR:-/tmp}/ynl-stage.XXXXXX")
	trap 'rm -rf "$stage"' RETURN
	touch "$stage/MAINTAINERS"
	mkdir -p "$stage/kernel/netlink"
	cp "$spec" "$stage/kernel/netlink/otattest.yaml"
	cp "$ynl/$SCHEMA" "$stage/kernel/"
	for f in "${OUTPUTS[@]}"; do
		mkdir -p "$out/$(dirname "$f")"
	done
	(
		cd "$stage"
		gen="$PY $ynl/tools/net/ynl/ynl-gen-c.py --spec kernel/netlink/otattest.yaml"
		$gen --mode uapi --header -o "$out/${OUTPUTS[0]}"
		$gen --mode kernel --header -o "$out/${OUTPUTS[1]}"
		$gen --mode kernel --source -o "$out/${OUTPUTS[2]}"
		$PY "$OLDPWD/kernel/netlink/gen-attr-bounds.py" "$ynl/tools/net/ynl/ynl-gen-c.py" \
			kernel/netlink/otattest.yaml >"$out/${OUTPUTS[3]}"
	) || die "the generator failed on $spec"
}

case "${1:-}" in
	write)
		out=$(mktemp -d "${TMPDIR:-/tmp}/ynl-out.XXXXXX")
		generate "$out" kernel/netlink/otattest.yaml
		for f in "${OUTPUTS[@]}"; do
			cmp -s "$out/$f" "$f" || { cp "$out/$f" "$f"; echo "  GEN     $f"; }
		done
		rm -rf "$out"
		;;
	generate)
		[ $# -ge 2 ] || die "usage: $0 generate OUTDIR [SPEC]"
		mkdir -p "$2"
		generate "$(realpath "$2")" "$(realpath "${3:-kernel/netlink/otattest.yaml}")"
		;;
	outputs)
		printf '%s\n' "${OUTPUTS[@]}"
		;;
	*)
		die "usage: $0 write | generate OUTDIR [SPEC] | outputs"
		;;
esac
