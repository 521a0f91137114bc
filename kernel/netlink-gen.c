// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	kernel/netlink/otattest.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

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

/* OTATTEST_CMD_GET_DEVICE - do */
const struct nla_policy otattest_get_device_nl_policy[OTATTEST_A_DEVICE_NAME + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* OTATTEST_CMD_GET_RECORD - do */
const struct nla_policy otattest_get_record_nl_policy[OTATTEST_A_DEVICE_NAME + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* OTATTEST_CMD_ATTEST - do */
const struct nla_policy otattest_attest_nl_policy[OTATTEST_A_NONCE + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_NONCE] = { .type = NLA_BINARY, },
};

/* OTATTEST_CMD_STABLE_SIGN - do */
const struct nla_policy otattest_stable_sign_nl_policy[OTATTEST_A_SVN + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_SVN] = NLA_POLICY_MAX(NLA_U32, OTA_SVN_LIMIT),
	[OTATTEST_A_NONCE] = { .type = NLA_BINARY, },
};

/* OTATTEST_CMD_GET_CERTS - do */
const struct nla_policy otattest_get_certs_nl_policy[OTATTEST_A_DEVICE_NAME + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* OTATTEST_CMD_ROTATE_TAGS - do */
const struct nla_policy otattest_rotate_tags_nl_policy[OTATTEST_A_DEVICE_NAME + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* OTATTEST_CMD_UPDATE_RESET - do */
const struct nla_policy otattest_update_reset_nl_policy[OTATTEST_A_SLOT + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_SLOT] = { .type = NLA_U32, },
};

/* OTATTEST_CMD_WARM_RESET - do */
const struct nla_policy otattest_warm_reset_nl_policy[OTATTEST_A_DEVICE_NAME + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* OTATTEST_CMD_INSTALL_BEGIN - do */
const struct nla_policy otattest_install_begin_nl_policy[OTATTEST_A_INSTALL_FLAGS + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_STAGE] = { .type = NLA_U32, },
	[OTATTEST_A_SLOT] = { .type = NLA_U32, },
	[OTATTEST_A_IMAGE_LENGTH] = { .type = NLA_U32, },
	[OTATTEST_A_INSTALL_FLAGS] = { .type = NLA_U32, },
};

/* OTATTEST_CMD_INSTALL_CHUNK - do */
const struct nla_policy otattest_install_chunk_nl_policy[OTATTEST_A_IMAGE_CHUNK + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_IMAGE_OFFSET] = { .type = NLA_U32, },
	[OTATTEST_A_IMAGE_CHUNK] = { .type = NLA_BINARY, },
};

/* OTATTEST_CMD_INSTALL_FINISH - do */
const struct nla_policy otattest_install_finish_nl_policy[OTATTEST_A_DEVICE_NAME + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/* OTATTEST_CMD_COMMIT - do */
const struct nla_policy otattest_commit_nl_policy[OTATTEST_A_SLOT + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_SLOT] = { .type = NLA_U32, },
};

/* OTATTEST_CMD_RATCHET - do */
const struct nla_policy otattest_ratchet_nl_policy[OTATTEST_A_RATCHET_FLAGS + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_STAGE] = { .type = NLA_U32, },
	[OTATTEST_A_FLOOR] = NLA_POLICY_MAX(NLA_U32, OTA_SVN_LIMIT),
	[OTATTEST_A_RATCHET_FLAGS] = { .type = NLA_U32, },
};

/* OTATTEST_CMD_REVOKE - do */
const struct nla_policy otattest_revoke_nl_policy[OTATTEST_A_REVOCATION_HYBRID + 1] = {
	[OTATTEST_A_DEVICE] = { .type = NLA_U32, },
	[OTATTEST_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[OTATTEST_A_REVOCATION] = NLA_POLICY_EXACT_LEN(OTATTEST_REVOCATION_LEN),
	[OTATTEST_A_REVOCATION_HYBRID] = NLA_POLICY_EXACT_LEN(OTATTEST_REVOCATION_HYBRID_LEN),
};

/* Ops table for otattest */
const struct genl_ops otattest_nl_ops[14] = {
	{
		.cmd		= OTATTEST_CMD_GET_DEVICE,
		.doit		= otattest_nl_get_device_doit,
		.dumpit		= otattest_nl_get_device_dumpit,
		.policy		= otattest_get_device_nl_policy,
		.maxattr	= OTATTEST_A_DEVICE_NAME,
	},
	{
		.cmd		= OTATTEST_CMD_GET_RECORD,
		.doit		= otattest_nl_get_record_doit,
		.policy		= otattest_get_record_nl_policy,
		.maxattr	= OTATTEST_A_DEVICE_NAME,
	},
	{
		.cmd		= OTATTEST_CMD_ATTEST,
		.doit		= otattest_nl_attest_doit,
		.policy		= otattest_attest_nl_policy,
		.maxattr	= OTATTEST_A_NONCE,
	},
	{
		.cmd		= OTATTEST_CMD_STABLE_SIGN,
		.doit		= otattest_nl_stable_sign_doit,
		.policy		= otattest_stable_sign_nl_policy,
		.maxattr	= OTATTEST_A_SVN,
	},
	{
		.cmd		= OTATTEST_CMD_GET_CERTS,
		.doit		= otattest_nl_get_certs_doit,
		.policy		= otattest_get_certs_nl_policy,
		.maxattr	= OTATTEST_A_DEVICE_NAME,
	},
	{
		.cmd		= OTATTEST_CMD_ROTATE_TAGS,
		.doit		= otattest_nl_rotate_tags_doit,
		.policy		= otattest_rotate_tags_nl_policy,
		.maxattr	= OTATTEST_A_DEVICE_NAME,
	},
	{
		.cmd		= OTATTEST_CMD_UPDATE_RESET,
		.doit		= otattest_nl_update_reset_doit,
		.policy		= otattest_update_reset_nl_policy,
		.maxattr	= OTATTEST_A_SLOT,
	},
	{
		.cmd		= OTATTEST_CMD_WARM_RESET,
		.doit		= otattest_nl_warm_reset_doit,
		.policy		= otattest_warm_reset_nl_policy,
		.maxattr	= OTATTEST_A_DEVICE_NAME,
	},
	{
		.cmd		= OTATTEST_CMD_INSTALL_BEGIN,
		.doit		= otattest_nl_install_begin_doit,
		.policy		= otattest_install_begin_nl_policy,
		.maxattr	= OTATTEST_A_INSTALL_FLAGS,
	},
	{
		.cmd		= OTATTEST_CMD_INSTALL_CHUNK,
		.doit		= otattest_nl_install_chunk_doit,
		.policy		= otattest_install_chunk_nl_policy,
		.maxattr	= OTATTEST_A_IMAGE_CHUNK,
	},
	{
		.cmd		= OTATTEST_CMD_INSTALL_FINISH,
		.doit		= otattest_nl_install_finish_doit,
		.policy		= otattest_install_finish_nl_policy,
		.maxattr	= OTATTEST_A_DEVICE_NAME,
	},
	{
		.cmd		= OTATTEST_CMD_COMMIT,
		.doit		= otattest_nl_commit_doit,
		.policy		= otattest_commit_nl_policy,
		.maxattr	= OTATTEST_A_SLOT,
	},
	{
		.cmd		= OTATTEST_CMD_RATCHET,
		.doit		= otattest_nl_ratchet_doit,
		.policy		= otattest_ratchet_nl_policy,
		.maxattr	= OTATTEST_A_RATCHET_FLAGS,
	},
	{
		.cmd		= OTATTEST_CMD_REVOKE,
		.doit		= otattest_nl_revoke_doit,
		.policy		= otattest_revoke_nl_policy,
		.maxattr	= OTATTEST_A_REVOCATION_HYBRID,
	},
};

static const struct genl_multicast_group otattest_nl_mcgrps[] = {
	[OTATTEST_NLGRP_EVENTS] = { "events", },
};
