/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the handlers and events (netlink.c) and the family that carries
 * them (netlink-family.c).
 */
#ifndef OTATTEST_NETLINK_H
#define OTATTEST_NETLINK_H

#include <net/genetlink.h>

#include <otattest/status.h>

extern struct genl_family otattest_nl_family;

/*
 * The family's pre/post hooks of a do, in both signatures: the genl_ops
 * 6.1 passes and the split op 6.2 and later pass (OTATTEST_FOR_SLOT in
 * netlink-family.c picks one). struct genl_split_ops is only declared on
 * 6.1, which is all a pointer to it needs.
 */
struct genl_split_ops;
int otattest_nl_pre_doit_ops(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info);
int otattest_nl_pre_doit_split(const struct genl_split_ops *ops, struct sk_buff *skb,
			       struct genl_info *info);
void otattest_nl_post_doit_ops(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info);
void otattest_nl_post_doit_split(const struct genl_split_ops *ops, struct sk_buff *skb,
				 struct genl_info *info);

/* Between netlink.c and the update commands (netlink-update.c). */
struct otattest_device;

#define OTATTEST_NAME_MAX 32
#define OTATTEST_SELECTOR_SIZE (nla_total_size(sizeof(u32)) + nla_total_size(OTATTEST_NAME_MAX))

/*
 * A failure the status explains: its class's -errno, its message in the
 * extack and the status in the extack cookie (docs/kernel-abi.md).
 */
int otattest_nl_status(struct netlink_ext_ack *extack, ota_status_t st);
/* A reply to info's request with the device selector; NULL when out of memory. */
struct sk_buff *otattest_reply_new(struct genl_info *info, struct otattest_device *od,
				   size_t payload, void **hdr);
int otattest_reply_send(struct sk_buff *msg, void *hdr, struct genl_info *info);
/*
 * One mailbox command in its lane, with a response buffer of the
 * command's bound; on OTA_OK the caller kvfree()s *resp.
 */
ota_status_t otattest_call(struct otattest_device *od, u32 cmd, const void *req, u32 req_len,
			   void **resp, u32 *len);

/*
 * A command the device serves by resetting: the call, the record
 * published, the answer (a row of u32 fields check accepted) replied as
 * attributes types[0..n).
 */
int otattest_reset_cmd(struct otattest_device *od, struct genl_info *info, u32 cmd,
		       const void *req, u32 req_len, ota_status_t (*check)(const void *p, u32 len),
		       const int *types, unsigned int n);

#endif /* OTATTEST_NETLINK_H */
