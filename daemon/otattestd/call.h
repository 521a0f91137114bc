/* SPDX-License-Identifier: MIT */
/*
 * Inside a method call that goes to the device (call.c): what the files
 * that answer a command share. call.c admits, authorizes and sends a
 * one-request command; install.c drives the requests of an install or a
 * check (begin, chunks, finish) for a call call.c admitted.
 */
#ifndef OTATTESTD_CALL_H
#define OTATTESTD_CALL_H

#include "log.h"
#include "manager.h"

/*
 * What a method needs, declared beside the method (bus-device.c), as
 * timedated's methods each name their polkit action: the command it
 * sends, its lane, its authorization, its deadline, its audit line.
 */
struct call_spec {
	uint8_t cmd; /* OTATTEST_CMD_*: the first (or only) request */
	enum client_kind kind;
	const char *action; /* polkit action; NULL: every user may */
	const char *group;  /* the group whose members may without polkit */
	bool admin_timeout; /* rotations and resets re-verify images: slow */
	const char *audit_mid; /* audit line's MESSAGE_ID; NULL: no audit line */
};
struct install;

struct call {
	struct manager *m;
	struct device *d;
	sd_bus_message *msg;
	const struct call_spec *spec;
	struct client *client;
	struct log_caller who;
	uint8_t cmd;
	struct genl_args args;
	uint8_t nonce[OTA_NONCE_MAX];
	uint8_t revocation[OTATTEST_REVOCATION_HYBRID_LEN]; /* Revoke's command, either kind */
	struct install *install; /* install.c, for InstallImage and CheckImage */
};
/* The answer is owed even when the caller has gone; these give it. */
void call_reply_error(struct call *c, const struct ota_err *e);
/* A failed call: its error to the caller and once to the log (audit or refusal). */
void call_failed(struct call *c, struct ota_err *e);
/* The call is over: its client's slot, its message and the call go. */
void call_free(struct call *c);

/*
 * install.c: read the image from the call's file descriptor and stream it
 * to the kernel; answers and frees the call when done.
 */
void install_submit(struct call *c);
void install_free(struct install *in);

#endif /* OTATTESTD_CALL_H */
