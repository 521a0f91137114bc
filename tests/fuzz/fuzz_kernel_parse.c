// SPDX-License-Identifier: MIT
/*
 * The kernel driver's checks on device answers (kernel/parse.h, compiled
 * into otattest.ko as is) on hostile bytes. The first input byte picks the
 * check, the rest is what a lying device wrote; every buffer is a heap
 * block of exactly the bytes it claims, so ASan reports any read past a
 * bound. Whatever the check accepts must be safe to use the way the
 * driver then uses it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint8_t sink;

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (!b)
		abort();
	memcpy(b, p, n);
	return b;
}

/* Region header, then region size (u32), then the record bytes. */
static void record_region(const uint8_t *p, size_t n)
{
	struct ota_shm_record rh;
	uint32_t region, copy;
	uint8_t *rec;

	if (n < sizeof(rh) + 4)
		return;
	memcpy(&rh, p, sizeof(rh));
	region = otattest_le32(p + sizeof(rh));
	p += sizeof(rh) + 4;
	n -= sizeof(rh) + 4;
	copy = otattest_record_copy_len(&rh, region);
	if (copy > sizeof(struct ota_record) || (region >= sizeof(rh) && copy > region - sizeof(rh)))
		abort();
	if (copy > n)
		return; /* the driver copies from a region that holds copy bytes */
	rec = dup_exact(p, copy);
	if (otattest_record_check(&rh, region, rec) == OTA_OK &&
	    (rh.length != copy || !rh.length || ota_record_validate(rec, copy) != OTA_OK))
		abort();
	free(rec);
}

/* Header, seq, command, region size, cap. */
static void response(const uint8_t *p, size_t n)
{
	struct ota_mbox_header h;
	uint32_t seq, cmd, region, cap;
	ota_status_t st;

	if (n < sizeof(h) + 16)
		return;
	memcpy(&h, p, sizeof(h));
	seq = otattest_le32(p + 16);
	cmd = otattest_le32(p + 20);
	region = otattest_le32(p + 24);
	cap = otattest_le32(p + 28);
	st = otattest_response_check(&h, seq, cmd, region, cap);
	if (st == OTA_OK && (h.seq != seq || h.command != cmd || h.status != OTA_OK ||
			     h.length > cap || h.length > region - sizeof(h)))
		abort();
	/* A failure is a status userspace gets: always one of ours. */
	if (st != OTA_OK && !ota_status_message(st))
		abort();
	/*
	 * A device cannot make the driver report a host-side failure it did
	 * not detect (EPERM, ETIMEDOUT, ...): host-only statuses come only
	 * from the driver's own three verdicts.
	 */
	if (otattest_status_is_host_only(st) && st != OTA_HOST_PROTOCOL &&
	    st != OTA_DRIVER_RESPONSE_OVERSIZE && st != OTA_DRIVER_UNKNOWN_STATUS)
		abort();
}

static void certs(const uint8_t *p, size_t n)
{
	uint8_t *b = dup_exact(p, n);
	uint32_t count, i, off, clen, total = sizeof(struct ota_resp_certs);

	count = otattest_certs_check(b, (uint32_t)n);
	if (count > OTA_CERTS_MAX)
		abort();
	for (i = 0; i < count; i++) {
		otattest_cert_at(b, i, &off, &clen);
		if (!clen || off > n || clen > n - off)
			abort();
		/* Touch every byte the driver hands to nla_put. */
		for (uint32_t k = 0; k < clen; k++)
			sink += b[off + k];
		total += 4 + clen + ((4 - (clen & 3)) & 3);
	}
	if (count && total != n)
		abort();
	free(b);
}

static void fixed(const uint8_t *p, size_t n)
{
	uint8_t *b = dup_exact(p, n);

	if (otattest_stable_sign_check(b, (uint32_t)n, n >= 4 ? otattest_le32(b) : 0) == OTA_OK &&
	    n != sizeof(struct ota_resp_stable_sign))
		abort();
	if (otattest_rotate_check(b, (uint32_t)n) == OTA_OK && n != sizeof(struct ota_resp_rotate))
		abort();
	if (otattest_reset_check(b, (uint32_t)n) == OTA_OK &&
	    (n != sizeof(struct ota_resp_reset) ||
	     ((const struct ota_resp_reset *)b)->booted_slot >= OTA_SLOT_COUNT))
		abort();
	if (otattest_boot_svc_check(b, (uint32_t)n) == OTA_OK &&
	    (n != sizeof(struct ota_resp_boot_svc) ||
	     ((const struct ota_resp_boot_svc *)b)->primary_slot >= OTA_SLOT_COUNT))
		abort();
	/* GET_INFO: a version the driver shows is non-empty printable ASCII, then NULs. */
	if (otattest_info_check(b, (uint32_t)n) == OTA_OK &&
	    (n != sizeof(struct ota_resp_info) ||
	     !((const struct ota_resp_info *)b)->runtime_version[0] ||
	     !ota_version_string_ok(((const struct ota_resp_info *)b)->runtime_version)))
		abort();
	/* The install answers, held to a session the first words name. */
	if (n >= 16) {
		uint32_t stage = otattest_le32(b), slot = otattest_le32(b + 4),
			 length = otattest_le32(b + 12), received = otattest_le32(b + 8);

		if (otattest_install_check(b, (uint32_t)n, stage, OTA_UPDATE_SLOT_OTHER, length,
					   received) == OTA_OK &&
		    (n != sizeof(struct ota_resp_install) || slot >= OTA_SLOT_COUNT))
			abort();
		if (otattest_install_finish_check(b, (uint32_t)n, stage, slot, otattest_le32(b + 8),
						  n > 16 && (b[16] & 1)) == OTA_OK) {
			const struct ota_resp_install_finish *f = (const void *)b;

			if (n != sizeof(*f) || f->security_version > OTA_SVN_LIMIT ||
			    !ota_version_string_ok(f->version))
				abort();
		}
		/* A chunk the session takes always ends within the image. */
		if (otattest_install_chunk_fits(true, 1, 1, received, length, received, slot) ==
			    OTA_OK &&
		    (slot == 0 || slot > OTA_INSTALL_CHUNK_MAX || received > length ||
		     (uint64_t)received + slot > length))
			abort();
	}
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 65536)
		return 0;
	switch (data[0] & 3) {
	case 0: record_region(data + 1, size - 1); break;
	case 1: response(data + 1, size - 1); break;
	case 2: certs(data + 1, size - 1); break;
	case 3: fixed(data + 1, size - 1); break;
	}
	return 0;
}
