// SPDX-License-Identifier: MIT
/*
 * Service calls (svc.h, firmware/include/hal/svc.h): a stage image on the
 * core asks for a hal.h call of a block that is not behind registers yet,
 * and this runs the chip's implementation of it. Each buffer the call
 * names is read from the core's memory first (so an address the core
 * cannot reach faults before the chip does anything), handed to the chip
 * as host memory, and written back when the call fills it. Address 0 is
 * the NULL pointer the call may take.
 *
 * A buffer the call fills must lie in memory the image's own stores
 * could write (SRAM, retention SRAM), checked before the chip acts:
 * Unicorn's uc_mem_write ignores page protections, and without the check
 * a compromised BL0 rewrote the mask ROM by naming it as hal_flash_read's
 * destination (issue 27, test_hostile service_calls_do_not_write_the_mask_rom).
 * For the same reason every buffer is checked against the memory
 * protection's regions once they are in force (mprot.h): a call reads
 * only what the image could read and fills only what it could write, so
 * BL0 cannot name ROM_EXT's memory or the retention SRAM as a buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "bus.h"
#include "hal.h"
#include "hal/svc.h"
#include "mprot.h"
#include "svc.h"

/* More than any memory of the core: such a buffer cannot be the core's. */
#define SVC_BUF_MAX (16u << 20)

struct buf {
	uint32_t addr, len;
	uint8_t *p; /* NULL for address 0 */
};

static bool buf_in(uc_engine *uc, uint32_t addr, uint32_t len, struct buf *b, uint32_t *bad)
{
	b->addr = addr;
	b->len = len;
	b->p = NULL;
	if (!addr)
		return true;
	if (len > SVC_BUF_MAX || !chip_mprot_allows(addr, len, CHIP_MPROT_R) ||
	    !(b->p = calloc(1, len ? len : 1)) ||
	    (len && uc_mem_read(uc, addr, b->p, len) != UC_ERR_OK)) {
		free(b->p);
		b->p = NULL;
		*bad = addr;
		return false;
	}
	return true;
}

static bool buf_out(uc_engine *uc, struct buf *b, uint32_t *bad)
{
	bool ok = !b->p || !b->len || uc_mem_write(uc, b->addr, b->p, b->len) == UC_ERR_OK;

	if (!ok)
		*bad = b->addr;
	return ok;
}

static void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
}

/* A NUL-terminated label of at most HAL_SVC_LABEL_MAX bytes, or NULL for address 0. */
static bool label_in(uc_engine *uc, uint32_t addr, char out[HAL_SVC_LABEL_MAX], const char **label,
		     uint32_t *bad)
{
	uint32_t i;

	*label = NULL;
	if (!addr)
		return true;
	for (i = 0; i < HAL_SVC_LABEL_MAX; i++) {
		if (!chip_mprot_allows(addr + i, 1, CHIP_MPROT_R) ||
		    uc_mem_read(uc, addr + i, &out[i], 1) != UC_ERR_OK) {
			*bad = addr + i;
			return false;
		}
		if (!out[i]) {
			*label = out;
			return true;
		}
	}
	*bad = addr;
	return false; /* no terminator within the bound */
}

bool core_range_in(uint32_t addr, uint32_t len, const enum top_memory *mem, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct chip_memory *m = &chip_memories[mem[i]];

		if (addr >= m->base && len <= m->size && addr - m->base <= m->size - len)
			return true;
	}
	return false;
}

/* Whether [addr, addr + len) lies in memory the core may write: SRAM or retention SRAM. */
static bool core_writable(uint32_t addr, uint32_t len)
{
	static const enum top_memory rw[] = { TOP_MEMORY_SRAM, TOP_MEMORY_RET_SRAM };

	return core_range_in(addr, len, rw, sizeof(rw) / sizeof(rw[0])) &&
	       chip_mprot_allows(addr, len, CHIP_MPROT_W);
}

/* One call's buffers: up to three, read in before the call, some written back after. */
struct frame {
	uc_engine *uc;
	struct buf b[3];
	uint32_t n;
	uint32_t *bad;
	bool ok;
};

static uint8_t *in(struct frame *f, uint32_t addr, uint32_t len)
{
	struct buf *b = &f->b[f->n++];

	if (f->ok && !buf_in(f->uc, addr, len, b, f->bad))
		f->ok = false;
	return b->p;
}

/* A buffer the call fills: as in(), and only where the core may write (address 0: none). */
static uint8_t *out(struct frame *f, uint32_t addr, uint32_t len)
{
	if (f->ok && addr && !core_writable(addr, len)) {
		*f->bad = addr;
		f->ok = false;
	}
	return in(f, addr, len);
}

static bool finish(struct frame *f, uint32_t outputs)
{
	uint32_t i;

	for (i = 0; i < f->n; i++) {
		if (f->ok && (outputs & (1u << i)) && !buf_out(f->uc, &f->b[i], f->bad))
			f->ok = false;
		buf_free(&f->b[i]);
	}
	return f->ok;
}

static bool derive(uc_engine *uc, uint32_t addr, uint32_t *r, uint32_t *bad)
{
	struct hal_svc_derive d;
	struct frame f = { .uc = uc, .bad = bad, .ok = true };
	char label_buf[HAL_SVC_LABEL_MAX];
	const char *label;
	hal_key_t key = HAL_KEY_INVALID;
	uint8_t *ctx, *res;

	if (!chip_mprot_allows(addr, sizeof(d), CHIP_MPROT_R) ||
	    uc_mem_read(uc, addr, &d, sizeof(d)) != UC_ERR_OK) {
		*bad = addr;
		return false;
	}
	if (!label_in(uc, d.label, label_buf, &label, bad))
		return false;
	ctx = in(&f, d.context, d.context_len);
	res = out(&f, d.out, sizeof(key));
	if (f.ok) {
		*r = hal_keymgr_derive(d.parent, label, ctx, d.context_len, d.key_version,
				       d.max_key_version, d.purpose, res ? &key : NULL);
		if (res)
			memcpy(res, &key, sizeof(key));
	}
	return finish(&f, 1u << 1);
}

bool core_svc(uc_engine *uc, uint32_t nr, uint32_t *bad)
{
	struct frame f = { .uc = uc, .bad = bad, .ok = true };
	uint32_t a[3] = { 0 }, r = 0, outputs = 0;
	uint8_t *p, *q, *s;

	uc_reg_read(uc, UC_RISCV_REG_A0, &a[0]);
	uc_reg_read(uc, UC_RISCV_REG_A1, &a[1]);
	uc_reg_read(uc, UC_RISCV_REG_A2, &a[2]);
	*bad = 0;
	switch (nr) {
	case HAL_SVC_SHA256_START:
		r = hal_sha256_start();
		break;
	case HAL_SVC_SHA256_UPDATE:
		p = in(&f, a[0], a[1]);
		if (f.ok)
			r = hal_sha256_update(p, a[1]);
		break;
	case HAL_SVC_SHA256_FINISH:
		p = out(&f, a[0], OTA_SHA256_BYTES);
		if (f.ok)
			r = hal_sha256_finish(p);
		outputs = 1;
		break;
	case HAL_SVC_KMAC_START:
		p = in(&f, a[1], a[2]);
		if (f.ok)
			r = hal_kmac_start(a[0], p, a[2]);
		break;
	case HAL_SVC_KMAC_UPDATE:
		p = in(&f, a[0], a[1]);
		if (f.ok)
			r = hal_kmac_update(p, a[1]);
		break;
	case HAL_SVC_KMAC_FINISH:
		p = out(&f, a[0], a[1]);
		if (f.ok)
			r = hal_kmac_finish(p, a[1]);
		outputs = 1;
		break;
	case HAL_SVC_ECDSA_VERIFY:
		p = in(&f, a[0], OTA_P256_PUBKEY_BYTES);
		q = in(&f, a[1], OTA_SHA256_BYTES);
		s = in(&f, a[2], OTA_P256_SIG_BYTES);
		if (f.ok)
			r = hal_ecdsa_verify(p, q, s);
		break;
	case HAL_SVC_ECDSA_SIGN:
		p = in(&f, a[1], OTA_SHA256_BYTES);
		q = out(&f, a[2], OTA_P256_SIG_BYTES);
		if (f.ok)
			r = hal_ecdsa_sign(a[0], p, q);
		outputs = 1u << 1;
		break;
	case HAL_SVC_ECDSA_PUBKEY:
		p = out(&f, a[1], OTA_P256_PUBKEY_BYTES);
		if (f.ok)
			r = hal_ecdsa_pubkey(a[0], p);
		outputs = 1;
		break;
	case HAL_SVC_KEYMGR_ADVANCE:
		p = in(&f, a[1], sizeof(struct hal_keymgr_binding));
		if (f.ok)
			r = hal_keymgr_advance(a[0], (const struct hal_keymgr_binding *)p);
		break;
	case HAL_SVC_KEYMGR_SET_PREDECESSOR:
		p = in(&f, a[0], OTA_SHA256_BYTES);
		if (f.ok)
			r = hal_keymgr_set_predecessor(p);
		break;
	case HAL_SVC_KEYMGR_HANDOVER:
		p = out(&f, a[0], sizeof(struct ota_identity_handover));
		if (f.ok)
			r = hal_keymgr_handover((struct ota_identity_handover *)p);
		outputs = 1;
		break;
	case HAL_SVC_KEYMGR_STATE:
		r = hal_keymgr_state();
		break;
	case HAL_SVC_KEYMGR_CDI:
		r = hal_keymgr_cdi(a[0]);
		break;
	case HAL_SVC_KEYMGR_DERIVE:
		if (!derive(uc, a[0], &r, bad))
			return false;
		break;
	case HAL_SVC_KEY_DESTROY:
		hal_key_destroy(a[0]);
		break;
	case HAL_SVC_KEY_RETAIN:
		r = hal_key_retain(a[0], a[1]);
		break;
	case HAL_SVC_KEY_RETAINED: {
		hal_key_t key = HAL_KEY_INVALID;

		p = out(&f, a[1], sizeof(key));
		if (f.ok) {
			r = hal_key_retained(a[0], p ? &key : NULL);
			if (p)
				memcpy(p, &key, sizeof(key));
		}
		outputs = 1;
		break;
	}
	case HAL_SVC_KEY_RETAINED_CLEAR:
		hal_key_retained_clear(a[0]);
		break;
	case HAL_SVC_FLASH_SIZE:
		r = hal_flash_size();
		break;
	case HAL_SVC_FLASH_PAGE_SIZE:
		r = hal_flash_page_size();
		break;
	case HAL_SVC_FLASH_READ:
		p = out(&f, a[1], a[2]);
		if (f.ok)
			r = hal_flash_read(a[0], p, a[2]);
		outputs = 1;
		break;
	case HAL_SVC_FLASH_ERASE_PAGE:
		r = hal_flash_erase_page(a[0]);
		break;
	case HAL_SVC_FLASH_PROGRAM:
		p = in(&f, a[1], a[2]);
		if (f.ok)
			r = hal_flash_program(a[0], p, a[2]);
		break;
	case HAL_SVC_FLASH_PROTECT:
		r = hal_flash_protect(a[0], a[1]);
		break;
	case HAL_SVC_FLASH_READ_SHA256:
		p = out(&f, a[1], a[2]);
		if (f.ok)
			r = hal_flash_read_sha256(a[0], p, a[2]);
		outputs = 1;
		break;
	case HAL_SVC_OTP_READ:
		p = out(&f, a[1], a[2]);
		if (f.ok)
			r = hal_otp_read(a[0], p, a[2]);
		outputs = 1;
		break;
	case HAL_SVC_OTP_PROGRAM:
		p = in(&f, a[1], a[2]);
		if (f.ok)
			r = hal_otp_program(a[0], p, a[2]);
		break;
	case HAL_SVC_RETENTION_READ:
		p = out(&f, a[1], a[2]);
		if (f.ok)
			r = hal_retention_read(a[0], p, a[2]);
		outputs = 1;
		break;
	case HAL_SVC_RETENTION_WRITE:
		p = in(&f, a[1], a[2]);
		if (f.ok)
			r = hal_retention_write(a[0], p, a[2]);
		break;
	default:
		*bad = 0;
		return false;
	}
	if (!finish(&f, outputs))
		return false;
	uc_reg_write(uc, UC_RISCV_REG_A0, &r);
	return true;
}
