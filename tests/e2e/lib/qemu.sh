# SPDX-License-Identifier: MIT
# The QEMU command line of a scenario. Host side.
#
# One machine shape for every scenario: i440fx ("pc", whose ACPI PCI
# hotplug lets device_del/device_add unplug and replug the device), TCG,
# no default devices, the serial console to a file, an isa-debug-exit port
# for the guest's exit status, a QMP socket for host hooks, and the
# writable result share. The systemd mode adds the host root, read-only;
# a scenario with a device adds ivshmem-doorbell wired to the model.

# e2e_qemu_args DIR: fill the array E2E_QEMU_CMD for the scenario in DIR,
# from the scenario's E2E_* variables.
e2e_qemu_args() {
	local dir=$1 append
	# no_timer_check: under TCG on a loaded host the kernel's check that
	# the 8254 timer reaches the IO-APIC can miss its window and panic
	# ("IO-APIC + timer doesn't work!"), as it did for 6.12 here.
	append="console=ttyS0 panic=-1 loglevel=5 no_timer_check $E2E_KERNEL_ARGS"
	# The debug kernel (KASAN inline, lockdep) runs several times slower
	# under TCG: at the 21 s default, a host busy with the other scenarios
	# starved it into "rcu_sched detected stalls" reports that were the
	# host's doing (kernel-netlink here, with every step passing). Its
	# stall window is 120 s, as its timeouts are scaled.
	# acpi=noirq: PCI interrupts are not routed through ACPI's _PRT. On
	# this machine's DSDT _PRT is an AML loop over 128 entries, run for
	# every PCI function enabled (each virtio-9p, the device, a replug);
	# under KASAN and lockdep the interpreter hit its 30 s loop timeout
	# each time ("ACPI Error: Aborting method \_SB.PCI0._PRT ...
	# AE_AML_LOOP_TIMEOUT"), a minute of every debug boot. Every device
	# here uses MSI-X; ACPI itself (hotplug, its SCI) is unchanged.
	# tsc=unstable: the clock is the HPET, not the TSC. Calibrating the
	# TSC against the PIT needs the vCPU to run steadily for a moment; a
	# busy host starved the slow debug boot through it and the TSC came
	# out at 42 MHz instead of 2.4 GHz ("tsc: PIT calibration deviates
	# from HPET: 42068 2442190"), so guest time ran 58 times too fast and
	# systemd timed every unit out.
	[ "${E2E_KERNEL:-}" != debug ] ||
		append="$append rcupdate.rcu_cpu_stall_timeout=120 acpi=noirq tsc=unstable"
	# The soft-lockup detector fires after 2 x watchdog_thresh seconds
	# without a schedule; at the default 20 s a host busy with other
	# guests starved a production guest into "soft lockup - CPU#0 stuck
	# for 27s! [cryptomgr_test]" at boot (dbus-clients, load average 13).
	# At its maximum, 60, a real lockup is still reported, after 120 s.
	append="$append watchdog_thresh=60"
	# E2E_QEMU_WRAP (environment, for debugging): a command QEMU runs
	# under, e.g. "gdb -batch -ex run -ex bt --args" for a backtrace of a
	# QEMU crash in qemu.log.
	# shellcheck disable=SC2206 # word splitting on purpose
	local wrap=(${E2E_QEMU_WRAP:-})
	E2E_QEMU_CMD=(
		"${wrap[@]}" qemu-system-x86_64 -accel tcg -M pc -m "$E2E_MEM" -smp "$E2E_SMP"
		-nodefaults -no-user-config -display none -no-reboot
		-kernel "$E2E_KIMAGE" -initrd "$dir/initrd.cpio" -append "$append"
		-serial "file:$dir/serial.raw"
		-device isa-debug-exit,iobase=0xf4,iosize=0x04
		-qmp "unix:$dir/qemu-qmp.sock,server=on,wait=off"
		-virtfs "local,path=$dir/out,mount_tag=e2eout,security_model=none,multidevs=remap,id=e2eout"
	)
	if [ "$E2E_MODE" = systemd ]; then
		E2E_QEMU_CMD+=(-virtfs "local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap,id=root")
	fi
	if [ "$E2E_DEVICE" = 1 ]; then
		E2E_QEMU_CMD+=(
			-chardev "socket,id=ivshmem,path=$dir/ivshmem.sock"
			-device "ivshmem-doorbell,id=otattest0,chardev=ivshmem,vectors=2"
		)
	fi
	E2E_QEMU_CMD+=("${E2E_QEMU_ARGS[@]}")
}
