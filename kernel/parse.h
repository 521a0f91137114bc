/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The driver's judgement of what the device wrote, as pure functions on
 * copies already taken out of shared memory: no I/O, no allocation, no
 * kernel API. The same code is compiled into otattest.ko and into the
 * userspace tests that attack it (tests/fuzz/fuzz_kernel_parse.c under
 * libFuzzer + ASan, tests/unit/test_kernel_parse.c under check), so what
 * is proven there is what runs here.
 *
 * Every function bounds a length before anything uses it and returns a
 * status from status.h that says exactly what was wrong.
 */
#ifndef OTATTEST_KERNEL_PARSE_H
#define OTATTEST_KERNEL_PARSE_H

#include <otattest/record.h>
#include <otattest/shm.h>
#include <otattest/status.h>

static inline uint32_t otattest_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * How many record bytes to copy, given a copy of the record region's
 * header and the region's size: the claimed length when it fits both the
 * region and struct ota_record, else 0 (nothing is copied).
 */
static inline uint32_t otattest_record_copy_len(const struct ota_shm_record *rh,
						uint32_t region_size)
{
	uint32_t cap;

	if (region_size < sizeof(*rh))
		return 0;
	cap = region_size - (uint32_t)sizeof(*rh);
	if (cap > sizeof(struct ota_record))
		cap = (uint32_t)sizeof(struct ota_record);
	return rh->length <= cap ? rh->length : 0;
}

/*
 * Judge a consistent copy of the record region (header rh, then the
 * bytes copied per otattest_record_copy_len): OTA_OK with a record that
 * passes ota_record_validate, OTA_DRIVER_NO_RECORD for length 0, or why
 * the record is refused.
 */
static inline ota_status_t otattest_record_check(const struct ota_shm_record *rh,
						 uint32_t region_size, const void *record)
{
	if (rh->reserved[0] || rh->reserved[1])
		return OTA_RECORD_RESERVED_NONZERO;
	if (!rh->length)
		return OTA_DRIVER_NO_RECORD;
	if (otattest_record_copy_len(rh, region_size) != rh->length)
		return OTA_DRIVER_RECORD_OVERSIZE;
	return ota_record_validate(record, rh->length);
}

/* Statuses only the host side produces; a device claiming one is lying. */
static inline bool otattest_status_is_host_only(ota_status_t st)
{
	uint32_t module = (st >> 8) & 0xffu;

	return module == OTA_MOD_HOST || module == OTA_MOD_SHM || module == OTA_MOD_DRIVER ||
	       module == OTA_MOD_VERIFY;
}

/*
 * Judge a copy of the response header for request (seq, command), before
 * any payload is copied: region_size is the response region's, cap the
 * most payload the command may have. OTA_OK means copy h->length bytes;
 * any other value is the request's outcome (the device's own refusal when
 * it is one the device may give).
 */
static inline ota_status_t otattest_response_check(const struct ota_mbox_header *h, uint32_t seq,
						   uint32_t command, uint32_t region_size,
						   uint32_t cap)
{
	if (h->seq != seq || h->command != command)
		return OTA_HOST_PROTOCOL;
	if (region_size < sizeof(*h) || h->length > region_size - (uint32_t)sizeof(*h))
		return OTA_DRIVER_RESPONSE_OVERSIZE;
	if (h->status != OTA_OK) {
		if (!ota_status_message(h->status) || otattest_status_is_host_only(h->status))
			return OTA_DRIVER_UNKNOWN_STATUS;
		return h->status;
	}
	if (h->length > cap)
		return OTA_DRIVER_RESPONSE_OVERSIZE;
	return OTA_OK;
}

/* STABLE_SIGN: exactly the struct, reserved zero, for the SVN asked. */
static inline ota_status_t otattest_stable_sign_check(const void *p, uint32_t len, uint32_t svn)
{
	const struct ota_resp_stable_sign *r = (const struct ota_resp_stable_sign *)p;

	if (len != sizeof(*r) || r->reserved || r->svn != svn)
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/* ROTATE_TAGS: exactly the struct, reserved zero. */
static inline ota_status_t otattest_rotate_check(const void *p, uint32_t len)
{
	const struct ota_resp_rotate *r = (const struct ota_resp_rotate *)p;

	if (len != sizeof(*r) || r->reserved)
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/* UPDATE_RESET: exactly the struct, reserved zero, a real slot. */
static inline ota_status_t otattest_reset_check(const void *p, uint32_t len)
{
	const struct ota_resp_reset *r = (const struct ota_resp_reset *)p;

	if (len != sizeof(*r) || r->reserved || r->booted_slot >= OTA_SLOT_COUNT)
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/*
 * INSTALL_BEGIN and INSTALL_CHUNK: exactly the struct, the stage and the
 * length the session was opened with, a real slot, and no more received
 * than announced. want_slot is the slot asked for (OTA_UPDATE_SLOT_OTHER:
 * either), received the count the driver expects after this request.
 */
static inline ota_status_t otattest_install_check(const void *p, uint32_t len, uint32_t stage,
						  uint32_t want_slot, uint32_t length, uint32_t received)
{
	const struct ota_resp_install *r = (const struct ota_resp_install *)p;

	if (len != sizeof(*r) || r->stage != stage || r->slot >= OTA_SLOT_COUNT ||
	    (want_slot != OTA_UPDATE_SLOT_OTHER && r->slot != want_slot) || r->length != length ||
	    r->received != received)
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/*
 * Does a chunk of len bytes at offset fit the install session the driver
 * let through (open, begun by the netlink port id owner, received bytes of
 * length so far)? OTA_OK, or the device's own status for why not, checked
 * in the device's order; sender is the port id of the chunk's socket.
 */
static inline ota_status_t otattest_install_chunk_fits(bool open, uint32_t owner, uint32_t sender,
						       uint32_t received, uint32_t length,
						       uint32_t offset, uint32_t len)
{
	if (!open || owner != sender)
		return OTA_INSTALL_NOT_STARTED;
	if (!len || len > OTA_INSTALL_CHUNK_MAX)
		return OTA_INSTALL_CHUNK_LENGTH;
	if (offset != received)
		return OTA_INSTALL_BAD_OFFSET;
	/* received <= length holds for a session: subtract, never add. */
	if (received > length || len > length - received)
		return OTA_INSTALL_OVERRUN;
	return OTA_OK;
}

/*
 * INSTALL_FINISH: exactly the struct, what the session announced, an SVN
 * in range, known result flags (a dry run says so and writes nothing, a
 * real install says it wrote), reserved zero and a version string that is
 * printable ASCII followed by NULs (ota_version_string_ok).
 */
static inline ota_status_t otattest_install_finish_check(const void *p, uint32_t len,
							 uint32_t stage, uint32_t slot,
							 uint32_t length, bool dry_run)
{
	const struct ota_resp_install_finish *r = (const struct ota_resp_install_finish *)p;
	uint32_t want = dry_run ? OTA_INSTALL_RESULT_F_DRY_RUN : OTA_INSTALL_RESULT_F_WRITTEN;

	if (len != sizeof(*r) || r->stage != stage || r->slot != slot || r->length != length ||
	    r->security_version > OTA_SVN_LIMIT || r->flags != want || r->reserved ||
	    !ota_version_string_ok(r->version))
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/*
 * GET_INFO: exactly the struct, reserved zero, and a runtime version that
 * is printable ASCII followed by NULs (ota_version_string_ok) and not
 * empty: a runtime that answers has a version.
 */
static inline ota_status_t otattest_info_check(const void *p, uint32_t len)
{
	const struct ota_resp_info *r = (const struct ota_resp_info *)p;

	if (len != sizeof(*r) || r->reserved[0] || r->reserved[1] || r->reserved[2] ||
	    r->reserved[3] || !r->runtime_version[0] || !ota_version_string_ok(r->runtime_version))
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/* COMMIT, RATCHET, REVOKE: exactly the struct, real slots, SVN-sized floors, reserved zero. */
static inline ota_status_t otattest_boot_svc_check(const void *p, uint32_t len)
{
	const struct ota_resp_boot_svc *r = (const struct ota_resp_boot_svc *)p;

	if (len != sizeof(*r) || r->reserved || r->booted_slot >= OTA_SLOT_COUNT ||
	    r->primary_slot >= OTA_SLOT_COUNT || r->floor_rom_ext > OTA_SVN_LIMIT ||
	    r->floor_bl0 > OTA_SVN_LIMIT || r->revocation_sequence > OTA_REVOCATION_SEQ_MAX)
		return OTA_HOST_PROTOCOL;
	return OTA_OK;
}

/*
 * GET_CERTS: count (1..OTA_CERTS_MAX) entries of a u32 length and that
 * many DER bytes zero-padded to 4, with nothing before, between or after.
 * Returns the count, or 0 when the response is malformed.
 */
static inline uint32_t otattest_certs_check(const uint8_t *p, uint32_t len)
{
	const struct ota_resp_certs *h = (const struct ota_resp_certs *)p;
	uint32_t off = (uint32_t)sizeof(*h), i, k, clen, pad;

	if (len < sizeof(*h) || !h->count || h->count > OTA_CERTS_MAX || h->reserved)
		return 0;
	for (i = 0; i < h->count; i++) {
		if (len - off < 4u)
			return 0;
		clen = otattest_le32(p + off);
		off += 4u;
		if (!clen || clen > len - off)
			return 0;
		/* Padding apart, so no sum can wrap: clen <= len - off here. */
		pad = (4u - (clen & 3u)) & 3u;
		if (pad > len - off - clen)
			return 0;
		for (k = 0; k < pad; k++)
			if (p[off + clen + k])
				return 0;
		off += clen + pad;
	}
	return off == len ? h->count : 0;
}

/*
 * The i-th certificate of a list otattest_certs_check accepted: its
 * offset and length. Only valid for i < the count it returned.
 */
static inline void otattest_cert_at(const uint8_t *p, uint32_t i, uint32_t *off, uint32_t *clen)
{
	uint32_t o = (uint32_t)sizeof(struct ota_resp_certs), n;

	for (;;) {
		n = otattest_le32(p + o);
		if (!i--) {
			*off = o + 4u;
			*clen = n;
			return;
		}
		o += 4u + n + ((4u - (n & 3u)) & 3u);
	}
}

#endif /* OTATTEST_KERNEL_PARSE_H */
