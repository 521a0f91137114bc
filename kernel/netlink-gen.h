/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	kernel/netlink/otattest.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_OTATTEST_GEN_H
#define _LINUX_OTATTEST_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/otattest/genl.h>
#include <otattest/mailbox.h>
#include <otattest/mailbox.h>
#include <otattest/common.h>
#include <otattest/mailbox.h>
#include <otattest/record.h>
#include <otattest/mailbox.h>
#include <otattest/mailbox.h>
#include <otattest/types.h>
#include <otattest/types.h>
#include <otattest/mailbox.h>
#include <otattest/types.h>
#include <otattest/common.h>

extern const struct nla_policy otattest_get_device_nl_policy[OTATTEST_A_DEVICE_NAME + 1];

extern const struct nla_policy otattest_get_record_nl_policy[OTATTEST_A_DEVICE_NAME + 1];

extern const struct nla_policy otattest_attest_nl_policy[OTATTEST_A_NONCE + 1];

extern const struct nla_policy otattest_stable_sign_nl_policy[OTATTEST_A_SVN + 1];

extern const struct nla_policy otattest_get_certs_nl_policy[OTATTEST_A_DEVICE_NAME + 1];

extern const struct nla_policy otattest_rotate_tags_nl_policy[OTATTEST_A_DEVICE_NAME + 1];

extern const struct nla_policy otattest_update_reset_nl_policy[OTATTEST_A_SLOT + 1];

extern const struct nla_policy otattest_warm_reset_nl_policy[OTATTEST_A_DEVICE_NAME + 1];

extern const struct nla_policy otattest_install_begin_nl_policy[OTATTEST_A_INSTALL_FLAGS + 1];

extern const struct nla_policy otattest_install_chunk_nl_policy[OTATTEST_A_IMAGE_CHUNK + 1];

extern const struct nla_policy otattest_install_finish_nl_policy[OTATTEST_A_DEVICE_NAME + 1];

extern const struct nla_policy otattest_commit_nl_policy[OTATTEST_A_SLOT + 1];

extern const struct nla_policy otattest_ratchet_nl_policy[OTATTEST_A_RATCHET_FLAGS + 1];

extern const struct nla_policy otattest_revoke_nl_policy[OTATTEST_A_REVOCATION_HYBRID + 1];

/* Ops table for otattest */
extern const struct genl_ops otattest_nl_ops[14];

int otattest_nl_get_device_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_get_device_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb);
int otattest_nl_get_record_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_attest_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_stable_sign_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_get_certs_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_rotate_tags_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_update_reset_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_warm_reset_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_install_begin_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_install_chunk_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_install_finish_doit(struct sk_buff *skb,
				    struct genl_info *info);
int otattest_nl_commit_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_ratchet_doit(struct sk_buff *skb, struct genl_info *info);
int otattest_nl_revoke_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	OTATTEST_NLGRP_EVENTS,
};

#endif /* _LINUX_OTATTEST_GEN_H */
