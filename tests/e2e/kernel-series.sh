#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The second kernel series in `make test` (issue 30; docs/kernel-abi.md,
# "Two kernel series"). tests/e2e/run.sh runs every scenario on Debian 12's
# 6.1; this runs a subset on Debian 12's 6.12, chosen so that each part of
# the driver whose kernel API differs between the series runs there:
#   kernel-bind        probe, the class and its add uevent (dev_uevent)
#   kernel-sysfs       every sysfs file against the host's decoding
#   kernel-netlink     every command, the pre/post doit hooks, the dump
#                      with and without a selector
#   kernel-hotplug     remove and re-add under ACPI hotplug
#   kernel-probe-fail  a failed device_add unwound (a kretprobe module)
#   daemon-api         otattestd over the family, on systemd
# The whole kernel-* set runs on 6.12 with `tests/e2e/run.sh --kernel 6.12
# 'kernel-*'`; the debug kernel (6.12 too) runs it all in
# tests/e2e/kernel-debug.sh. Prints "N passed, N failed" (run.sh's line).
set -uo pipefail
cd "$(dirname "$0")/../.."
exec tests/e2e/run.sh --kernel 6.12 "$@" kernel-bind kernel-sysfs kernel-netlink kernel-hotplug \
	kernel-probe-fail daemon-api
