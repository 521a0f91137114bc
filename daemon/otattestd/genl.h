/* SPDX-License-Identifier: MIT */
/*
 * Generic netlink client for the kernel's "otattest" family (genl.h), on
 * libmnl and the daemon's sd-event loop.
 *
 * Requests are sent from threads, one per lane (genl-internal.h): generic
 * netlink runs a command's handler inside the sendmsg() that delivers it,
 * and the handlers wait for the device, so sending from the loop would
 * freeze every property read behind one slow attestation. Replies are
 * read on the loop and matched to their request by sequence number;
 * every request has a deadline, so a reply the socket dropped (ENOBUFS)
 * ends in a Timeout, not a hang.
 *
 * Two sockets: one for requests and replies (systemd's, when it passed
 * one: genl.c), one for multicast: the family's "events" group and
 * nlctrl's "notify" group, which tells us when the family appears or goes
 * away (insmod/rmmod) so the family id is re-resolved by name instead of
 * being trusted forever.
 */
#ifndef OTATTESTD_GENL_H
#define OTATTESTD_GENL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <systemd/sd-event.h>

#include <otattest/driver-state.h>
#include <otattest/genl.h>
#include <otattest/shm.h>

#include "../common/errmap.h"

struct genl;

struct genl_args {
	const uint8_t *nonce; /* NULL: no NONCE attribute */
	size_t nonce_len;
	bool has_svn;
	uint32_t svn;
	bool has_slot;
	uint32_t slot;
	bool has_stage; /* install-begin, ratchet */
	uint32_t stage;
	bool has_image_length; /* install-begin */
	uint32_t image_length;
	bool has_install_flags;
	uint32_t install_flags;
	bool has_floor; /* ratchet */
	uint32_t floor;
	bool has_ratchet_flags; /* ratchet: OTA_RATCHET_F_* */
	uint32_t ratchet_flags;
	const uint8_t *chunk; /* install-chunk: CHUNK at IMAGE_OFFSET; NULL: none */
	size_t chunk_len;     /* at most OTA_INSTALL_CHUNK_MAX */
	uint32_t image_offset;
	const uint8_t *revocation; /* revoke: revocation_len bytes; NULL: none */
	uint32_t revocation_len;   /* OTATTEST_REVOCATION_LEN or _HYBRID_LEN (a hybrid command) */
};

/* Result of one request; attribute pointers live until the callback returns. */
struct genl_result {
	bool ok;
	struct ota_err err; /* when !ok */
	const struct nlattr *tb[OTATTEST_A_MAX + 1];
	const struct nlattr *certs[OTA_CERTS_MAX];
	size_t n_certs;
};

typedef void (*genl_done_fn)(void *userdata, const struct genl_result *res);
typedef void (*genl_event_fn)(void *userdata, uint32_t event, const struct nlattr *const *tb);
typedef void (*genl_family_fn)(void *userdata, bool available);

struct genl_callbacks {
	genl_event_fn event;   /* a multicast event of the family */
	genl_family_fn family; /* the family appeared or went away */
	void *userdata;
};

int genl_new(struct genl **ret, sd_event *event, const struct genl_callbacks *cb);
struct genl *genl_free(struct genl *g);

bool genl_available(const struct genl *g);
/*
 * The family's "events" group is joined: record and state changes arrive
 * as events, and uevents need only say which devices exist.
 */
bool genl_events_joined(const struct genl *g);
/* Try to resolve the family now (at start and when a device appears). */
int genl_resolve(struct genl *g);

/*
 * Queue one request for device `index`. `done` is called exactly once,
 * from the event loop: with the reply, a netlink error, a timeout or
 * (when the family goes away or the client is freed) HOST_DEVICE_GONE.
 * Returns 0, or a negative errno when the request could not be queued
 * (then `done` is not called).
 */
int genl_request(struct genl *g, uint8_t cmd, uint32_t index, const struct genl_args *args,
		 uint64_t timeout_usec, genl_done_fn done, void *userdata);

/* Requests queued or waiting for the kernel. */
unsigned genl_pending(const struct genl *g);

/*
 * Parse a reply or event message body into tb (and CERT repeats), checking
 * each known attribute's type and length bounds. Exposed for unit tests
 * and the fuzz target: every byte here came from the kernel.
 */
int genl_parse_attrs(const struct nlmsghdr *nlh, struct genl_result *res);

/* What an NLMSG_ERROR message says; msg points into the message. */
struct genl_error {
	int err;             /* positive errno; 0 for an acknowledgement */
	const char *msg;     /* extack message, for people, or NULL */
	ota_status_t status; /* the status in the extack cookie, or 0 when none came */
};

/* Parse an NLMSG_ERROR message (0, or -EBADMSG when malformed). */
int genl_parse_error(const struct nlmsghdr *nlh, size_t len, struct genl_error *out);

#endif /* OTATTESTD_GENL_H */
