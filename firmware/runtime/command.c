// SPDX-License-Identifier: MIT
/*
 * ota_runtime_command: the mailbox front door. Every request is copied out of
 * the (host-writable) request buffer first, then checked completely -
 * exact length for the command, reserved fields zero, lengths and SVNs in
 * range, padding zero - before anything acts on it. Each refusal has its
 * own status, and a refused request changes nothing.
 */
#include <string.h>

#include "firmware.h"
#include "runtime.h"

union ota_request {
	struct ota_req_attest attest;
	struct ota_req_stable_sign sign;
	struct ota_req_rotate rotate;
	struct ota_req_update update;
	struct ota_req_set_identity_cert idcert;
	struct ota_req_install_begin install_begin;
	struct ota_req_install_chunk install_chunk;
	struct ota_req_install_finish install_finish;
	struct ota_req_commit commit;
	struct ota_req_ratchet ratchet;
	struct ota_revocation revocation;
	struct ota_revocation_hybrid revocation_hybrid;
};

/* A 16..64 byte field inside a 64-byte array, with zero padding after it. */
static ota_status_t check_var_field(uint32_t len, const uint8_t *field, ota_status_t bad_len)
{
	if (len < OTA_NONCE_MIN || len > OTA_NONCE_MAX)
		return bad_len;
	if (!ota_all_zero(field + len, OTA_NONCE_MAX - len))
		return OTA_MBOX_RESERVED_NONZERO;
	return OTA_OK;
}

static ota_status_t validate(uint32_t command, const union ota_request *r,
			     const struct ota_boot_state *bs)
{
	switch (command) {
	case OTA_CMD_ATTEST:
		if (r->attest.reserved != 0)
			return OTA_MBOX_RESERVED_NONZERO;
		return check_var_field(r->attest.nonce_len, r->attest.nonce, OTA_MBOX_NONCE_LENGTH);
	case OTA_CMD_STABLE_SIGN:
		if (r->sign.svn > OTA_SVN_LIMIT)
			return OTA_CHAIN_SVN_ABOVE_MAX;
		/* The chain's own bounds exist only when a runtime booted. */
		if (bs != NULL && bs->boot_status == OTA_OK) {
			if (r->sign.svn > bs->otp.chain_max_svn)
				return OTA_CHAIN_SVN_ABOVE_MAX;
			if (r->sign.svn > bs->min_svn)
				return OTA_CHAIN_SVN_ABOVE_MIN;
		}
		return check_var_field(r->sign.msg_len, r->sign.msg, OTA_MBOX_MESSAGE_LENGTH);
	case OTA_CMD_ROTATE_TAGS:
		if (r->rotate.flags != 0 || r->rotate.reserved != 0)
			return OTA_MBOX_RESERVED_NONZERO;
		return OTA_OK;
	case OTA_CMD_UPDATE_RESET:
		if (r->update.reserved != 0)
			return OTA_MBOX_RESERVED_NONZERO;
		if (r->update.slot != OTA_SLOT_A && r->update.slot != OTA_SLOT_B &&
		    r->update.slot != OTA_UPDATE_SLOT_OTHER)
			return OTA_MBOX_BAD_FIELD;
		return OTA_OK;
	case OTA_CMD_INSTALL_BEGIN:
		if (r->install_begin.stage != OTA_STAGE_ROM_EXT && r->install_begin.stage != OTA_STAGE_BL0)
			return OTA_MBOX_BAD_FIELD;
		if (r->install_begin.slot >= OTA_SLOT_COUNT &&
		    r->install_begin.slot != OTA_UPDATE_SLOT_OTHER)
			return OTA_MBOX_BAD_FIELD;
		if (r->install_begin.flags & ~OTA_INSTALL_F_ALL)
			return OTA_MBOX_RESERVED_NONZERO;
		return OTA_OK;
	case OTA_CMD_INSTALL_CHUNK:
		if (r->install_chunk.length == 0 || r->install_chunk.length > OTA_INSTALL_CHUNK_MAX)
			return OTA_INSTALL_CHUNK_LENGTH;
		if (!ota_all_zero(r->install_chunk.data + r->install_chunk.length,
				  OTA_INSTALL_CHUNK_MAX - r->install_chunk.length))
			return OTA_MBOX_RESERVED_NONZERO;
		return OTA_OK;
	case OTA_CMD_INSTALL_FINISH:
		if (r->install_finish.flags != 0 || r->install_finish.reserved != 0)
			return OTA_MBOX_RESERVED_NONZERO;
		return OTA_OK;
	case OTA_CMD_COMMIT:
		if (r->commit.reserved != 0)
			return OTA_MBOX_RESERVED_NONZERO;
		return r->commit.slot < OTA_SLOT_COUNT ? OTA_OK : OTA_MBOX_BAD_FIELD;
	case OTA_CMD_RATCHET:
		if (r->ratchet.stage != OTA_STAGE_ROM_EXT && r->ratchet.stage != OTA_STAGE_BL0)
			return OTA_MBOX_BAD_FIELD;
		return r->ratchet.floor <= OTA_SVN_LIMIT && !(r->ratchet.flags & ~OTA_RATCHET_F_ALL)
			       ? OTA_OK
			       : OTA_MBOX_BAD_FIELD;
	case OTA_CMD_SET_IDENTITY_CERT:
		if (r->idcert.reserved != 0)
			return OTA_MBOX_RESERVED_NONZERO;
		if (r->idcert.der_length == 0 || r->idcert.der_length > sizeof(r->idcert.der))
			return OTA_MBOX_CERT_LENGTH;
		if (!ota_all_zero(r->idcert.der + r->idcert.der_length,
				  sizeof(r->idcert.der) - r->idcert.der_length))
			return OTA_MBOX_RESERVED_NONZERO;
		return OTA_OK;
	}
	return OTA_OK; /* commands without a payload */
}

static ota_status_t respond(const void *src, uint32_t len, uint8_t *resp, uint32_t cap,
			    uint32_t *resp_len)
{
	if (len > cap)
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	memcpy(resp, src, len);
	*resp_len = len;
	return OTA_OK;
}

/*
 * The commands that reset the device. Before the reset (after == false) a
 * refusal is answered at once - with the boot that keeps running - and an
 * accepted request gets no answer: the runtime that boots next gives it,
 * called again with after == true.
 */
static ota_status_t reset_command(uint32_t command, const union ota_request *r, bool after,
				  uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	union {
		struct ota_resp_rotate rotate;
		struct ota_resp_reset reset;
		struct ota_resp_boot_svc svc;
	} out;
	uint32_t len = ota_mbox_command(command)->response_max;
	bool now = false; /* answered without a reset (a boot service with nothing to do) */
	ota_status_t st;

	if (resp_cap < len)
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	memset(&out, 0, sizeof(out));
	if (command == OTA_CMD_COMMIT || command == OTA_CMD_RATCHET || command == OTA_CMD_REVOKE ||
	    command == OTA_CMD_REVOKE_HYBRID)
		st = after ? ota_rt_svc_done(command, &out.svc)
			   : ota_rt_svc_request(command, &r->commit, &r->ratchet, &r->revocation,
						&r->revocation_hybrid, &out.svc, &now);
	else if (command == OTA_CMD_ROTATE_TAGS)
		st = after ? ota_rt_rotate_done(&out.rotate) : ota_rt_rotate_request(&out.rotate);
	else if (command == OTA_CMD_UPDATE_RESET)
		st = after ? ota_rt_update_done(r->update.slot, &out.reset)
			   : ota_rt_update_request(r->update.slot, &out.reset);
	else
		st = after ? ota_rt_warm_done(&out.reset) : ota_rt_warm_request(&out.reset);
	if (!after && st == OTA_OK && !now)
		return OTA_OK;
	respond(&out, len, resp, resp_cap, resp_len);
	return st;
}

/*
 * The copy of the request being served: static, since a hybrid revocation
 * makes it 8000 bytes (too many for BL0's stack); the request that asked
 * for a reset is copied into it again when the runtime that boots answers.
 */
static union ota_request request_copy;

ota_status_t ota_runtime_command(uint32_t command, const uint8_t *req, uint32_t req_len,
				 uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	const struct ota_boot_state *bs = ota_boot_state();
	const struct ota_mbox_command_desc *desc;
	const struct ota_runtime *rt;
	union ota_request *const r = &request_copy;
	ota_status_t st;

	*resp_len = 0;
	/* The one table (mailbox.h) says what is a command and how long its request is. */
	desc = ota_mbox_command(command);
	if (desc == NULL)
		return OTA_MBOX_UNKNOWN_COMMAND;
	if (req_len != desc->request_len || req_len > sizeof(*r))
		return OTA_MBOX_BAD_LENGTH;
	/* Copy first: the host may rewrite the buffer while we look at it. */
	memset(r, 0, sizeof(*r));
	if (req_len)
		memcpy(r, req, req_len);
	st = validate(command, r, bs);
	if (st != OTA_OK)
		return st;

	if (bs == NULL)
		return OTA_MBOX_NOT_READY;
	if (command == OTA_CMD_GET_RECORD) {
		/* Served even when no runtime booted: it says why. */
		if (bs->record_len > sizeof(bs->record))
			return OTA_RECORD_BAD_LENGTH;
		return respond(&bs->record, bs->record_len, resp, resp_cap, resp_len);
	}
	rt = ota_runtime_current(bs);
	if (rt == NULL)
		return OTA_MBOX_NOT_READY;

	switch (command) {
	case OTA_CMD_ATTEST:
		return ota_rt_attest(bs, rt, r->attest.nonce, r->attest.nonce_len, resp, resp_cap,
				     resp_len);
	case OTA_CMD_STABLE_SIGN:
		return ota_rt_stable_sign(&r->sign, resp, resp_cap, resp_len);
	case OTA_CMD_GET_CERTS:
		return ota_rt_get_certs(rt, resp, resp_cap, resp_len);
	case OTA_CMD_GET_IDENTITY_CSR:
		return ota_rt_get_identity_csr(bs, rt, resp, resp_cap, resp_len);
	case OTA_CMD_SET_IDENTITY_CERT:
		return ota_rt_set_identity_cert(bs, rt, &r->idcert);
	case OTA_CMD_INSTALL_BEGIN:
	case OTA_CMD_INSTALL_CHUNK: {
		struct ota_resp_install out;

		st = command == OTA_CMD_INSTALL_BEGIN ? ota_rt_install_begin(&r->install_begin, &out)
						      : ota_rt_install_chunk(&r->install_chunk, &out);
		return st == OTA_OK ? respond(&out, sizeof(out), resp, resp_cap, resp_len) : st;
	}
	case OTA_CMD_GET_INFO: {
		struct ota_resp_info out;

		st = ota_rt_get_info(&out);
		return st == OTA_OK ? respond(&out, sizeof(out), resp, resp_cap, resp_len) : st;
	}
	case OTA_CMD_INSTALL_FINISH: {
		struct ota_resp_install_finish out;

		st = ota_rt_install_finish(&out);
		return st == OTA_OK ? respond(&out, sizeof(out), resp, resp_cap, resp_len) : st;
	}
	case OTA_CMD_ROTATE_TAGS:
	case OTA_CMD_UPDATE_RESET:
	case OTA_CMD_WARM_RESET:
	case OTA_CMD_COMMIT:
	case OTA_CMD_RATCHET:
	case OTA_CMD_REVOKE:
	case OTA_CMD_REVOKE_HYBRID:
		return reset_command(command, r, false, resp, resp_cap, resp_len);
	}
	return OTA_MBOX_UNKNOWN_COMMAND;
}

ota_status_t ota_runtime_resume(uint32_t command, const uint8_t *req, uint32_t req_len,
				uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	const struct ota_mbox_command_desc *desc = ota_mbox_command(command);
	union ota_request *const r = &request_copy;

	*resp_len = 0;
	/* The same request that asked for the reset, still in the mailbox: copy, check again. */
	if (desc == NULL || !(desc->flags & OTA_MBOX_F_RESETS))
		return OTA_MBOX_UNKNOWN_COMMAND;
	if (req_len != desc->request_len || req_len > sizeof(*r))
		return OTA_MBOX_BAD_LENGTH;
	memset(r, 0, sizeof(*r));
	if (req_len)
		memcpy(r, req, req_len);
	return reset_command(command, r, true, resp, resp_cap, resp_len);
}
