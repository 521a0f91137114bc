// SPDX-License-Identifier: MIT
/*
 * Finding the "otattest" family: its id and its "events" group, asked of
 * nlctrl by name, and asked again whenever nlctrl's "notify" group says
 * the family appeared or went away (insmod, rmmod), so an id is never
 * trusted beyond the module that registered it.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "../common/macro.h"
#include "genl-internal.h"
#include "log.h"

struct family_info {
	uint16_t id;
	uint32_t events_group; /* the otattest family's "events" */
	uint32_t notify_group; /* nlctrl's own "notify" */
	char name[GENL_NAMSIZ];
};

static int mcast_grp_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_MCAST_GRP_NAME && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		tb[type] = attr;
	else if (type == CTRL_ATTR_MCAST_GRP_ID && mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* The groups we care about, by name: ours, or nlctrl's when that is the family. */
static void parse_groups(const struct nlattr *attr, struct family_info *fi)
{
	const struct nlattr *grp;

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
		return;
	mnl_attr_for_each_nested(grp, attr) {
		const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = { 0 };
		const char *name;
		uint32_t id;

		if (mnl_attr_parse_nested(grp, mcast_grp_cb, tb) != MNL_CB_OK ||
		    !tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		name = mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]);
		id = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
		if (strcmp(name, OTATTEST_GENL_MCGRP_EVENTS) == 0)
			fi->events_group = id;
		else if (strcmp(name, "notify") == 0)
			fi->notify_group = id;
	}
}

static int ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	struct family_info *fi = data;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_NAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(fi->name, sizeof(fi->name), "%s", mnl_attr_get_str(attr));
		break;
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			fi->id = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		parse_groups(attr, fi);
		break;
	}
	return MNL_CB_OK;
}

static void mnl_socket_closep(struct mnl_socket **s)
{
	if (*s)
		mnl_socket_close(*s);
}

/*
 * CTRL_CMD_GETFAMILY is answered by the kernel inside sendmsg() without
 * any device involved, so a blocking exchange on a private socket is fine.
 * Returns 0, -ENOENT when the family is not registered, or another error.
 */
static int query_family(const char *name, struct family_info *fi)
{
	_cleanup_(mnl_socket_closep) struct mnl_socket *nl = NULL;
	uint8_t buf[8192];
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;
	uint32_t seq = (uint32_t)time(NULL), portid;

	assert(name);
	assert(fi);
	memset(fi, 0, sizeof(*fi));
	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	portid = mnl_socket_get_portid(nl);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		const struct nlmsghdr *m;
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		int rem;

		if (n < 0)
			return -errno;
		rem = (int)n;
		for (m = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(m, rem); m = mnl_nlmsg_next(m, &rem)) {
			if (m->nlmsg_seq != seq || m->nlmsg_pid != portid)
				continue;
			if (m->nlmsg_type == NLMSG_ERROR) {
				struct genl_error ge;
				int err = genl_parse_error(m, (size_t)rem, &ge) == 0 ? ge.err : EPROTO;

				return err ? -err : (fi->id ? 0 : -ENOENT);
			}
			if (m->nlmsg_type == GENL_ID_CTRL)
				mnl_attr_parse(m, sizeof(struct genlmsghdr), ctrl_attr_cb, fi);
		}
	}
}

static int join_group(struct genl *g, uint32_t group)
{
	int grp = (int)group;

	if (mnl_socket_setsockopt(g->ev_sock, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
		return -errno;
	return 0;
}

static void family_lost(struct genl *g)
{
	if (!g->available)
		return;
	g->available = false;
	g->events_joined = false;
	log_notice("generic netlink family \"%s\" went away", OTATTEST_GENL_NAME);
	genl_fail_all(g, OTA_HOST_DEVICE_GONE, "the otattest driver went away");
	if (g->cb.family)
		g->cb.family(g->cb.userdata, false);
}

int genl_resolve(struct genl *g)
{
	struct family_info fi;
	int r;

	assert(g);
	r = query_family(OTATTEST_GENL_NAME, &fi);
	if (r < 0) {
		family_lost(g);
		return r;
	}
	if (g->available && fi.id == g->family_id && fi.events_group == g->events_group)
		return 0;
	g->family_id = fi.id;
	g->events_group = fi.events_group;
	g->events_joined = false;
	if (fi.events_group) {
		r = join_group(g, fi.events_group);
		if (r < 0)
			log_warning_errno(r, "cannot join the otattest events group: %m");
		g->events_joined = r == 0;
	} else {
		log_warning("family \"%s\" has no \"%s\" multicast group; relying on uevents",
			    OTATTEST_GENL_NAME, OTATTEST_GENL_MCGRP_EVENTS);
	}
	g->available = true;
	log_info("generic netlink family \"%s\" is id %u, events group %u", OTATTEST_GENL_NAME,
		 fi.id, fi.events_group);
	if (g->cb.family)
		g->cb.family(g->cb.userdata, true);
	return 0;
}

int genl_family_subscribe(struct genl *g)
{
	struct family_info ctrl;
	int r;

	r = query_family("nlctrl", &ctrl);
	if (r == 0 && ctrl.notify_group)
		r = join_group(g, ctrl.notify_group);
	if (r < 0 || !ctrl.notify_group)
		log_warning("cannot subscribe to nlctrl notifications; driver reloads are noticed late");
	return r;
}

void genl_family_on_ctrl(struct genl *g, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(nlh);
	struct family_info fi = { 0 };

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*gh))
		return;
	mnl_attr_parse(nlh, sizeof(*gh), ctrl_attr_cb, &fi);
	if (strcmp(fi.name, OTATTEST_GENL_NAME) != 0)
		return;
	if (gh->cmd == CTRL_CMD_DELFAMILY)
		family_lost(g);
	else if (gh->cmd == CTRL_CMD_NEWFAMILY || gh->cmd == CTRL_CMD_NEWMCAST_GRP)
		genl_resolve(g);
}

bool genl_available(const struct genl *g)
{
	return g && g->available;
}

bool genl_events_joined(const struct genl *g)
{
	return g && g->available && g->events_joined;
}
