// SPDX-License-Identifier: MIT
/*
 * Parsing what the kernel sends: reply and event attributes (each known
 * attribute's type and length bounded, single-valued ones refused when
 * repeated) and NLMSG_ERROR with its extack message and status cookie.
 * Kept apart from the socket code so unit tests and fuzzing reach it
 * without a kernel.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>

#include "genl-bounds.h"
#include "genl.h"

/*
 * ---- attribute parsing (every byte here came from the kernel) ----
 * The bounds are generated from the family's spec (genl-bounds.h,
 * kernel/netlink/ynl-gen.sh): the same description the kernel's policies
 * and the UAPI come from.
 */
static int attr_cb(const struct nlattr *attr, void *data)
{
	struct genl_result *res = data;
	uint16_t type = mnl_attr_get_type(attr);
	const struct otattest_attr_bound *b;
	uint16_t len;

	/*
	 * Attributes a newer kernel adds are not ours to judge, nor are those
	 * the spec has only in requests: skip them.
	 */
	if (type == OTATTEST_A_UNSPEC || type > OTATTEST_A_MAX)
		return MNL_CB_OK;
	b = &otattest_attr_bounds[type];
	if (b->type == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, b->type) < 0) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	len = mnl_attr_get_payload_len(attr);
	if (b->type == MNL_TYPE_BINARY || b->type == MNL_TYPE_NUL_STRING) {
		/* A string's bounds count its characters, the payload its NUL too. */
		if (len < b->min_len || len > b->max_len + (b->type == MNL_TYPE_NUL_STRING ? 1u : 0u)) {
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

/*
 * The extack cookie of an otattest error: the status as a u64 in host
 * byte order (nl_set_extack_cookie_u64). Anything else is not from our
 * driver and makes the whole message malformed.
 */
static int parse_status_cookie(const struct nlattr *attr, ota_status_t *status)
{
	uint64_t v;

	_Static_assert(sizeof(v) == OTATTEST_STATUS_COOKIE_LEN, "cookie is a u64");
	if (mnl_attr_get_payload_len(attr) != OTATTEST_STATUS_COOKIE_LEN)
		return -EBADMSG;
	memcpy(&v, mnl_attr_get_payload(attr), sizeof(v));
	if (v == 0 || v > UINT32_MAX)
		return -EBADMSG;
	*status = (ota_status_t)v;
	return 0;
}

int genl_parse_error(const struct nlmsghdr *nlh, size_t len, struct genl_error *out)
{
	const struct nlmsgerr *e;
	size_t off, total;
	const uint8_t *base = (const uint8_t *)nlh;

	out->err = 0;
	out->msg = NULL;
	out->status = 0;
	if (len < MNL_NLMSG_HDRLEN + sizeof(*e) || nlh->nlmsg_len > len ||
	    nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*e) ||
	    nlh->nlmsg_len != MNL_ALIGN(nlh->nlmsg_len))
		return -EBADMSG;
	total = nlh->nlmsg_len;
	e = mnl_nlmsg_get_payload(nlh);
	if (e->error > 0 || e->error < -4095)
		return -EBADMSG;
	out->err = -e->error;
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
			switch (mnl_attr_get_type(attr)) {
			case NLMSGERR_ATTR_MSG:
				if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
					out->msg = mnl_attr_get_str(attr);
				break;
			case NLMSGERR_ATTR_COOKIE:
				if (parse_status_cookie(attr, &out->status) < 0)
					return -EBADMSG;
				break;
			}
		}
	}
	return 0;
}
