// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "otattest": the command handlers and the events
 * (spec: netlink/otattest.yaml; behaviour: docs/kernel-abi.md). The UAPI,
 * the policies and the ops table are generated from the spec
 * (netlink-gen.[ch], otattest/genl.h); the family is netlink-family.c.
 *
 * Every command has its own strict policy: an attribute the command does
 * not take is refused, types, lengths and ranges are checked by the core
 * before a handler runs. Failures carry the status that explains them:
 * errno from its class (status.h), its message in the extended ack, and
 * the status itself in the extended ack's cookie.
 *
 * The family is parallel_ops: a request waiting for a slow device must
 * not hold genl_mutex, which every other non-parallel family shares. The
 * per-device mailbox (mailbox.c: two lanes, bounded per caller) is the
 * only serialisation requests need.
 *
 * Who may send what is decided here, before any handler runs
 * (otattest_nl_pre_doit; docs/kernel-abi.md, "Permissions"): reading the
 * driver's snapshot (GET_DEVICE, GET_RECORD) is open to everyone, as
 * sysfs is; every command that goes to the device needs a socket opened
 * by a process with CAP_NET_ADMIN in the initial user namespace. The
 * sender itself need not hold it: the privilege travels with the socket,
 * like an open device node's, so otattestd runs with no capability on a
 * socket systemd opened for it (ListenNetlink=), while a socket opened by
 * an unprivileged process never gains it by being handed to a privileged
 * one. So an unprivileged user reaches the device only through otattestd,
 * whose per-user bounds and authorization then hold.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "netlink-gen.h"
#include "netlink.h"
#include "otattest.h"
#include "parse.h"


/*
 * A failure the status st explains: the errno of its class (status.h),
 * its message for people and the status itself for programs, as a u64 in
 * the extack cookie (docs/kernel-abi.md). NL_SET_ERR_MSG takes only string
 * literals on 6.1 (no NL_SET_ERR_MSG_FMT before 6.2), so each status in
 * the list gets its own; a status not in the list (a device that lies)
 * travels in the cookie alone, with EPROTO.
 */
int otattest_nl_status(struct netlink_ext_ack *extack, ota_status_t st)
{
	BUILD_BUG_ON(sizeof(u64) != OTATTEST_STATUS_COOKIE_LEN);

	switch (st) {
#define OTATTEST_X_STATUS_MSG(name, cls, mod, idx, msg) \
	case OTA_##name:                                 \
		NL_SET_ERR_MSG(extack, msg);             \
		break;
		OTA_STATUS_LIST(OTATTEST_X_STATUS_MSG)
#undef OTATTEST_X_STATUS_MSG
	}
	nl_set_extack_cookie_u64(extack, st);
	return -ota_status_errno(st);
}

/* "otattestN" with N in canonical decimal; anything else is refused. */
static bool otattest_parse_name(const char *name, u32 *index)
{
	char canon[OTATTEST_NAME_MAX];
	const char *digits;

	if (strncmp(name, "otattest", 8))
		return false;
	digits = name + 8;
	if (!*digits || kstrtou32(digits, 10, index))
		return false;
	snprintf(canon, sizeof(canon), "otattest%u", *index);
	return !strcmp(canon, name);
}

/* Resolve OTATTEST_A_DEVICE / OTATTEST_A_DEVICE_NAME to a referenced device. */
static struct otattest_device *otattest_nl_select(struct nlattr **attrs,
						  struct netlink_ext_ack *extack)
{
	struct nlattr *a_index = attrs[OTATTEST_A_DEVICE];
	struct nlattr *a_name = attrs[OTATTEST_A_DEVICE_NAME];
	struct otattest_device *od;
	u32 index = 0, by_name;

	if (!a_index && !a_name) {
		NL_SET_ERR_ATTR_MISS(extack, NULL, OTATTEST_A_DEVICE);
		NL_SET_ERR_MSG(extack, "select a device with OTATTEST_A_DEVICE or OTATTEST_A_DEVICE_NAME");
		return ERR_PTR(-EINVAL);
	}
	if (a_index)
		index = nla_get_u32(a_index);
	if (a_name) {
		if (!otattest_parse_name(nla_data(a_name), &by_name)) {
			NL_SET_ERR_MSG_ATTR(extack, a_name, "device name is not of the form otattestN");
			return ERR_PTR(-EINVAL);
		}
		if (a_index && by_name != index) {
			NL_SET_ERR_MSG_ATTR(extack, a_name,
					    "OTATTEST_A_DEVICE and OTATTEST_A_DEVICE_NAME name different devices");
			return ERR_PTR(-EINVAL);
		}
		index = by_name;
	}
	od = otattest_get(index);
	if (!od) {
		NL_SET_BAD_ATTR(extack, a_index ?: a_name);
		return ERR_PTR(otattest_nl_status(extack, OTA_HOST_NO_DEVICE));
	}
	return od;
}

/* Commands that only read the driver's snapshot: open to everyone. */
static bool otattest_nl_snapshot_cmd(u8 cmd)
{
	return cmd == OTATTEST_CMD_GET_DEVICE || cmd == OTATTEST_CMD_GET_RECORD;
}

/* Was the request's socket opened with CAP_NET_ADMIN in the initial user namespace? */
static bool otattest_nl_device_access(const struct sk_buff *skb)
{
	const struct sock *sk = NETLINK_CB(skb).sk;

	return sk && sk->sk_socket && sk->sk_socket->file &&
	       file_ns_capable(sk->sk_socket->file, &init_user_ns, CAP_NET_ADMIN);
}

/*
 * Every command's do takes the device selector: resolve it once, here,
 * after the permission check (so an unprivileged caller learns nothing
 * about which devices exist from a device command).
 */
static int otattest_nl_pre(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od;

	info->user_ptr[0] = NULL;
	if (!otattest_nl_snapshot_cmd(info->genlhdr->cmd) && !otattest_nl_device_access(skb))
		return otattest_nl_status(info->extack, OTA_HOST_PERMISSION);
	od = otattest_nl_select(info->attrs, info->extack);
	if (IS_ERR(od))
		return PTR_ERR(od);
	info->user_ptr[0] = od;
	return 0;
}

static void otattest_nl_post(struct genl_info *info)
{
	if (info->user_ptr[0])
		otattest_put(info->user_ptr[0]);
}

/*
 * The hooks' signatures: 6.1 passes the genl_ops, 6.2 and later the split
 * op (netlink-family.c picks the pair the headers declare). Neither body
 * needs the op: the command is in the request's header.
 */
int otattest_nl_pre_doit_ops(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info)
{
	return otattest_nl_pre(skb, info);
}

int otattest_nl_pre_doit_split(const struct genl_split_ops *ops, struct sk_buff *skb,
			       struct genl_info *info)
{
	return otattest_nl_pre(skb, info);
}

void otattest_nl_post_doit_ops(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info)
{
	otattest_nl_post(info);
}

void otattest_nl_post_doit_split(const struct genl_split_ops *ops, struct sk_buff *skb,
				 struct genl_info *info)
{
	otattest_nl_post(info);
}

static int otattest_put_selector(struct sk_buff *skb, struct otattest_device *od)
{
	if (nla_put_u32(skb, OTATTEST_A_DEVICE, od->index) ||
	    nla_put_string(skb, OTATTEST_A_DEVICE_NAME, dev_name(&od->dev)))
		return -EMSGSIZE;
	return 0;
}


/* Start a reply to info's request; NULL when out of memory. */
struct sk_buff *otattest_reply_new(struct genl_info *info, struct otattest_device *od,
				   size_t payload, void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(OTATTEST_SELECTOR_SIZE + payload, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &otattest_nl_family, 0, info->genlhdr->cmd);
	if (!*hdr || otattest_put_selector(msg, od)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int otattest_reply_send(struct sk_buff *msg, void *hdr, struct genl_info *info)
{
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* The runtime version attribute at its largest. */
#define OTATTEST_RUNTIME_VERSION_SIZE nla_total_size(OTA_VERSION_STRING_BYTES + 1)

/* GET_DEVICE: selector, state, detail, generation (with a record), progress, runtime version. */
#define OTATTEST_DEVICE_SIZE \
	(OTATTEST_SELECTOR_SIZE + 5 * nla_total_size(sizeof(u32)) + OTATTEST_RUNTIME_VERSION_SIZE)

static int otattest_fill_device(struct sk_buff *skb, struct otattest_device *od, u32 portid,
				u32 seq, int flags, u8 cmd)
{
	const struct otattest_snapshot *s = &od->snap;
	void *hdr;
	int ret;

	hdr = genlmsg_put(skb, portid, seq, &otattest_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&od->state_lock);
	ret = otattest_put_selector(skb, od);
	if (!ret && (nla_put_u32(skb, OTATTEST_A_STATE, s->state) ||
		     nla_put_u32(skb, OTATTEST_A_STATE_DETAIL, s->state_detail)))
		ret = -EMSGSIZE;
	if (!ret && s->record_len &&
	    nla_put_u32(skb, OTATTEST_A_GENERATION, s->record.hdr.generation))
		ret = -EMSGSIZE;
	if (!ret && s->state == OTA_DEV_ROTATING &&
	    (nla_put_u32(skb, OTATTEST_A_PROGRESS_DONE, s->info.progress_done) ||
	     nla_put_u32(skb, OTATTEST_A_PROGRESS_TOTAL, s->info.progress_total)))
		ret = -EMSGSIZE;
	if (!ret && s->runtime_version[0] &&
	    nla_put_string(skb, OTATTEST_A_RUNTIME_VERSION, s->runtime_version))
		ret = -EMSGSIZE;
	mutex_unlock(&od->state_lock);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int otattest_nl_get_device_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	struct sk_buff *msg;
	int ret;

	msg = genlmsg_new(OTATTEST_DEVICE_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ret = otattest_fill_device(msg, od, info->snd_portid, info->snd_seq, 0,
				   OTATTEST_CMD_GET_DEVICE);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/* Dump every device; cb->args[0] is the next index to look at. */
int otattest_nl_get_device_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *attrs[OTATTEST_A_DEVICE_NAME + 1];
	unsigned long index = cb->args[0];
	struct otattest_device *od;
	int ret;

	/*
	 * The selector, parsed here: the core has validated the request
	 * against the same policy, but where it keeps its parsed copy moved
	 * (genl_dumpit_info()->attrs in 6.1, ->info.attrs from 6.6), and
	 * genlmsg_parse() is the same in both series.
	 */
	ret = genlmsg_parse(cb->nlh, &otattest_nl_family, attrs, OTATTEST_A_DEVICE_NAME,
			    otattest_get_device_nl_policy, cb->extack);
	if (ret)
		return ret;

	/* With a selector, a dump is a one-device listing. */
	if (attrs[OTATTEST_A_DEVICE] || attrs[OTATTEST_A_DEVICE_NAME]) {
		if (cb->args[1])
			return 0;
		od = otattest_nl_select(attrs, cb->extack);
		if (IS_ERR(od))
			return PTR_ERR(od);
		ret = otattest_fill_device(skb, od, NETLINK_CB(cb->skb).portid,
					   cb->nlh->nlmsg_seq, NLM_F_MULTI, OTATTEST_CMD_GET_DEVICE);
		otattest_put(od);
		cb->args[1] = 1;
		return ret ?: skb->len;
	}

	while ((od = otattest_get_next(&index))) {
		ret = otattest_fill_device(skb, od, NETLINK_CB(cb->skb).portid,
					   cb->nlh->nlmsg_seq, NLM_F_MULTI, OTATTEST_CMD_GET_DEVICE);
		otattest_put(od);
		if (ret)
			break; /* skb full: continue from this index next time */
		index++;
	}
	cb->args[0] = index;
	/* A full skb goes out and the dump continues; 0 bytes means done. */
	if (ret == -EMSGSIZE && skb->len)
		return skb->len;
	return ret ?: skb->len;
}

/* Why there is no record to give, as a status. */
static ota_status_t otattest_no_record_status(const struct otattest_snapshot *s)
{
	if (s->state == OTATTEST_STATE_RECORD_INVALID || s->state == OTATTEST_STATE_INFO_INVALID)
		return s->state_detail;
	return OTA_DRIVER_NO_RECORD;
}

/*
 * The snapshot the interrupt path keeps current (state.c): the device is
 * not read, so any number of readers cost it nothing.
 */
int otattest_nl_get_record_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	struct sk_buff *msg;
	ota_status_t st = OTA_OK;
	void *hdr;

	msg = otattest_reply_new(info, od, nla_total_size(sizeof(struct ota_record)) +
					   nla_total_size(sizeof(u32)) + OTATTEST_RUNTIME_VERSION_SIZE,
				 &hdr);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&od->state_lock);
	if (!od->snap.record_len)
		st = otattest_no_record_status(&od->snap);
	else if (nla_put(msg, OTATTEST_A_RECORD, od->snap.record_len, &od->snap.record) ||
		 nla_put_u32(msg, OTATTEST_A_GENERATION, od->snap.record.hdr.generation) ||
		 (od->snap.runtime_version[0] &&
		  nla_put_string(msg, OTATTEST_A_RUNTIME_VERSION, od->snap.runtime_version)))
		st = OTA_HOST_INTERNAL;
	mutex_unlock(&od->state_lock);
	if (st != OTA_OK) {
		nlmsg_free(msg);
		return otattest_nl_status(info->extack, st);
	}
	return otattest_reply_send(msg, hdr, info);
}

/*
 * Run one mailbox command with a kvmalloc'd response buffer as large as
 * the command's response bound (otattest/mailbox.h: OTA_EVIDENCE_MAX_BYTES
 * for ATTEST), in the lane the command table gives it (otattest/mailbox.h). On success *resp holds *len bytes; the caller
 * kvfree()s it.
 */
ota_status_t otattest_call(struct otattest_device *od, u32 cmd, const void *req, u32 req_len,
			   void **resp, u32 *len)
{
	const struct ota_mbox_command_desc *desc = ota_mbox_command(cmd);
	enum otattest_lane lane;
	ota_status_t st;

	*resp = NULL;
	if (!desc)
		return OTA_HOST_INTERNAL;
	/*
	 * The command table's lane column: a command that changes the device
	 * (resets, flash, fuses) goes ahead of every waiting reader.
	 */
	lane = desc->lane == OTA_MBOX_LANE_READ ? OTATTEST_LANE_READER : OTATTEST_LANE_PRIVILEGED;
	*resp = kvzalloc(desc->response_max, GFP_KERNEL);
	if (!*resp)
		return OTA_HOST_INTERNAL;
	*len = 0;
	st = otattest_mbox_call(od, lane, cmd, req, req_len, *resp, desc->response_max, len);
	if (st != OTA_OK) {
		kvfree(*resp);
		*resp = NULL;
	}
	return st;
}

/*
 * The nonce's length, which the policy cannot check: 6.12's generator
 * renders no length range for a binary attribute (only an exact or a
 * minimum length, and the latter as NLA_UNSPEC, which strict validation
 * refuses). Same errno as a policy range would give.
 */
static bool otattest_nonce_ok(const struct nlattr *nonce, struct netlink_ext_ack *extack)
{
	BUILD_BUG_ON(OTA_NONCE_MIN != 16 || OTA_NONCE_MAX != 64); /* the message */
	if (nla_len(nonce) >= OTA_NONCE_MIN && nla_len(nonce) <= OTA_NONCE_MAX)
		return true;
	NL_SET_ERR_MSG_ATTR(extack, nonce, "OTATTEST_A_NONCE must be 16 to 64 bytes");
	return false;
}

int otattest_nl_attest_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	struct nlattr *nonce = info->attrs[OTATTEST_A_NONCE];
	struct ota_req_attest req = {};
	struct sk_buff *msg;
	ota_status_t st;
	void *resp, *hdr;
	u32 len;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, OTATTEST_A_NONCE)) {
		NL_SET_ERR_MSG(info->extack, "ATTEST needs OTATTEST_A_NONCE (16 to 64 bytes)");
		return -EINVAL;
	}
	if (!otattest_nonce_ok(nonce, info->extack))
		return -ERANGE;
	req.nonce_len = nla_len(nonce);
	memcpy(req.nonce, nla_data(nonce), req.nonce_len);

	st = otattest_call(od, OTA_CMD_ATTEST, &req, sizeof(req), &resp, &len);
	if (st == OTA_OK && !len) {
		kvfree(resp);
		st = OTA_HOST_PROTOCOL; /* evidence cannot be empty */
	}
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);

	ret = -ENOMEM;
	msg = otattest_reply_new(info, od, nla_total_size(len), &hdr);
	if (msg && !nla_put(msg, OTATTEST_A_EVIDENCE, len, resp))
		ret = otattest_reply_send(msg, hdr, info);
	else if (msg)
		nlmsg_free(msg);
	kvfree(resp);
	return ret;
}

int otattest_nl_stable_sign_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	struct nlattr *nonce = info->attrs[OTATTEST_A_NONCE];
	struct ota_req_stable_sign req = {};
	const struct ota_resp_stable_sign *r;
	struct sk_buff *msg;
	ota_status_t st;
	void *resp, *hdr;
	u32 len;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, OTATTEST_A_SVN) ||
	    GENL_REQ_ATTR_CHECK(info, OTATTEST_A_NONCE)) {
		NL_SET_ERR_MSG(info->extack,
			       "STABLE_SIGN needs OTATTEST_A_SVN and OTATTEST_A_NONCE (16 to 64 bytes)");
		return -EINVAL;
	}
	if (!otattest_nonce_ok(nonce, info->extack))
		return -ERANGE;
	req.svn = nla_get_u32(info->attrs[OTATTEST_A_SVN]);
	req.msg_len = nla_len(nonce);
	memcpy(req.msg, nla_data(nonce), req.msg_len);

	st = otattest_call(od, OTA_CMD_STABLE_SIGN, &req, sizeof(req), &resp, &len);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);
	r = resp;
	if (otattest_stable_sign_check(resp, len, req.svn) != OTA_OK) {
		dev_warn_ratelimited(&od->dev, "malformed stable-sign response (%u bytes)\n", len);
		kvfree(resp);
		return otattest_nl_status(info->extack, OTA_HOST_PROTOCOL);
	}

	ret = -ENOMEM;
	msg = otattest_reply_new(info, od, nla_total_size(sizeof(u32)) +
					   nla_total_size(sizeof(r->signature)) +
					   nla_total_size(sizeof(r->pubkey)), &hdr);
	if (msg && !nla_put_u32(msg, OTATTEST_A_SVN, r->svn) &&
	    !nla_put(msg, OTATTEST_A_SIGNATURE, sizeof(r->signature), r->signature) &&
	    !nla_put(msg, OTATTEST_A_PUBKEY, sizeof(r->pubkey), r->pubkey))
		ret = otattest_reply_send(msg, hdr, info);
	else if (msg)
		nlmsg_free(msg);
	kvfree(resp);
	return ret;
}

int otattest_nl_get_certs_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	u32 len, count, i, off, clen;
	struct sk_buff *msg;
	ota_status_t st;
	void *resp, *hdr;
	const u8 *p;
	int ret;

	st = otattest_call(od, OTA_CMD_GET_CERTS, NULL, 0, &resp, &len);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);
	p = resp;
	count = otattest_certs_check(p, len);
	if (!count) {
		dev_warn_ratelimited(&od->dev, "malformed certificate response (%u bytes)\n", len);
		kvfree(resp);
		return otattest_nl_status(info->extack, OTA_HOST_PROTOCOL);
	}

	ret = -ENOMEM;
	/* Each attribute is no larger than the entry that carried it. */
	msg = otattest_reply_new(info, od, len + count * NLA_HDRLEN, &hdr);
	if (!msg)
		goto out;
	for (i = 0; i < count; i++) {
		otattest_cert_at(p, i, &off, &clen);
		if (nla_put(msg, OTATTEST_A_CERT, clen, p + off)) {
			nlmsg_free(msg);
			goto out;
		}
	}
	ret = otattest_reply_send(msg, hdr, info);
out:
	kvfree(resp);
	return ret;
}

int otattest_nl_rotate_tags_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct otattest_device *od = info->user_ptr[0];
	const struct ota_req_rotate req = {};
	const struct ota_resp_rotate *r;
	struct sk_buff *msg;
	ota_status_t st;
	void *resp, *hdr;
	u32 len;
	int ret;

	st = otattest_call(od, OTA_CMD_ROTATE_TAGS, &req, sizeof(req), &resp, &len);
	/* The record may have changed: published before the reply goes out. */
	otattest_refresh(od);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);
	r = resp;
	if (otattest_rotate_check(resp, len) != OTA_OK) {
		dev_warn_ratelimited(&od->dev, "malformed rotate response (%u bytes)\n", len);
		kvfree(resp);
		return otattest_nl_status(info->extack, OTA_HOST_PROTOCOL);
	}

	ret = -ENOMEM;
	msg = otattest_reply_new(info, od, 3 * nla_total_size(sizeof(u32)), &hdr);
	if (msg && !nla_put_u32(msg, OTATTEST_A_KEY_VERSION_OLD, r->old_key_version) &&
	    !nla_put_u32(msg, OTATTEST_A_KEY_VERSION_NEW, r->new_key_version) &&
	    !nla_put_u32(msg, OTATTEST_A_STAGES_RETAGGED, r->stages_retagged))
		ret = otattest_reply_send(msg, hdr, info);
	else if (msg)
		nlmsg_free(msg);
	kvfree(resp);
	return ret;
}

/*
 * A command the device serves by resetting (UPDATE_RESET, WARM_RESET, and
 * the boot services in netlink-update.c): the record is re-read and
 * published before the reply goes out, so a client holding the reply has
 * the event and the uevent. A refused update answers its refusal with the
 * payload; the status is what the caller gets. The answer is a row of u32
 * fields that check judges; the first n go to the reply as types[i].
 */
int otattest_reset_cmd(struct otattest_device *od, struct genl_info *info, u32 cmd,
		       const void *req, u32 req_len, ota_status_t (*check)(const void *p, u32 len),
		       const int *types, unsigned int n)
{
	struct sk_buff *msg;
	ota_status_t st;
	void *resp, *hdr;
	unsigned int i;
	u32 len;
	int ret;

	st = otattest_call(od, cmd, req, req_len, &resp, &len);
	otattest_refresh(od);
	if (st != OTA_OK)
		return otattest_nl_status(info->extack, st);
	if (check(resp, len) != OTA_OK || len < n * sizeof(u32)) {
		dev_warn_ratelimited(&od->dev, "malformed %s response (%u bytes)\n",
				     ota_mbox_command_name(cmd), len);
		kvfree(resp);
		return otattest_nl_status(info->extack, OTA_HOST_PROTOCOL);
	}

	ret = -ENOMEM;
	msg = otattest_reply_new(info, od, n * nla_total_size(sizeof(u32)), &hdr);
	for (i = 0; msg && i < n; i++)
		if (nla_put_u32(msg, types[i], ((const u32 *)resp)[i]))
			break;
	if (msg && i == n)
		ret = otattest_reply_send(msg, hdr, info);
	else if (msg)
		nlmsg_free(msg);
	kvfree(resp);
	return ret;
}

/* ota_resp_reset's fields, in order. */
static const int otattest_reset_types[] = { OTATTEST_A_BOOT_STATUS, OTATTEST_A_GENERATION,
					    OTATTEST_A_SLOT };

int otattest_nl_update_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *slot = info->attrs[OTATTEST_A_SLOT];
	struct ota_req_update req = { .slot = OTA_UPDATE_SLOT_OTHER };

	if (slot) {
		req.slot = nla_get_u32(slot);
		if (req.slot != OTA_SLOT_A && req.slot != OTA_SLOT_B &&
		    req.slot != OTA_UPDATE_SLOT_OTHER) {
			NL_SET_ERR_MSG_ATTR(info->extack, slot,
					    "slot must be 0 (A), 1 (B) or 0xffffffff (the other slot)");
			return -EINVAL;
		}
	}
	BUILD_BUG_ON(offsetof(struct ota_resp_reset, booted_slot) != 2 * sizeof(u32));
	return otattest_reset_cmd(info->user_ptr[0], info, OTA_CMD_UPDATE_RESET, &req, sizeof(req),
				  otattest_reset_check, otattest_reset_types,
				  ARRAY_SIZE(otattest_reset_types));
}

int otattest_nl_warm_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	return otattest_reset_cmd(info->user_ptr[0], info, OTA_CMD_WARM_RESET, NULL, 0,
				  otattest_reset_check, otattest_reset_types,
				  ARRAY_SIZE(otattest_reset_types));
}

/* Events: OTATTEST_CMD_EVENT with EVENT, the selector, and the event's attributes. */
static struct sk_buff *otattest_event_new(struct otattest_device *od, u32 event, void **hdr)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&otattest_nl_family, &init_net, OTATTEST_NLGRP_EVENTS))
		return NULL;
	msg = genlmsg_new(OTATTEST_SELECTOR_SIZE + 4 * nla_total_size(sizeof(u32)) +
				  OTATTEST_RUNTIME_VERSION_SIZE,
			  GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &otattest_nl_family, 0, OTATTEST_CMD_EVENT);
	if (!*hdr || nla_put_u32(msg, OTATTEST_A_EVENT, event) || otattest_put_selector(msg, od)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void otattest_event_send(struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&otattest_nl_family, msg, 0, OTATTEST_NLGRP_EVENTS, GFP_KERNEL);
}

void otattest_genl_notify_device(struct otattest_device *od, u32 event)
{
	struct sk_buff *msg;
	void *hdr;

	msg = otattest_event_new(od, event, &hdr);
	if (msg)
		otattest_event_send(msg, hdr);
}

void otattest_genl_notify_record(struct otattest_device *od, u32 generation)
{
	struct sk_buff *msg;
	void *hdr;

	msg = otattest_event_new(od, OTATTEST_EVENT_RECORD_CHANGED, &hdr);
	if (!msg)
		return;
	if (nla_put_u32(msg, OTATTEST_A_GENERATION, generation)) {
		nlmsg_free(msg);
		return;
	}
	otattest_event_send(msg, hdr);
}

void otattest_genl_notify_state(struct otattest_device *od, u32 state, u32 detail)
{
	struct sk_buff *msg;
	void *hdr;

	msg = otattest_event_new(od, OTATTEST_EVENT_STATE_CHANGED, &hdr);
	if (!msg)
		return;
	if (nla_put_u32(msg, OTATTEST_A_STATE, state) ||
	    nla_put_u32(msg, OTATTEST_A_STATE_DETAIL, detail)) {
		nlmsg_free(msg);
		return;
	}
	otattest_event_send(msg, hdr);
}

void otattest_genl_notify_runtime(struct otattest_device *od, const char *version, u32 generation)
{
	struct sk_buff *msg;
	void *hdr;

	msg = otattest_event_new(od, OTATTEST_EVENT_RUNTIME_CHANGED, &hdr);
	if (!msg)
		return;
	if ((generation && nla_put_u32(msg, OTATTEST_A_GENERATION, generation)) ||
	    (*version && nla_put_string(msg, OTATTEST_A_RUNTIME_VERSION, version))) {
		nlmsg_free(msg);
		return;
	}
	otattest_event_send(msg, hdr);
}

void otattest_genl_notify_progress(struct otattest_device *od, u32 done, u32 total)
{
	struct sk_buff *msg;
	void *hdr;

	msg = otattest_event_new(od, OTATTEST_EVENT_ROTATE_PROGRESS, &hdr);
	if (!msg)
		return;
	if (nla_put_u32(msg, OTATTEST_A_PROGRESS_DONE, done) ||
	    nla_put_u32(msg, OTATTEST_A_PROGRESS_TOTAL, total)) {
		nlmsg_free(msg);
		return;
	}
	otattest_event_send(msg, hdr);
}
