/* SPDX-License-Identifier: MIT */
/*
 * Who is calling: the uid behind a message's sender, as the bus vouches
 * for it (dbus-daemon and dbus-broker take it from the connection's
 * socket), never from /proc/<pid>, which a caller that exits could hand
 * to a reused pid. Asking the bus costs a round trip, so answers are kept
 * per unique name in a small direct-mapped cache: a unique name is never
 * reused on a bus and its uid never changes, so a kept answer is right
 * for as long as it is kept, and a slot is simply overwritten when
 * another name needs it.
 */
#ifndef OTATTESTD_PEER_H
#define OTATTESTD_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-bus.h>

#define PEER_CACHE_SLOTS 1024u

struct peer_slot {
	char *name; /* unique name, or NULL */
	uid_t uid;
	int privileged; /* -1 not asked yet; else root or in otattest-update/-sign (bus credentials) */
};

struct peer_cache {
	struct peer_slot slot[PEER_CACHE_SLOTS];
	uint64_t hits, misses;
};

/*
 * The effective uid of msg's sender (of the peer, on a direct
 * connection). 0 with *uid set, or a negative errno when the bus would
 * not say.
 */
int peer_uid(struct peer_cache *c, sd_bus_message *msg, uid_t *uid);
/*
 * Whether the caller (uid from peer_uid) is privileged: euid 0, or the
 * otattest-update or otattest-sign group among the UnixGroupIDs the bus
 * reports (GetConnectionCredentials; never /proc). Asked only when it
 * matters (the ordinary users' share of the client table is full), then
 * cached per unique name as the uid is.
 */
bool peer_is_privileged(struct peer_cache *c, sd_bus_message *msg, uid_t uid);

/* auth.c: a GetConnectionCredentials reply (a{sv}) lists gid in UnixGroupIDs. */
bool creds_reply_has_group(sd_bus_message *reply, gid_t gid);

void peer_cache_free(struct peer_cache *c);

#endif /* OTATTESTD_PEER_H */
