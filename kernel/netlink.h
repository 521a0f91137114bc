/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the handlers and events (netlink.c) and the family that carries
 * them (netlink-family.c).
 */
#ifndef OTATTEST_NETLINK_H
#define OTATTEST_NETLINK_H

#include <net/genetlink.h>

extern struct genl_family otattest_nl_family;

/* 6.1 has the pre/post hooks of a do per family, not per op. */
int otattest_nl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info);
void otattest_nl_post_doit(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info);

#endif /* OTATTEST_NETLINK_H */
