// SPDX-License-Identifier: GPL-2.0
/*
 * The update agent's commands (docs/kernel-abi.md, "Updates"): an image
 * streamed to the device in an install session (INSTALL_BEGIN, CHUNK,
 * FINISH; a dry run is the check), and the boot services COMMIT, RATCHET
 * and REVOKE. All need device access and go in the privileged lane
 * (netlink.c decides both before a handler runs).
 *
 * The device keeps one install session and checks every chunk itself;
 * the driver holds each chunk to the session too, before it reaches the
 * mailbox: only the socket that began the session may continue it, a
 * chunk must start where the image continues, be 1..OTA_INSTALL_CHUNK_MAX
 * bytes and end within the announced length. So a second client cannot
 * splice its bytes into another's image, and a malformed request costs
 * the device nothing. The refusals are the device's own statuses
 * (INSTALL_*), so a caller sees the same failure whichever side found it.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include <otattest/revocation.h>

#include "netlink-gen.h"
#include "netlink.h"
#include "otattest.h"
#include "parse.h"

#define OTATTEST_INSTALL_REPLY_SIZE (4 * nla_total_size(sizeof(u32)))

static int otattest_install_reply(struct genl_info *info, struct otattest_device *od,
				  const struct otattest_install *in)
{
	struct sk_buff *msg;
	void *hdr;

	msg = otattest_reply_new(info, od, OTATTEST_INSTALL_REPLY_SIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, OTATTEST_A_STAGE, in->stage) ||
	    nla_put_u32(msg, OTATTEST_A_SLOT, in->slot) ||
	    nla_put_u32(msg, OTATTEST_A_IMAGE_OFFSET, in->received) ||
	    nla_put_u32(msg, OTATTEST_A_IMAGE_LENGTH, in->length)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return otattest_reply_send(msg, hdr, info);
}

/* A missing attribute: EINVAL with its type in NLMSGERR_ATTR_MISS_TYPE. */
static int otattest_need(struct genl_info *info, int type)
{
	return GENL_REQ_ATTR_CHECK(info, type) ? -EINVAL : 0;
}

int otattest_nl_install_begin_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	struct nlattr *flags = info->attrs[OTATTEST_A_INSTALL_FLAGS];
	struct ota_req_install_begin req = { .slot = OTA_UPDATE_SLOT_OTHER };
	struct otattest_install in;
	ota_status_t st;
	void *resp;
	u32 len;
	int ret;

	ret = otattest_need(info, OTATTEST_A_STAGE) ?:
	      otattest_need(info, OTATTEST_A_IMAGE_LENGTH);
	if (ret)
		return ret;
	req.stage = nla_get_u32(info->attrs[OTATTEST_A_STAGE]);
	req.length = nla_get_u32(info->attrs[OTATTEST_A_IMAGE_LENGTH]);
	if (info->attrs[OTATTEST_A_SLOT])
		req.slot = nla_get_u32(info->attrs[OTATTEST_A_SLOT]);
	if (flags)
		req.flags = nla_get_u32(flags);
	if (req.stage != OTA_STAGE_ROM_EXT && req.stage != OTA_STAGE_BL0) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[OTATTEST_A_STAGE],
				    "stage must be 1 (ROM_EXT) or 2 (BL0)");
		return -EINVAL;
	}
	if (req.slot != OTA_SLOT_A && req.slot != OTA_SLOT_B && req.slot != OTA_UPDATE_SLOT_OTHER) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[OTATTEST_A_SLOT],
				    "slot must be 0 (A), 1 (B) or 0xffffffff (the one not running)");
		return -EINVAL;
	}
	if (req.flags & ~OTA_INSTALL_F_ALL) {
		NL_SET_ERR_MSG_ATTR(info->extack, flags, "unknown install flags");
		return -EINVAL;
	}

	if (mutex_lock_killable(&od->install_lock))
		return otattest_nl_status(info->extack, OTA_HOST_INTERRUPTED);
	/* The device drops whatever session it had when a new one begins. */
	od->install.open = false;
	st = otattest_call(od, OTA_CMD_INSTALL_BEGIN, &req, sizeof(req), &resp, &len);
	if (st == OTA_OK) {
		if (otattest_install_check(resp, len, req.stage, req.slot, req.length, 0) == OTA_OK) {
			const struct ota_resp_install *r = resp;

			od->install = (struct otattest_install){
				.open = true, .owner = info->snd_portid, .stage = req.stage,
				.slot = r->slot, .length = req.length,
				.dry_run = req.flags & OTA_INSTALL_F_DRY_RUN,
			};
		} else {
			dev_warn_ratelimited(&od->dev, "malformed install-begin response (%u bytes)\n", len);
			st = OTA_HOST_PROTOCOL;
		}
		kvfree(resp);
	}
	in = od->install;
	mutex_unlock(&od->install_lock);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);
	return otattest_install_reply(info, od, &in);
}

int otattest_nl_install_chunk_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	struct nlattr *chunk = info->attrs[OTATTEST_A_IMAGE_CHUNK];
	struct ota_req_install_chunk *req;
	struct otattest_install in;
	ota_status_t st;
	void *resp;
	u32 len;
	int ret;

	ret = otattest_need(info, OTATTEST_A_IMAGE_OFFSET) ?:
	      otattest_need(info, OTATTEST_A_IMAGE_CHUNK);
	if (ret)
		return ret;
	/* 6.12's generator renders no length range for a binary attribute: checked here. */
	if (!nla_len(chunk) || nla_len(chunk) > OTA_INSTALL_CHUNK_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, chunk, "OTATTEST_A_IMAGE_CHUNK must be 1 to 4096 bytes");
		return -ERANGE;
	}
	BUILD_BUG_ON(OTA_INSTALL_CHUNK_MAX != 4096); /* the message */
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	req->offset = nla_get_u32(info->attrs[OTATTEST_A_IMAGE_OFFSET]);
	req->length = nla_len(chunk);
	memcpy(req->data, nla_data(chunk), req->length);

	if (mutex_lock_killable(&od->install_lock)) {
		kfree(req);
		return otattest_nl_status(info->extack, OTA_HOST_INTERRUPTED);
	}
	st = otattest_install_chunk_fits(od->install.open, od->install.owner, info->snd_portid,
					 od->install.received, od->install.length, req->offset,
					 req->length);
	if (st == OTA_OK) {
		in = od->install;
		in.received += req->length;
		st = otattest_call(od, OTA_CMD_INSTALL_CHUNK, req, sizeof(*req), &resp, &len);
		if (st == OTA_OK) {
			if (otattest_install_check(resp, len, in.stage, in.slot, in.length,
						   in.received) != OTA_OK) {
				dev_warn_ratelimited(&od->dev,
						     "malformed install-chunk response (%u bytes)\n", len);
				st = OTA_HOST_PROTOCOL;
			}
			kvfree(resp);
		}
		/* A refused chunk ends the session on the device's side too. */
		if (st == OTA_OK)
			od->install.received = in.received;
		else if (st != OTA_HOST_QUEUE_FULL && st != OTA_HOST_INTERRUPTED)
			od->install.open = false;
	}
	in = od->install;
	mutex_unlock(&od->install_lock);
	kfree(req);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);
	return otattest_install_reply(info, od, &in);
}

int otattest_nl_install_finish_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	const struct ota_req_install_finish req = {};
	const struct ota_resp_install_finish *r;
	char version[OTA_VERSION_STRING_BYTES + 1];
	struct otattest_install in;
	struct sk_buff *msg;
	ota_status_t st;
	void *resp = NULL, *hdr;
	u32 len;
	int ret;

	if (mutex_lock_killable(&od->install_lock))
		return otattest_nl_status(info->extack, OTA_HOST_INTERRUPTED);
	in = od->install;
	if (!in.open || in.owner != info->snd_portid) {
		st = OTA_INSTALL_NOT_STARTED;
	} else if (in.received != in.length) {
		st = OTA_INSTALL_INCOMPLETE;
	} else {
		st = otattest_call(od, OTA_CMD_INSTALL_FINISH, &req, sizeof(req), &resp, &len);
		if (st == OTA_OK &&
		    otattest_install_finish_check(resp, len, in.stage, in.slot, in.length,
						  in.dry_run) != OTA_OK) {
			dev_warn_ratelimited(&od->dev, "malformed install-finish response (%u bytes)\n",
					     len);
			kvfree(resp);
			st = OTA_HOST_PROTOCOL;
		}
		/* Finished or refused, the device's session is over. */
		if (st != OTA_HOST_QUEUE_FULL && st != OTA_HOST_INTERRUPTED)
			od->install.open = false;
	}
	mutex_unlock(&od->install_lock);
	/* An install changes what the record says about the slots. */
	if (!in.dry_run)
		otattest_refresh(od);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);

	r = resp;
	memcpy(version, r->version, OTA_VERSION_STRING_BYTES);
	version[OTA_VERSION_STRING_BYTES] = '\0';
	ret = -ENOMEM;
	msg = otattest_reply_new(info, od, 6 * nla_total_size(sizeof(u32)) +
					   nla_total_size(OTA_SHA256_BYTES) +
					   nla_total_size(sizeof(version)), &hdr);
	if (msg && !nla_put_u32(msg, OTATTEST_A_STAGE, r->stage) &&
	    !nla_put_u32(msg, OTATTEST_A_SLOT, r->slot) &&
	    !nla_put_u32(msg, OTATTEST_A_IMAGE_LENGTH, r->length) &&
	    !nla_put_u32(msg, OTATTEST_A_SVN, r->security_version) &&
	    !nla_put_u32(msg, OTATTEST_A_INSTALL_FLAGS, r->flags) &&
	    !nla_put(msg, OTATTEST_A_MEASUREMENT, OTA_SHA256_BYTES, r->measurement) &&
	    !nla_put_string(msg, OTATTEST_A_VERSION, version))
		ret = otattest_reply_send(msg, hdr, info);
	else if (msg)
		nlmsg_free(msg);
	kvfree(resp);
	return ret;
}

/*
 * COMMIT, RATCHET, REVOKE: the device checks the request, resets, and the
 * boot after serves it (otattest_reset_cmd). ota_resp_boot_svc's fields,
 * in order.
 */
static const int otattest_boot_svc_types[] = {
	OTATTEST_A_BOOT_STATUS,   OTATTEST_A_GENERATION, OTATTEST_A_SLOT,
	OTATTEST_A_PRIMARY_SLOT,  OTATTEST_A_FLOOR_ROM_EXT, OTATTEST_A_FLOOR_BL0,
	OTATTEST_A_REVOCATION_SEQUENCE,
};

static int otattest_boot_svc(struct genl_info *info, u32 cmd, const void *req, u32 req_len)
{
	BUILD_BUG_ON(offsetof(struct ota_resp_boot_svc, revocation_sequence) != 6 * sizeof(u32));
	return otattest_reset_cmd(info->user_ptr[0], info, cmd, req, req_len,
				  otattest_boot_svc_check, otattest_boot_svc_types,
				  ARRAY_SIZE(otattest_boot_svc_types));
}

int otattest_nl_commit_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ota_req_commit req = {};
	int ret;

	ret = otattest_need(info, OTATTEST_A_SLOT);
	if (ret)
		return ret;
	req.slot = nla_get_u32(info->attrs[OTATTEST_A_SLOT]);
	if (req.slot != OTA_SLOT_A && req.slot != OTA_SLOT_B) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[OTATTEST_A_SLOT],
				    "slot must be 0 (A) or 1 (B)");
		return -EINVAL;
	}
	return otattest_boot_svc(info, OTA_CMD_COMMIT, &req, sizeof(req));
}

int otattest_nl_ratchet_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *flags = info->attrs[OTATTEST_A_RATCHET_FLAGS];
	struct ota_req_ratchet req = {};
	int ret;

	ret = otattest_need(info, OTATTEST_A_STAGE) ?:
	      otattest_need(info, OTATTEST_A_FLOOR);
	if (ret)
		return ret;
	req.stage = nla_get_u32(info->attrs[OTATTEST_A_STAGE]);
	req.floor = nla_get_u32(info->attrs[OTATTEST_A_FLOOR]);
	if (flags)
		req.flags = nla_get_u32(flags);
	if (req.stage != OTA_STAGE_ROM_EXT && req.stage != OTA_STAGE_BL0) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[OTATTEST_A_STAGE],
				    "stage must be 1 (ROM_EXT) or 2 (BL0)");
		return -EINVAL;
	}
	if (req.flags & ~OTA_RATCHET_F_ALL) {
		NL_SET_ERR_MSG_ATTR(info->extack, flags, "unknown ratchet flags");
		return -EINVAL;
	}
	return otattest_boot_svc(info, OTA_CMD_RATCHET, &req, sizeof(req));
}

int otattest_nl_revoke_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ecdsa = info->attrs[OTATTEST_A_REVOCATION];
	struct nlattr *hybrid = info->attrs[OTATTEST_A_REVOCATION_HYBRID];
	struct ota_revocation req;

	/* The policy's exact lengths are the structs': one size each, asserted here. */
	BUILD_BUG_ON(sizeof(req) != OTATTEST_REVOCATION_LEN);
	BUILD_BUG_ON(sizeof(struct ota_revocation_hybrid) != OTATTEST_REVOCATION_HYBRID_LEN);
	if (!ecdsa == !hybrid) {
		NL_SET_ERR_MSG(info->extack, "REVOKE needs exactly one of OTATTEST_A_REVOCATION "
					     "and OTATTEST_A_REVOCATION_HYBRID");
		return -EINVAL;
	}
	/* 8000 bytes stay in the message: the mailbox copies them out. */
	if (hybrid)
		return otattest_boot_svc(info, OTA_CMD_REVOKE_HYBRID, nla_data(hybrid),
					 OTATTEST_REVOCATION_HYBRID_LEN);
	memcpy(&req, nla_data(ecdsa), sizeof(req));
	return otattest_boot_svc(info, OTA_CMD_REVOKE, &req, sizeof(req));
}
