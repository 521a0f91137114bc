// SPDX-License-Identifier: MIT
/*
 * Where a torn flash write stops (swhal_fault_flash_tear) and what it
 * left, so a power-cut test can choose the moment inside a write and
 * know afterwards which moment it got: nothing of the write, a byte, a
 * word, half, all but the last word, or all of it but unacknowledged.
 * storage.c asks here how much of a write that tears lands.
 */
#include <string.h>

#include "swhal_priv.h"

#define TEAR_WORD 4u

void swhal_fault_flash_tear(const struct swhal_tear *how)
{
	static const struct swhal_tear half = { .kind = SWHAL_TEAR_HALF };

	swhal_dev.tear = how ? *how : half;
}

bool swhal_last_tear(struct swhal_tear_report *out)
{
	if (out)
		*out = swhal_dev.last_tear;
	return swhal_dev.tore_once;
}

static uint32_t landed_bytes(uint32_t len)
{
	const struct swhal_tear *t = &swhal_dev.tear;

	switch (t->kind) {
	case SWHAL_TEAR_BYTES:
		return t->bytes < len ? t->bytes : len;
	case SWHAL_TEAR_ALL_BUT_WORD:
		return len > TEAR_WORD ? len - TEAR_WORD : 0;
	case SWHAL_TEAR_ALL:
		return len;
	case SWHAL_TEAR_HALF:
	default:
		return len / 2;
	}
}

/* Bytes of flash at addr that an erase (src NULL) or program of n bytes changes. */
static uint32_t bytes_changed(const uint8_t *flash, const uint8_t *src, uint32_t n)
{
	uint32_t i, count = 0;

	for (i = 0; i < n; i++)
		count += src ? (flash[i] & src[i]) != flash[i] : flash[i] != 0xff;
	return count;
}

uint32_t swhal_tear_landed(bool erase, uint32_t addr, const uint8_t *src, uint32_t len)
{
	const uint8_t *flash = swhal_dev.flash + addr;
	struct swhal_tear_report *r = &swhal_dev.last_tear;
	uint32_t n = landed_bytes(len);

	/* Counted before the write lands: storage.c applies it after this returns. */
	r->erase = erase;
	r->addr = addr;
	r->len = len;
	r->landed = n;
	r->changed = bytes_changed(flash, erase ? NULL : src, n);
	r->would_change = bytes_changed(flash, erase ? NULL : src, len);
	swhal_dev.tore_once = true;
	return n;
}
