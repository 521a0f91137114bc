// SPDX-License-Identifier: MIT
/*
 * Parsing what the kernel sends: reply and event attributes (each known
 * attribute's type and length bounded, single-valued ones refused when
 * repeated) and NLMSG_ERROR with its extack message. Kept apart from the
 * socket code so unit tests and fuzzing reach it without a kernel.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>

#include <otattest/record.h>

#include "genl.h"

/* ---- attribute parsing (every byte here came from the kernel) ---- */

struct attr_bound {
	enum mnl_attr_data_type type;
	uint32_t min, max; /* for binary and strings */
};

static const struct attr_bound attr_bounds[OTATTEST_A_MAX + 1] = {
	[OTATTEST_A_DEVICE] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_DEVICE_NAME] = { MNL_TYPE_NUL_STRING, 1, 32 },
	[OTATTEST_A_STATE] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_STATE_DETAIL] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_GENERATION] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_RECORD] = { MNL_TYPE_BINARY, sizeof(struct ota_record_header), OTA_RECORD_MAX_BYTES },
	[OTATTEST_A_NONCE] = { MNL_TYPE_BINARY, OTA_NONCE_MIN, OTA_NONCE_MAX },
	[OTATTEST_A_SVN] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_EVIDENCE] = { MNL_TYPE_BINARY, 1, OTA_SHM_RESPONSE_SIZE },
	[OTATTEST_A_SIGNATURE] = { MNL_TYPE_BINARY, OTA_P256_SIG_BYTES, OTA_P256_SIG_BYTES },
	[OTATTEST_A_PUBKEY] = { MNL_TYPE_BINARY, OTA_P256_PUBKEY_BYTES, OTA_P256_PUBKEY_BYTES },
	[OTATTEST_A_CERT] = { MNL_TYPE_BINARY, 1, OTA_SHM_RESPONSE_SIZE },
	[OTATTEST_A_KEY_VERSION_OLD] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_KEY_VERSION_NEW] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_STAGES_RETAGGED] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_SLOT] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_BOOT_STATUS] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_EVENT] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_PROGRESS_DONE] = { MNL_TYPE_U32, 0, 0 },
	[OTATTEST_A_PROGRESS_TOTAL] = { MNL_TYPE_U32, 0, 0 },
};

static int attr_cb(const struct nlattr *attr, void *data)
{
	struct genl_result *res = data;
	uint16_t type = mnl_attr_get_type(attr);
	const struct attr_bound *b;
	uint16_t len;

	/* Attributes a newer kernel adds are not ours to judge: skip them. */
	if (type == OTATTEST_A_UNSPEC || type > OTATTEST_A_MAX)
		return MNL_CB_OK;
	b = &attr_bounds[type];
	if (mnl_attr_validate(attr, b->type) < 0) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	len = mnl_attr_get_payload_len(attr);
	if (b->type == MNL_TYPE_BINARY || b->type == MNL_TYPE_NUL_STRING) {
		if (len < b->min || len > b->max + (b->type == MNL_TYPE_NUL_STRING ? 1u : 0u)) {
			errno = EBADMSG;
			return MNL_CB_ERROR;
		}
	}
	if (type == OTATTEST_A_CERT) {
		if (res->n_certs >= OTA_CERTS_MAX) {
			errno = EBADMSG;
			return MNL_CB_ERROR;
		}
		res->certs[res->n_certs++] = attr;
		return MNL_CB_OK;
	}
	if (res->tb[type]) {
		/* A second copy of a single-valued attribute: which one is true? */
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	res->tb[type] = attr;
	return MNL_CB_OK;
}

int genl_parse_attrs(const struct nlmsghdr *nlh, struct genl_result *res)
{
	memset(res->tb, 0, sizeof(res->tb));
	res->n_certs = 0;
	/*
	 * The kernel pads every attribute, so a real message's length is a
	 * multiple of 4. libmnl rounds the length up when it walks, so an
	 * unaligned one would let it read up to 3 bytes past the message.
	 */
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr)) ||
	    nlh->nlmsg_len != MNL_ALIGN(nlh->nlmsg_len))
		return -EBADMSG;
	{
		const uint8_t *end = (const uint8_t *)nlh + nlh->nlmsg_len;
		const struct nlattr *a;
		const uint8_t *next = (const uint8_t *)mnl_nlmsg_get_payload_offset(nlh, sizeof(struct genlmsghdr));

		/*
		 * mnl_attr_parse() stops quietly at an attribute that does not
		 * fit; we want to know, so walk by hand and require that the
		 * attributes account for every byte.
		 */
		mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
			if (attr_cb(a, res) != MNL_CB_OK)
				return -EBADMSG;
			next = (const uint8_t *)a + MNL_ALIGN(a->nla_len);
		}
		if (next < end)
			return -EBADMSG;
	}
	return 0;
}

int genl_parse_error(const struct nlmsghdr *nlh, size_t len, int *err, const char **msg)
{
	const struct nlmsgerr *e;
	size_t off, total;
	const uint8_t *base = (const uint8_t *)nlh;

	*msg = NULL;
	if (len < MNL_NLMSG_HDRLEN + sizeof(*e) || nlh->nlmsg_len > len ||
	    nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*e) ||
	    nlh->nlmsg_len != MNL_ALIGN(nlh->nlmsg_len))
		return -EBADMSG;
	total = nlh->nlmsg_len;
	e = mnl_nlmsg_get_payload(nlh);
	if (e->error > 0 || e->error < -4095)
		return -EBADMSG;
	*err = -e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	off = MNL_NLMSG_HDRLEN + sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		/* The request was echoed: skip its payload, bounded by our length. */
		if (e->msg.nlmsg_len < sizeof(struct nlmsghdr) ||
		    e->msg.nlmsg_len - sizeof(struct nlmsghdr) > total - off)
			return -EBADMSG;
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	off = MNL_ALIGN(off);
	if (off > total)
		return -EBADMSG;
	{
		const struct nlattr *attr; /* the name mnl_attr_for_each_payload uses */

		mnl_attr_for_each_payload((void *)(base + off), total - off) {
			if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
			    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
				*msg = mnl_attr_get_str(attr);
		}
	}
	return 0;
}

