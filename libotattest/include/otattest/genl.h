/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Generic netlink ABI of the otattest kernel driver: the UAPI header the
 * kernel module and userspace (otattestd, tests) share. The same family is
 * described in kernel/netlink/otattest.yaml; docs/kernel-abi.md explains
 * each command.
 *
 * Errors: a failed request gets a netlink error whose errno is the class
 * of the device's status (see status.h, one errno per class) and whose
 * extack message is that status's message, so userspace can name the
 * failure without a side channel.
 */
#ifndef OTATTEST_GENL_H
#define OTATTEST_GENL_H

#define OTATTEST_GENL_NAME "otattest"
#define OTATTEST_GENL_VERSION 1
#define OTATTEST_GENL_MCGRP_EVENTS "events"

enum otattest_cmd {
	OTATTEST_CMD_UNSPEC,
	OTATTEST_CMD_GET_DEVICE,   /* do: one device; dump: all. -> device attrs */
	OTATTEST_CMD_GET_RECORD,   /* DEVICE -> RECORD, GENERATION */
	OTATTEST_CMD_ATTEST,       /* DEVICE, NONCE -> EVIDENCE */
	OTATTEST_CMD_STABLE_SIGN,  /* DEVICE, SVN, NONCE -> SVN, SIGNATURE, PUBKEY */
	OTATTEST_CMD_GET_CERTS,    /* DEVICE -> CERT (repeated, leaf first) */
	OTATTEST_CMD_ROTATE_TAGS,  /* admin. DEVICE -> KEY_VERSION_OLD/NEW, STAGES_RETAGGED */
	OTATTEST_CMD_UPDATE_RESET, /* admin. DEVICE, [SLOT] -> BOOT_STATUS, GENERATION, SLOT */
	OTATTEST_CMD_EVENT,        /* multicast only: EVENT, DEVICE, ... */
	__OTATTEST_CMD_MAX
};
#define OTATTEST_CMD_MAX (__OTATTEST_CMD_MAX - 1)

enum otattest_attr {
	OTATTEST_A_UNSPEC,
	OTATTEST_A_DEVICE,          /* u32: N of otattestN */
	OTATTEST_A_DEVICE_NAME,     /* string: "otattestN" */
	OTATTEST_A_STATE,           /* u32: enum ota_device_state */
	OTATTEST_A_STATE_DETAIL,    /* u32: status code explaining the state */
	OTATTEST_A_GENERATION,      /* u32: record generation */
	OTATTEST_A_RECORD,          /* binary: struct ota_record_header + stages */
	OTATTEST_A_NONCE,           /* binary: 16..64 bytes */
	OTATTEST_A_SVN,             /* u32 */
	OTATTEST_A_EVIDENCE,        /* binary: COSE_Sign1 */
	OTATTEST_A_SIGNATURE,       /* binary: 64 bytes r || s */
	OTATTEST_A_PUBKEY,          /* binary: 64 bytes X || Y */
	OTATTEST_A_CERT,            /* binary: one DER certificate; repeated */
	OTATTEST_A_KEY_VERSION_OLD, /* u32 */
	OTATTEST_A_KEY_VERSION_NEW, /* u32 */
	OTATTEST_A_STAGES_RETAGGED, /* u32 */
	OTATTEST_A_SLOT,            /* u32: 0 (A), 1 (B), 0xffffffff (the other one) */
	OTATTEST_A_BOOT_STATUS,     /* u32: status of the boot a reset performed */
	OTATTEST_A_EVENT,           /* u32: enum otattest_event */
	OTATTEST_A_PROGRESS_DONE,   /* u32 */
	OTATTEST_A_PROGRESS_TOTAL,  /* u32 */
	__OTATTEST_A_MAX
};
#define OTATTEST_A_MAX (__OTATTEST_A_MAX - 1)

enum otattest_event {
	OTATTEST_EVENT_RECORD_CHANGED = 1, /* GENERATION */
	OTATTEST_EVENT_STATE_CHANGED = 2,  /* STATE, STATE_DETAIL */
	OTATTEST_EVENT_ROTATE_PROGRESS = 3, /* PROGRESS_DONE, PROGRESS_TOTAL */
	OTATTEST_EVENT_DEVICE_ADDED = 4,
	OTATTEST_EVENT_DEVICE_REMOVED = 5,
};

/*
 * OTATTEST_A_STATE carries enum ota_device_state (shm.h) as the device
 * reports it, or one of these when the driver cannot trust or reach the
 * device; OTATTEST_A_STATE_DETAIL then holds the status that says why.
 * sysfs shows the same states by name.
 */
enum otattest_driver_state {
	OTATTEST_STATE_RECORD_INVALID = 16, /* exported record failed validation */
	OTATTEST_STATE_INFO_INVALID = 17,   /* info block failed validation or moved */
	OTATTEST_STATE_UNRESPONSIVE = 18,   /* the last request got no answer in time */
};

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

#endif /* OTATTEST_GENL_H */
