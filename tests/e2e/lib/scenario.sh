# SPDX-License-Identifier: MIT
# What a scenario file may set, with defaults. A scenario is
# tests/e2e/scenarios/<name>.sh: assignments to these variables at top
# level, and functions; nothing else runs when it is sourced (the runner
# sources it on the host, the guest sources it again inside). See
# tests/e2e/README.md.
e2e_scenario_defaults() {
	E2E_DESCRIPTION=""     # one line for --list
	E2E_MODE=fast          # fast: initramfs only; systemd: systemd as PID 1
	E2E_TIMEOUT=60         # seconds QEMU may run (hard: then it is killed)
	E2E_DEVICE=0           # 1: start otattest-model, add ivshmem-doorbell
	E2E_MODEL_ARGS=()      # extra otattest-model options (faults, ...)
	E2E_MODEL_SPLIT=0      # 1: split model: a server process + a device process that can die alone
	E2E_PROVISION=0        # 1: provision a device (lib/provision.sh) and load it
	E2E_QEMU_ARGS=()       # extra QEMU arguments (devices, ...)
	E2E_KERNEL_ARGS=""     # extra kernel command line
	E2E_KERNEL=${E2E_KERNEL_RUN:-6.1} # guest kernel: 6.1, 6.12 or debug (lib/kernel.sh); default: the run's (--kernel)
	E2E_KERNEL_IMAGE=""    # bzimage: boot the compressed image, not PVH
	E2E_MEM=512            # guest memory, MiB
	E2E_SMP=1              # guest CPUs (each one is a host thread under TCG)
	E2E_MODULES=()         # .ko make targets, e.g. build/kernel/otattest.ko
	E2E_BUILD_TARGETS=()   # other make targets the scenario needs
	E2E_BINARIES=()        # fast mode: host binaries (+ ldd closure) to copy
	E2E_FILES=()           # "host-path:guest-path" files to copy in
	E2E_DBUS=0             # fast mode: ship dbus-daemon for e2e_dbus_start
	E2E_BUS=dbus-daemon    # systemd mode: the system bus, dbus-daemon or dbus-broker
	E2E_ROOT_WRITABLE=0    # systemd mode: 1: one tmpfs overlay over the whole root (installing packages)
	E2E_DEBS=()            # with E2E_ROOT_WRITABLE=1: these packages' files (scripts/deb-build.sh --cached --upgrade) in the root
	E2E_BUS_VARIANTS=()    # also run as NAME@BUS with these buses (e.g. dbus-broker)
	E2E_REQUIRES=()        # globs (tree-relative): SKIP unless each matches
	E2E_DMESG_ALLOW=""     # regex of kernel lines this scenario expects
	E2E_EXPECT=pass        # harness self-tests: kernel-problem | timeout | host-check-fails
	E2E_EXPECT_KERNEL=""   # with kernel-problem: regex a problem must match
	E2E_MODEL_MAY_EXIT=0   # 1: the model ending early is part of the test
	E2E_CORE_BL0=build/rv32/bl0.elf # with E2E_CORE=rv32: the BL0 build the device's slots get signed (lib/model.sh)
}
