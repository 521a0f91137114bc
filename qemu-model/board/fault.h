/* SPDX-License-Identifier: MIT */
/*
 * Fault knobs: ways the model misbehaves on purpose so the driver, the
 * daemon and the tests can prove they survive a device that lies, stalls
 * or dies. The same names work on the command line (--fault-NAME=VALUE)
 * and on the control socket (fault NAME VALUE); "off" clears a knob.
 * docs/model.md lists them with their exact effect.
 */
#ifndef MODEL_FAULT_H
#define MODEL_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAULT_MAX_CORRUPT 8u
#define FAULT_STORM_ALL_VECTORS 0xffffffffu
#define FAULT_STORM_MAX_COUNT 1000000u
#define FAULT_STORM_MAX_HZ 100000u
#define FAULT_DELAY_MAX_MS 600000u
#define FAULT_FLASH_LATENCY_MAX_US 1000000u

/* How much of the write die-at-flash-write tears lands (swhal.h, enum swhal_tear_kind). */
enum fault_tear {
	FAULT_TEAR_HALF = 0,     /* the default */
	FAULT_TEAR_BYTES,        /* the first flash_tear_bytes: none 0, byte 1, word 4 */
	FAULT_TEAR_ALL_BUT_WORD,
	FAULT_TEAR_ALL,          /* all of it, unacknowledged */
};

struct fault_corrupt {
	uint32_t offset; /* into the record or the response payload */
	uint8_t xor_mask; /* non-zero */
};

struct faults {
	uint32_t delay_ms; /* answer this late; 0: at once */
	bool drop;         /* read requests, never run or answer them */
	uint32_t n_corrupt_record;
	struct fault_corrupt corrupt_record[FAULT_MAX_CORRUPT];
	uint32_t n_corrupt_response;
	struct fault_corrupt corrupt_response[FAULT_MAX_CORRUPT];
	bool record_length_set; /* report this in ota_shm_record.length */
	uint32_t record_length;
	bool response_length_set; /* report this in the response header's length */
	uint32_t response_length;
	/* Interrupts with nothing pending: count rings at hz on vector (or all). */
	uint32_t storm_count;
	uint32_t storm_hz;
	uint32_t storm_vector;
	/* Die (SIGKILL, like a power cut) at the Nth flash write from now; 0: off. */
	uint64_t die_at_flash_write;
	/* How much of that write lands. */
	enum fault_tear flash_tear;
	uint32_t flash_tear_bytes;
	/* Each flash erase or program takes this long (us); 0: at once. */
	uint32_t flash_latency_us;
};

/* The knob names, for --help and the control protocol's "fault" listing. */
extern const char *const fault_names[];

/*
 * Set (or with value "off", clear) the knob called name. Bad input
 * changes nothing and explains itself in err. Returns 0 or -EINVAL.
 */
int fault_set(struct faults *f, const char *name, const char *value, char *err, size_t errlen);
void fault_clear_all(struct faults *f);

/* XOR the chosen bytes of buf; offsets at or past len are left alone. */
void fault_corrupt_bytes(const struct fault_corrupt *c, uint32_t n, uint8_t *buf, uint32_t len);

/* "delay=0 drop=off ..." with every knob, for status and logs. */
void fault_describe(const struct faults *f, char *buf, size_t len);

#endif /* MODEL_FAULT_H */
