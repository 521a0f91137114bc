# SPDX-License-Identifier: MIT
# deb-lifecycle on Debian 12's 6.12 kernel: DKMS builds otattest.ko
# against that kernel's headers in the guest, and the rest as on 6.1.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/packages/deb-lifecycle.sh" ||
	{ echo "cannot read deb-lifecycle.sh" >&2; return 1; }
E2E_DESCRIPTION="deb-lifecycle on the 6.12 guest: apt install, DKMS build and load, activation, upgrade, purge"
E2E_KERNEL=6.12
