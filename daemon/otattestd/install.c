// SPDX-License-Identifier: MIT
/*
 * InstallImage and CheckImage after call.c admitted and authorized them:
 * the image comes as a file descriptor (as fwupd's Install takes it), so
 * otattestd never opens a path a caller names and reads only what the
 * caller could read. It must be a regular file of 1..OTA_DAEMON_IMAGE_MAX
 * bytes; it is read whole, by offset, before anything reaches the kernel
 * (so a file that changes under us is refused, not sent half old, half
 * new), then streamed through the kernel's install session: BEGIN, one
 * CHUNK of at most OTA_INSTALL_CHUNK_MAX bytes after another, FINISH.
 * InstallProgress follows the chunks the device acknowledged. One install
 * per device at a time: the kernel's session belongs to otattestd's
 * socket, so two of them would splice each other's chunks.
 *
 * The image is read off the loop (image-read.h), bounded in size and
 * time: a file that never answers (FUSE, a hung NFS server) fails the call
 * with Timeout while every other call is served.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "call.h"
#include "image-read.h"

struct install {
	struct image_read *reading; /* while the image is read (image-read.h) */
	uint8_t *image;
	uint32_t length;
	uint32_t sent; /* bytes the device acknowledged */
	bool dry_run;
	bool holds_device; /* this call set d->installing */
};

void install_free(struct install *in)
{
	if (!in)
		return;
	image_read_abandon(in->reading);
	free(in->image);
	free(in);
}

/* The call is over: give the device back and answer. */
static void install_end(struct call *c, struct ota_err *e)
{
	if (c->install->holds_device)
		c->d->installing = false;
	if (e)
		call_failed(c, e);
	call_free(c);
}

static void emit_progress(struct call *c)
{
	/* A signal that cannot be sent is no reason to stop the install. */
	(void)sd_bus_emit_signal(c->m->bus, c->d->path, OTA_BUS_DEVICE_IFACE, "InstallProgress", "uu",
				 c->install->sent, c->install->length);
}

static void on_step(void *userdata, const struct genl_result *res);

/* The next request of the session: a chunk while bytes remain, then FINISH. */
static void send_next(struct call *c)
{
	struct install *in = c->install;
	struct genl_args args = { 0 };
	struct ota_err e;
	uint8_t cmd = OTATTEST_CMD_INSTALL_FINISH;
	int r;

	if (in->sent < in->length) {
		cmd = OTATTEST_CMD_INSTALL_CHUNK;
		args.chunk = in->image + in->sent;
		args.chunk_len = in->length - in->sent;
		if (args.chunk_len > OTA_INSTALL_CHUNK_MAX)
			args.chunk_len = OTA_INSTALL_CHUNK_MAX;
		args.image_offset = in->sent;
	}
	c->cmd = cmd;
	r = transport_request(&c->m->transport, cmd, c->d->index, &args, c->m->admin_timeout_usec, on_step, c);
	if (r < 0) {
		ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "cannot send the request: %s", strerror(-r));
		install_end(c, &e);
	}
}

/* The device's answer to the whole image: what it checked (and wrote). */
static int reply_finish(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	const struct nlattr *const *tb = res->tb;
	const char *version;
	uint32_t stage, slot, svn;

	if (!tb[OTATTEST_A_STAGE] || !tb[OTATTEST_A_SLOT] || !tb[OTATTEST_A_SVN] ||
	    !tb[OTATTEST_A_MEASUREMENT] || !tb[OTATTEST_A_VERSION]) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's install-finish reply is incomplete");
		return -EBADMSG;
	}
	stage = mnl_attr_get_u32(tb[OTATTEST_A_STAGE]);
	slot = mnl_attr_get_u32(tb[OTATTEST_A_SLOT]);
	svn = mnl_attr_get_u32(tb[OTATTEST_A_SVN]);
	version = mnl_attr_get_str(tb[OTATTEST_A_VERSION]);
	if (slot >= OTA_SLOT_COUNT || svn > OTA_SVN_LIMIT || !args_version_printable(version)) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's install-finish reply is out of range");
		return -EBADMSG;
	}
	log_audit(MID_IMAGE_INSTALL, c->d->name, &c->who, OTA_OK,
		  "%s by uid %u: %s image of %u bytes, SVN %u, version \"%s\" %s slot %c",
		  c->who.member, (unsigned)c->who.uid, ota_stage_name(stage), c->install->length, svn,
		  version, c->install->dry_run ? "accepted for" : "written to", 'a' + (int)slot);
	if (!c->install->dry_run)
		device_refusal_clear(c->d, stage, slot);
	/* "ay" from a buffer: sd_bus_message_append would take its bytes one argument each. */
	if (sd_bus_message_new_method_return(c->msg, &reply) >= 0 &&
	    sd_bus_message_append(reply, "suus", ota_stage_name(stage), slot, svn, version) >= 0 &&
	    sd_bus_message_append_array(reply, 'y', mnl_attr_get_payload(tb[OTATTEST_A_MEASUREMENT]),
					OTA_SHA256_BYTES) >= 0)
		sd_bus_send(NULL, reply, NULL);
	return 0;
}

static void on_step(void *userdata, const struct genl_result *res)
{
	struct call *c = userdata;
	struct install *in = c->install;
	struct ota_err e;

	if (!res->ok) {
		e = res->err;
		install_end(c, &e);
		return;
	}
	switch (c->cmd) {
	case OTATTEST_CMD_INSTALL_BEGIN:
	case OTATTEST_CMD_INSTALL_CHUNK:
		if (c->cmd == OTATTEST_CMD_INSTALL_CHUNK)
			in->sent += (uint32_t)(in->length - in->sent > OTA_INSTALL_CHUNK_MAX
						       ? OTA_INSTALL_CHUNK_MAX
						       : in->length - in->sent);
		/* The kernel says where the device stands; believe nothing else. */
		if (!res->tb[OTATTEST_A_IMAGE_OFFSET] ||
		    mnl_attr_get_u32(res->tb[OTATTEST_A_IMAGE_OFFSET]) != in->sent) {
			ota_err_set_statusf(&e, OTA_HOST_PROTOCOL,
					    "the kernel's install reply does not say %u bytes received",
					    in->sent);
			install_end(c, &e);
			return;
		}
		emit_progress(c);
		send_next(c);
		return;
	case OTATTEST_CMD_INSTALL_FINISH:
		ota_err_clear(&e);
		if (reply_finish(c, res, &e) < 0) {
			install_end(c, &e);
			return;
		}
		c->m->requests_ok++;
		install_end(c, NULL);
		return;
	}
	ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "install: unexpected step %u", c->cmd);
	install_end(c, &e);
}

/* The image is in (or could not be read): open the kernel's session. */
static void on_image(void *userdata, uint8_t *image, uint32_t len, const struct ota_err *err)
{
	struct call *c = userdata;
	struct ota_err e;
	int r;

	c->install->reading = NULL; /* done: nothing left to abandon */
	if (err) {
		e = *err;
		install_end(c, &e);
		return;
	}
	c->install->image = image;
	c->install->length = len;
	c->args.has_image_length = true;
	c->args.image_length = len;
	c->cmd = OTATTEST_CMD_INSTALL_BEGIN;
	r = transport_request(&c->m->transport, OTATTEST_CMD_INSTALL_BEGIN, c->d->index, &c->args,
			 c->m->admin_timeout_usec, on_step, c);
	if (r < 0) {
		ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "cannot send the request: %s", strerror(-r));
		install_end(c, &e);
	}
}

void install_submit(struct call *c)
{
	struct ota_err e;
	int fd, r;

	c->install = calloc(1, sizeof(*c->install));
	if (!c->install) {
		ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "out of memory");
		call_failed(c, &e);
		call_free(c);
		return;
	}
	c->install->dry_run = c->args.install_flags & OTA_INSTALL_F_DRY_RUN;
	if (c->d->installing) {
		ota_err_set_statusf(&e, OTA_MBOX_BUSY, "another install or check is using %s's install session",
				    c->d->name);
		install_end(c, &e);
		return;
	}
	r = sd_bus_message_rewind(c->msg, true);
	if (r >= 0)
		r = sd_bus_message_read(c->msg, "h", &fd);
	if (r < 0) {
		ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "cannot read the call's image descriptor: %s",
				    strerror(-r));
		install_end(c, &e);
		return;
	}
	/* The device is this call's from now: a second install waits its turn (Busy). */
	c->d->installing = true;
	c->install->holds_device = true;
	if (image_read_start(c->m->event, fd,
			     c->m->image_read_timeout_usec ?: IMAGE_READ_TIMEOUT_USEC, on_image, c,
			     &c->install->reading, &e) < 0)
		install_end(c, &e);
}
