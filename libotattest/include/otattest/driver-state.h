/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Names of the driver's own states (enum otattest_driver_state, generated
 * into genl.h from kernel/netlink/otattest.yaml). OTATTEST_A_STATE carries
 * enum ota_device_state (shm.h) as the device reports it, or one of these
 * when the driver cannot trust or reach the device; OTATTEST_A_STATE_DETAIL
 * then holds the status that says why. sysfs and otattestd show the same
 * states by these names.
 */
#ifndef OTATTEST_DRIVER_STATE_H
#define OTATTEST_DRIVER_STATE_H

#include "genl.h"

/* Name of a driver state, or NULL when st is not one. */
static inline const char *otattest_driver_state_name(unsigned int st)
{
	switch (st) {
	case OTATTEST_STATE_RECORD_INVALID: return "record_invalid";
	case OTATTEST_STATE_INFO_INVALID: return "info_invalid";
	case OTATTEST_STATE_UNRESPONSIVE: return "unresponsive";
	}
	return (const char *)0;
}

#endif /* OTATTEST_DRIVER_STATE_H */
