#!/usr/bin/env bash
# Print the kernel version the guest boots and the module is built for:
# the newest version with both /boot/vmlinuz-<v> and
# /usr/src/linux-headers-<v>. Never the host's `uname -r`: this machine
# runs another kernel.
#   scripts/kernel-version.sh            the version
#   scripts/kernel-version.sh --headers  the headers directory
#   scripts/kernel-version.sh --image    the kernel image
set -euo pipefail
best=""
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	v=${img#/boot/vmlinuz-}
	[ -d "/usr/src/linux-headers-$v" ] || continue
	if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -n1)" = "$v" ]; then
		best=$v
	fi
done
if [ -z "$best" ]; then
	echo "kernel-version: no kernel with matching headers (install linux-image-amd64 and linux-headers-amd64: make deps)" >&2
	exit 1
fi
case "${1:-}" in
	--headers) echo "/usr/src/linux-headers-$best" ;;
	--image) echo "/boot/vmlinuz-$best" ;;
	*) echo "$best" ;;
esac
