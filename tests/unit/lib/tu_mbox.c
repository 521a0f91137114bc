// SPDX-License-Identifier: MIT
/* The update agent's mailbox calls for the unit tests (tu_mbox.h). */
#include <check.h>
#include <string.h>

#include "fw_run.h"
#include "tu_mbox.h"

uint8_t tu_resp[OTA_MBOX_RESPONSE_MAX_ANY];
uint32_t tu_resp_len;

ota_status_t tu_cmd(uint32_t command, const void *req, uint32_t len)
{
	return ota_fw_command(command, req, len, tu_resp, sizeof(tu_resp), &tu_resp_len);
}

ota_status_t tu_install_begin(uint32_t stage, uint32_t slot, uint32_t length, uint32_t flags)
{
	struct ota_req_install_begin b = { stage, slot, length, flags };

	return tu_cmd(OTA_CMD_INSTALL_BEGIN, &b, sizeof(b));
}

ota_status_t tu_install_chunk(uint32_t offset, const uint8_t *data, uint32_t len)
{
	static struct ota_req_install_chunk c;

	memset(&c, 0, sizeof(c));
	c.offset = offset;
	c.length = len;
	memcpy(c.data, data, len);
	return tu_cmd(OTA_CMD_INSTALL_CHUNK, &c, sizeof(c));
}

ota_status_t tu_install_finish(void)
{
	struct ota_req_install_finish f = { 0, 0 };

	return tu_cmd(OTA_CMD_INSTALL_FINISH, &f, sizeof(f));
}

ota_status_t tu_install(uint32_t stage, uint32_t slot, const uint8_t *img, uint32_t len,
			uint32_t flags)
{
	uint32_t off, n;

	OTA_TRY(tu_install_begin(stage, slot, len, flags));
	for (off = 0; off < len; off += n) {
		n = len - off < OTA_INSTALL_CHUNK_MAX ? len - off : OTA_INSTALL_CHUNK_MAX;
		OTA_TRY(tu_install_chunk(off, img + off, n));
	}
	return tu_install_finish();
}

ota_status_t tu_commit(uint32_t slot)
{
	struct ota_req_commit c = { slot, 0 };

	return tu_cmd(OTA_CMD_COMMIT, &c, sizeof(c));
}

ota_status_t tu_ratchet(uint32_t stage, uint32_t floor)
{
	return tu_ratchet_flags(stage, floor, 0);
}

ota_status_t tu_ratchet_flags(uint32_t stage, uint32_t floor, uint32_t flags)
{
	struct ota_req_ratchet r = { stage, floor, flags };

	return tu_cmd(OTA_CMD_RATCHET, &r, sizeof(r));
}

ota_status_t tu_update_reset(uint32_t slot)
{
	struct ota_req_update u = { slot, 0 };

	return tu_cmd(OTA_CMD_UPDATE_RESET, &u, sizeof(u));
}

ota_status_t tu_revoke(const struct ota_revocation *r)
{
	return tu_cmd(OTA_CMD_REVOKE, r, sizeof(*r));
}

ota_status_t tu_revoke_hybrid(const struct ota_revocation_hybrid *h)
{
	return tu_cmd(OTA_CMD_REVOKE_HYBRID, h, sizeof(*h));
}

void tu_revocation_hybrid(enum tu_key_id key, uint32_t action, uint32_t target, uint32_t value,
			  uint32_t seq, const uint8_t *device, struct ota_revocation_hybrid *out)
{
	struct oti_revocation_params p = { action, target, value, seq, device };
	struct oti_diag d;

	ck_assert_uint_eq(oti_revocation_build_hybrid(&p, tu_key(key), out, &d), OTA_OK);
}

struct ota_revocation tu_revocation(enum tu_key_id key, uint32_t action, uint32_t target,
				    uint32_t value, uint32_t seq, const uint8_t *device)
{
	struct oti_revocation_params p = { action, target, value, seq, device };
	struct ota_revocation r;
	struct oti_diag d;

	ck_assert_uint_eq(oti_revocation_build(&p, tu_key(key), &r, &d), OTA_OK);
	return r;
}
