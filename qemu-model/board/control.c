// SPDX-License-Identifier: MIT
/*
 * The control socket: how a test harness drives the emulated hardware
 * (power, flash, OTP, fault knobs) without going through the guest.
 *
 * A UNIX stream socket speaking lines: one request line in, one response
 * line out, "ok key=value ..." or "error NAME message" where NAME is a
 * status name from status.h or "usage". Requests are at most
 * CONTROL_LINE_MAX bytes; a longer line is refused and its client
 * dropped. docs/model.md is the reference for every command.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <otattest/otp.h>
#include <otu/num.h>

#include "model.h"
#include "unixsock.h"

#define MAX_WORDS 8u

struct reply {
	char text[2048];
};

static void __attribute__((format(printf, 2, 3))) reply_ok(struct reply *r, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->text, sizeof(r->text), "ok");

	if (fmt && fmt[0] && n > 0 && (size_t)n < sizeof(r->text) - 1) {
		r->text[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(r->text + n, sizeof(r->text) - (size_t)n, fmt, ap);
		va_end(ap);
	}
}

static void __attribute__((format(printf, 3, 4)))
reply_err(struct reply *r, const char *name, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->text, sizeof(r->text), "error %s ", name);

	if (n > 0 && (size_t)n < sizeof(r->text)) {
		va_start(ap, fmt);
		vsnprintf(r->text + n, sizeof(r->text) - (size_t)n, fmt, ap);
		va_end(ap);
	}
}

static void reply_status(struct reply *r, ota_status_t st)
{
	const char *msg = ota_status_message(st);

	reply_err(r, status_str(st), "%s", msg ? msg : "unknown status");
}

static bool parse_stage(const char *s, uint32_t *stage)
{
	if (strcmp(s, "rom_ext") == 0)
		*stage = OTA_STAGE_ROM_EXT;
	else if (strcmp(s, "bl0") == 0)
		*stage = OTA_STAGE_BL0;
	else
		return false;
	return true;
}

/* A lifecycle state by its name (record.h's names: dev, prod, ...). */
static bool parse_lifecycle(const char *s, uint32_t *lifecycle)
{
	for (uint32_t i = 0; i < OTA_LC_COUNT; i++) {
		if (strcmp(s, ota_lifecycle_name(i)) == 0) {
			*lifecycle = i;
			return true;
		}
	}
	return false;
}

static bool parse_slot(const char *s, uint32_t *slot)
{
	if (strcmp(s, "a") == 0)
		*slot = OTA_SLOT_A;
	else if (strcmp(s, "b") == 0)
		*slot = OTA_SLOT_B;
	else
		return false;
	return true;
}

static uint32_t record_generation(const struct model *m)
{
	const struct ota_record_header *h = (const struct ota_record_header *)m->shm.record;

	return m->shm.have_record && m->shm.record_len >= sizeof(*h) ? h->generation : 0;
}

static void cmd_status(struct model *m, struct reply *r)
{
	reply_ok(r,
		 "state=%s detail=%s boot-status=%s boots=%u guest=%s guest-peer=%u "
		 "device-peer=%u guests-accepted=%llu guests-refused=%llu "
		 "record-generation=%u shm-generation=%u event-counter=%u last-seq=%u "
		 "requests=%llu answered=%llu refused=%llu dropped=%llu flash-writes=%llu "
		 "pending=%s watchdog-bites=%llu",
		 ota_device_state_name(m->shm.info.device_state),
		 status_str(m->shm.info.state_detail), status_str(m->device.boot_status),
		 m->device.boots, server_has_guest(m) ? "yes" : "no",
		 server_has_guest(m) ? m->server.guest.id : 0u, m->server.device.id,
		 (unsigned long long)m->server.guests_accepted,
		 (unsigned long long)m->server.seat.refused, record_generation(m),
		 m->shm.record_seq, m->shm.info.event_counter, m->mbox.last_seq,
		 (unsigned long long)m->mbox.requests, (unsigned long long)m->mbox.answered,
		 (unsigned long long)m->mbox.refused, (unsigned long long)m->mbox.dropped,
		 (unsigned long long)m->device.flash_writes, m->mbox.pending ? "yes" : "no",
		 (unsigned long long)m->device.bites);
}

static void cmd_install(struct model *m, char **w, unsigned n, const char *path,
			struct reply *r)
{
	uint32_t stage, slot, written = 0;
	ota_status_t st;

	if (n < 4 || !parse_stage(w[1], &stage) || !parse_slot(w[2], &slot) || !path) {
		reply_err(r, "usage", "install rom_ext|bl0 a|b PATH");
		return;
	}
	st = device_install(m, stage, slot, path, &written);
	if (st != OTA_OK) {
		reply_status(r, st);
		return;
	}
	reply_ok(r, "stage=%s slot=%s bytes=%u flash-writes=%llu", w[1], w[2], written,
		 (unsigned long long)m->device.flash_writes);
}

static void cmd_otp(struct model *m, char **w, unsigned n, struct reply *r)
{
	uint32_t stage, value;
	ota_status_t st;

	if (n == 4 && strcmp(w[1], "floor") == 0 && parse_stage(w[2], &stage) &&
	    otu_parse_u32(w[3], OTU_DEC_OR_HEX, 0, OTA_SVN_LIMIT, &value) == 0)
		st = device_otp_floor(m, stage, value);
	else if (n == 3 && strcmp(w[1], "epoch") == 0 &&
		 otu_parse_u32(w[2], OTU_DEC_OR_HEX, 0, OTA_OTP_EPOCH_BITS, &value) == 0)
		st = device_otp_epoch(m, value);
	else if (n == 4 && strcmp(w[1], "revoke") == 0 &&
		 (strcmp(w[2], "creator") == 0 || strcmp(w[2], "owner") == 0) &&
		 otu_parse_u32(w[3], OTU_DEC_OR_HEX, 0, 3, &value) == 0)
		st = device_otp_revoke(m, w[2][0] == 'c', value);
	else if (n == 3 && strcmp(w[1], "lifecycle") == 0 && parse_lifecycle(w[2], &value))
		st = device_otp_lifecycle(m, value);
	else {
		reply_err(r, "usage",
			  "otp floor rom_ext|bl0 SVN | otp epoch N | otp revoke creator|owner INDEX | "
			  "otp lifecycle dev|prod|prod_end");
		return;
	}
	if (st != OTA_OK) {
		reply_status(r, st);
		return;
	}
	reply_ok(r, "takes-effect=next-boot");
}

static void cmd_tamper(struct model *m, char **w, unsigned n, struct reply *r)
{
	uint32_t stage, slot;
	ota_status_t st;

	if (n != 4 || strcmp(w[1], "tag") != 0 || !parse_stage(w[2], &stage) ||
	    !parse_slot(w[3], &slot)) {
		reply_err(r, "usage", "tamper tag rom_ext|bl0 a|b");
		return;
	}
	st = device_tamper_tag(m, stage, slot);
	if (st != OTA_OK) {
		reply_status(r, st);
		return;
	}
	reply_ok(r, "tag=%s/%s takes-effect=next-boot", w[2], w[3]);
}

/* "hang bl0 a|b" or "hang off": the board plays a hung BL0 for that slot (watchdog.c). */
static void cmd_hang(struct model *m, char **w, unsigned n, struct reply *r)
{
	uint32_t stage, slot;

	if (n == 2 && strcmp(w[1], "off") == 0) {
		m->device.hang_slots = 0;
	} else if (n == 3 && parse_stage(w[1], &stage) && stage == OTA_STAGE_BL0 &&
		   parse_slot(w[2], &slot)) {
		m->device.hang_slots |= 1u << slot;
	} else {
		reply_err(r, "usage", "hang bl0 a|b | hang off");
		return;
	}
	reply_ok(r, "hang-a=%s hang-b=%s", (m->device.hang_slots & 1u) ? "yes" : "no",
		 (m->device.hang_slots & 2u) ? "yes" : "no");
}

static void cmd_fault(struct model *m, char **w, unsigned n, struct reply *r)
{
	char err[256], desc[1024];
	struct faults next = m->faults;

	if (n == 2 && strcmp(w[1], "clear") == 0) {
		fault_clear_all(&next);
	} else if (n == 3) {
		if (fault_set(&next, w[1], w[2], err, sizeof(err)) < 0) {
			reply_err(r, "usage", "%s", err);
			return;
		}
	} else if (n != 1) {
		reply_err(r, "usage", "fault | fault clear | fault NAME VALUE|off");
		return;
	}
	if (n == 3 && strcmp(w[1], "irq-storm") == 0 && next.storm_count && !server_has_guest(m)) {
		reply_err(r, "usage", "irq-storm needs a connected guest");
		return;
	}
	m->faults = next;
	if (n > 1)
		model_faults_changed(m, w[1]);
	fault_describe(&m->faults, desc, sizeof(desc));
	reply_ok(r, "%s", desc);
}

static void dispatch(struct model *m, char *line, struct reply *r)
{
	char *w[MAX_WORDS], *save = NULL, *p, *rest = NULL;
	unsigned n = 0;
	ota_status_t st;

	/* install's PATH is the rest of the line: paths may hold spaces. */
	for (p = strtok_r(line, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		if (n == MAX_WORDS) {
			reply_err(r, "usage", "too many words");
			return;
		}
		w[n++] = p;
		if (n == 3 && strcmp(w[0], "install") == 0) {
			rest = save;
			while (rest && (*rest == ' ' || *rest == '\t'))
				rest++;
			if (rest && *rest)
				w[n++] = rest;
			break;
		}
	}
	if (n == 0) {
		reply_err(r, "usage", "empty request; try 'help'");
		return;
	}
	if ((strcmp(w[0], "help") == 0 || strcmp(w[0], "status") == 0 ||
	     strcmp(w[0], "power-cycle") == 0 || strcmp(w[0], "stop") == 0) &&
	    n != 1) {
		reply_err(r, "usage", "'%s' takes no arguments", w[0]);
	} else if (strcmp(w[0], "help") == 0) {
		reply_ok(r, "commands=help,status,power-cycle,install,otp,fault,compromise,tamper,hang,"
			    "stop");
	} else if (strcmp(w[0], "status") == 0) {
		cmd_status(m, r);
	} else if (strcmp(w[0], "power-cycle") == 0) {
		st = device_power_cycle(m);
		reply_ok(r, "boot-status=%s record-generation=%u", status_str(st),
			 record_generation(m));
	} else if (strcmp(w[0], "install") == 0) {
		cmd_install(m, w, n, n == 4 ? w[3] : NULL, r);
	} else if (strcmp(w[0], "otp") == 0) {
		cmd_otp(m, w, n, r);
	} else if (strcmp(w[0], "fault") == 0) {
		cmd_fault(m, w, n, r);
	} else if (strcmp(w[0], "compromise") == 0) {
		if (n != 3) {
			reply_err(r, "usage", "compromise bl0-path|bl0-scheme|bl0-depth|bl0-root-key|"
					      "min-svn|epoch|floor-bl0|lifecycle VALUE");
		} else if (m->opt.core_rv32) {
			reply_err(r, "usage", "compromise plays the runtime of --core=host; with --core=rv32 "
					      "a lying runtime is a signed BL0 image (tests/rv32/hostile/)");
		} else if ((st = device_compromise(m, w[1], w[2])) != OTA_OK) {
			reply_status(r, st);
		} else {
			reply_ok(r, "%s=%s until-reset", w[1], w[2]);
		}
	} else if (strcmp(w[0], "tamper") == 0) {
		cmd_tamper(m, w, n, r);
	} else if (strcmp(w[0], "hang") == 0) {
		cmd_hang(m, w, n, r);
	} else if (strcmp(w[0], "stop") == 0) {
		reply_ok(r, "stopping");
		model_request_stop(m, "control");
	} else {
		reply_err(r, "usage", "unknown request '%s'; try 'help'", w[0]);
	}
}

static void drop_client(struct control_client *c)
{
	c->src = sd_event_source_disable_unref(c->src);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->used = 0;
}

static bool send_line(struct control_client *c, const char *text)
{
	char out[sizeof(((struct reply *)0)->text) + 1];
	size_t len = strlen(text);
	ssize_t n;

	memcpy(out, text, len);
	out[len++] = '\n';
	n = send(c->fd, out, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	return n == (ssize_t)len;
}

static int on_client_io(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	struct control_client *c = NULL;
	ssize_t n;

	(void)src;
	(void)revents;
	for (unsigned i = 0; i < CONTROL_MAX_CLIENTS; i++)
		if (m->control.client[i].fd == fd)
			c = &m->control.client[i];
	if (!c)
		return 0;
	n = recv(fd, c->buf + c->used, sizeof(c->buf) - c->used, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		drop_client(c);
		return 0;
	}
	c->used += (uint32_t)n;
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->used);
		struct reply r;
		uint32_t consumed;

		if (!nl) {
			if (c->used == sizeof(c->buf)) {
				send_line(c, "error usage request line too long");
				log_warn("control-line-too-long", "fd=%d", fd);
				drop_client(c);
			}
			return 0;
		}
		*nl = '\0';
		if (nl > c->buf && nl[-1] == '\r')
			nl[-1] = '\0';
		consumed = (uint32_t)(nl - c->buf) + 1u;
		log_debug("control-request", "line=\"%.200s\"", c->buf);
		dispatch(m, c->buf, &r);
		/* status is polled by harnesses: only worth a line when debugging. */
		log_event(strcmp(c->buf, "status") == 0 ? LOG_LVL_DEBUG : LOG_LVL_INFO, "control",
			  "request=%s result=%.*s", c->buf[0] ? c->buf : "-",
			  (int)strcspn(r.text, " "), r.text);
		log_debug("control-reply", "%.300s", r.text);
		if (!send_line(c, r.text)) {
			drop_client(c);
			return 0;
		}
		memmove(c->buf, c->buf + consumed, c->used - consumed);
		c->used -= consumed;
		if (m->stopping)
			return 0;
	}
}

static int on_listen(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	struct control_client *c = NULL;
	int conn, r;

	(void)src;
	(void)revents;
	conn = unix_accept(fd);
	if (conn < 0)
		return 0;
	/* The control socket powers, tampers and kills the device: its owner (or root) only. */
	if (!unix_peer_is_owner(conn)) {
		const char *denied = "error HOST_PERMISSION not the model's user\n";

		(void)!send(conn, denied, strlen(denied), MSG_NOSIGNAL | MSG_DONTWAIT);
		close(conn);
		log_warn("control-refused", "reason=peer-uid");
		return 0;
	}
	for (unsigned i = 0; i < CONTROL_MAX_CLIENTS && !c; i++)
		if (m->control.client[i].fd < 0)
			c = &m->control.client[i];
	if (!c) {
		const char *busy = "error HOST_QUEUE_FULL too many control clients\n";

		(void)!send(conn, busy, strlen(busy), MSG_NOSIGNAL | MSG_DONTWAIT);
		close(conn);
		return 0;
	}
	r = sd_event_add_io(m->event, &c->src, conn, EPOLLIN | EPOLLRDHUP, on_client_io, m);
	if (r < 0) {
		close(conn);
		return 0;
	}
	c->fd = conn;
	c->used = 0;
	return 0;
}

int control_start(struct model *m)
{
	int r;

	for (unsigned i = 0; i < CONTROL_MAX_CLIENTS; i++)
		m->control.client[i].fd = -1;
	m->control.listen_fd = unix_listen_private(m->opt.control_path, 8);
	if (m->control.listen_fd < 0)
		return m->control.listen_fd;
	r = sd_event_add_io(m->event, &m->control.listen_src, m->control.listen_fd, EPOLLIN,
			    on_listen, m);
	if (r < 0)
		return r;
	log_info("control-listening", "socket=%s", m->opt.control_path);
	return 0;
}

void control_stop(struct model *m)
{
	for (unsigned i = 0; i < CONTROL_MAX_CLIENTS; i++)
		drop_client(&m->control.client[i]);
	m->control.listen_src = sd_event_source_disable_unref(m->control.listen_src);
	if (m->control.listen_fd >= 0) {
		close(m->control.listen_fd);
		unlink(m->opt.control_path);
	}
	m->control.listen_fd = -1;
}
