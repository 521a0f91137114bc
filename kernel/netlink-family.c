// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family: the policies, ops table and multicast groups
 * generated from netlink/otattest.yaml, with the hooks and settings 6.1
 * keeps per family.
 *
 * Why the generated netlink-gen.c is included here instead of built on its
 * own: for a genetlink-legacy spec, 6.12's ynl-gen-c exports the ops table
 * and the policies but keeps the multicast group table static, for the
 * family struct it writes only for plain genetlink specs. That struct
 * would use split ops (6.2 and later) and netnsok, and has no place for the
 * pre/post hooks 6.1 keeps per family; so the struct is written here, in
 * the translation unit that holds the table. The generated code itself
 * builds on 6.1 and 6.12 as it is; the hooks' op argument changed type
 * (OTATTEST_FOR_SLOT, otattest.h, picks the pair these headers declare).
 *
 * No netnsok: the family, like the devices and the events multicast to
 * init_net, exists in the initial network namespace only.
 */
#include "netlink-gen.c"

#include "netlink.h"
#include "otattest.h"

struct genl_family otattest_nl_family __ro_after_init = {
	.name = OTATTEST_GENL_NAME,
	.version = OTATTEST_GENL_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.pre_doit = OTATTEST_FOR_SLOT(struct genl_family, pre_doit, otattest_nl_pre_doit_split,
				      otattest_nl_pre_doit_ops),
	.post_doit = OTATTEST_FOR_SLOT(struct genl_family, post_doit, otattest_nl_post_doit_split,
				       otattest_nl_post_doit_ops),
	.ops = otattest_nl_ops,
	.n_ops = ARRAY_SIZE(otattest_nl_ops),
	.mcgrps = otattest_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(otattest_nl_mcgrps),
};

int otattest_genl_register(void)
{
	return genl_register_family(&otattest_nl_family);
}

void otattest_genl_unregister(void)
{
	genl_unregister_family(&otattest_nl_family);
}
