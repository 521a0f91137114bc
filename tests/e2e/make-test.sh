#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The e2e scenarios of `make test` on Debian 12's 6.1 (the default kernel):
# every scenario but the kernel-* ones that `make test` runs on the debug
# kernel instead (tests/e2e/kernel-debug.sh: the same scenarios with KASAN,
# lockdep, kmemleak, KFENCE and UBSAN watching). A kernel scenario runs
# twice only where the production kernel is the point:
#   kernel-bind, kernel-sysfs, kernel-netlink, kernel-hotplug,
#   kernel-probe-fail   the driver's kernel-API surface on 6.1 (the same
#                       subset tests/e2e/kernel-series.sh runs on 6.12)
#   kernel-flood, kernel-device-restart-systemd
#                       systemd guests (E2E_MODE=systemd): under KASAN they
#                       take minutes to boot, so they run on the debug
#                       kernel only in make test-kernel-debug
# docs/kernel-abi.md, "Under the kernel's checkers", has the sets and
# the seconds. Every other scenario runs here as `tests/e2e/run.sh` runs it.
# Prints "N passed, N failed" (run.sh's line).
set -uo pipefail
cd "$(dirname "$0")/../.."
keep='kernel-bind kernel-sysfs kernel-netlink kernel-hotplug kernel-probe-fail'
names=()
while read -r name mode _; do
	case " $keep " in *" $name "*) names+=("$name"); continue ;; esac
	# the kernel-* scenarios tests/e2e/kernel-debug.sh runs: fast guests
	case $name:$mode in kernel-*:fast) continue ;; esac
	names+=("$name")
done < <(tests/e2e/run.sh --list)
exec tests/e2e/run.sh "$@" "${names[@]}"
