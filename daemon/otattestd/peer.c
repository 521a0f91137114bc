// SPDX-License-Identifier: MIT
#include "peer.h"

#include <grp.h>

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/dbus-api.h"
#include "../common/macro.h"

/* FNV-1a: spreads ":1.N" names, whose digits differ only at the end. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* What the bus vouches for, asked now; nothing augmented from /proc. */
static int ask_bus(sd_bus_message *msg, uid_t *uid)
{
	_cleanup_(sd_bus_creds_unrefp) sd_bus_creds *creds = NULL;
	int r;

	r = sd_bus_query_sender_creds(msg, SD_BUS_CREDS_EUID, &creds);
	if (r < 0)
		return r;
	if (sd_bus_creds_get_augmented_mask(creds) & SD_BUS_CREDS_EUID)
		return -EPERM;
	return sd_bus_creds_get_euid(creds, uid);
}

/* Is the sender in group `name`, by the UnixGroupIDs the bus reports? */
static bool in_group(sd_bus_message *reply, const char *name)
{
	struct group *gr = getgrnam(name);

	return gr && sd_bus_message_rewind(reply, true) >= 0 && creds_reply_has_group(reply, gr->gr_gid);
}

/* Root, or a member of either otattest group (the bus's word: GetConnectionCredentials). */
static bool ask_privileged(sd_bus_message *msg, const char *sender, uid_t uid)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;

	if (uid == 0)
		return true;
	if (!sender || sd_bus_call_method(sd_bus_message_get_bus(msg), "org.freedesktop.DBus",
					  "/org/freedesktop/DBus", "org.freedesktop.DBus",
					  "GetConnectionCredentials", NULL, &reply, "s", sender) < 0)
		return false;
	return in_group(reply, OTA_UPDATE_GROUP) || in_group(reply, OTA_SIGN_GROUP);
}

int peer_uid(struct peer_cache *c, sd_bus_message *msg, uid_t *uid)
{
	const char *sender = sd_bus_message_get_sender(msg);
	struct peer_slot *s;
	char *copy;
	int r;

	assert(c);
	assert(uid);
	/* A direct connection has no sender name: its peer's credentials, not cached. */
	if (!sender)
		return ask_bus(msg, uid);
	s = &c->slot[name_hash(sender) % PEER_CACHE_SLOTS];
	if (s->name && strcmp(s->name, sender) == 0) {
		c->hits++;
		*uid = s->uid;
		return 0;
	}
	c->misses++;
	r = ask_bus(msg, uid);
	if (r < 0)
		return r;
	copy = strdup(sender);
	if (copy) {
		free(s->name);
		s->name = copy;
		s->uid = *uid;
		s->privileged = -1;
	}
	return 0;
}

bool peer_is_privileged(struct peer_cache *c, sd_bus_message *msg, uid_t uid)
{
	const char *sender = sd_bus_message_get_sender(msg);
	struct peer_slot *s;
	bool priv;

	if (uid == 0)
		return true;
	if (!sender)
		return false;
	s = &c->slot[name_hash(sender) % PEER_CACHE_SLOTS];
	if (s->name && strcmp(s->name, sender) == 0 && s->uid == uid && s->privileged >= 0)
		return s->privileged;
	priv = ask_privileged(msg, sender, uid);
	if (s->name && strcmp(s->name, sender) == 0 && s->uid == uid)
		s->privileged = priv;
	return priv;
}

void peer_cache_free(struct peer_cache *c)
{
	unsigned i;

	for (i = 0; i < PEER_CACHE_SLOTS; i++) {
		free(c->slot[i].name);
		c->slot[i].name = NULL;
	}
}
