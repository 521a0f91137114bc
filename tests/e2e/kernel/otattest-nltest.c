// SPDX-License-Identifier: MIT
/*
 * otattest-nltest: a small libmnl client of the otattest generic netlink
 * family and of the kernel's uevents, for the kernel-* e2e scenarios. It
 * is built on the host and copied into the guest. It prints what the
 * kernel said, one key=value per line, so shell scripts can compare it;
 * it does not interpret it (that is the scenarios' job).
 *
 * Not otattestctl: no D-Bus, no policy, and a "raw" command that sends
 * whatever attributes it is given, to prove the kernel's policies.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <otattest/genl.h>
#include <otattest/shm.h>
#include <otattest/status.h>
#include <otu/file.h>
#include <otu/hex.h>
#include <otu/num.h>

#define EXIT_NLERR 1 /* the kernel answered with an error */
#define EXIT_USAGE 2
#define EXIT_LOCAL 3 /* socket, file or timeout on our side */

static const char usage_text[] =
	"Usage: otattest-nltest [-d N | -n NAME] COMMAND [ARGS]\n"
	"\n"
	"Talk to the otattest generic netlink family and print the reply, one\n"
	"key=value per line (binary values in hex), then elapsed_ms=N.\n"
	"\n"
	"Commands:\n"
	"  devices                 dump every device (GET_DEVICE dump)\n"
	"  device                  GET_DEVICE for the selected device\n"
	"  record [-o FILE]        GET_RECORD; with -o the record goes to FILE\n"
	"  attest NONCE [-o FILE]  ATTEST with a hex nonce; -o: evidence to FILE\n"
	"  sign SVN NONCE          STABLE_SIGN\n"
	"  certs [-o PREFIX]       GET_CERTS; -o: PREFIX.0.der, PREFIX.1.der ...\n"
	"  rotate                  ROTATE_TAGS (needs CAP_NET_ADMIN)\n"
	"  update [SLOT]           UPDATE_RESET to SLOT (0, 1, other; default other)\n"
	"  warm                    WARM_RESET\n"
	"  install STAGE SLOT FILE [check]\n"
	"                          INSTALL_BEGIN (STAGE 1 ROM_EXT or 2 BL0; SLOT 0, 1,\n"
	"                          other), FILE in 4096-byte INSTALL_CHUNKs, then\n"
	"                          INSTALL_FINISH, all on one socket; \"check\": a dry\n"
	"                          run. Prints the first error or the finish reply\n"
	"  commit SLOT             COMMIT the running BL0 slot\n"
	"  ratchet STAGE FLOOR [FLAGS]  RATCHET (FLAGS: OTA_RATCHET_F_*, 1 force)\n"
	"  revoke FILE             REVOKE with FILE's bytes as the command\n"
	"  flood [-t SECONDS] [-i MS] COMMAND [ARGS]\n"
	"                          send COMMAND (one of the above) again and again\n"
	"                          on one socket for SECONDS (default 10), MS ms\n"
	"                          apart (default 0), or until SIGTERM or SIGINT,\n"
	"                          then print sent=N and how many ended how\n"
	"                          (ok=N, EPERM=N, EBUSY=N, ...)\n"
	"  raw CMD [-a TYPE=KIND:VALUE]...\n"
	"                          send command number CMD with exactly these\n"
	"                          attributes (KIND u8, u32, str, bin (hex), flag);\n"
	"                          no selector is added\n"
	"  monitor [-c COUNT] [-u WORD] [-x WORD] [-t SECONDS]\n"
	"                          join the \"events\" group, print each event as a\n"
	"                          line; prints \"listening\" once joined; -x: an\n"
	"                          event holding WORD is printed, not counted\n"
	"  pollsysfs FILE [-t SECONDS]\n"
	"                          read a sysfs attribute, print \"listening\", wait\n"
	"                          until poll(2) reports it changed (sysfs_notify),\n"
	"                          print the new value\n"
	"  uevents [-c COUNT] [-u WORD] [-t SECONDS]\n"
	"                          print uevents of SUBSYSTEM=otattest, one per line\n"
	"                          (-c: stop after COUNT; -u: stop after a line\n"
	"                          holding WORD, e.g. event=record_changed or\n"
	"                          OTATTEST_RECORD_CHANGED=1; default 10 s)\n"
	"\n"
	"Options:\n"
	"  -d N        select device N (default 0)\n"
	"  -n NAME     select by name (otattestN) instead\n"
	"  -h, --help  this text\n"
	"\n"
	"Exit status: 0 success; 1 the kernel answered with an error (printed as\n"
	"error=ENAME errno=N msg=\"...\"); 2 bad usage; 3 a local failure or, for\n"
	"monitor and uevents, fewer than COUNT messages (or no WORD) before the\n"
	"timeout.\n";

static const struct {
	const char *name;
	enum { K_U32, K_HEX32, K_STR, K_BIN } kind;
} attr_info[OTATTEST_A_MAX + 1] = {
	[OTATTEST_A_DEVICE] = { "device", K_U32 },
	[OTATTEST_A_DEVICE_NAME] = { "device_name", K_STR },
	[OTATTEST_A_STATE] = { "state", K_U32 },
	[OTATTEST_A_STATE_DETAIL] = { "state_detail", K_HEX32 },
	[OTATTEST_A_GENERATION] = { "generation", K_U32 },
	[OTATTEST_A_RECORD] = { "record", K_BIN },
	[OTATTEST_A_NONCE] = { "nonce", K_BIN },
	[OTATTEST_A_SVN] = { "svn", K_U32 },
	[OTATTEST_A_EVIDENCE] = { "evidence", K_BIN },
	[OTATTEST_A_SIGNATURE] = { "signature", K_BIN },
	[OTATTEST_A_PUBKEY] = { "pubkey", K_BIN },
	[OTATTEST_A_CERT] = { "cert", K_BIN },
	[OTATTEST_A_KEY_VERSION_OLD] = { "key_version_old", K_U32 },
	[OTATTEST_A_KEY_VERSION_NEW] = { "key_version_new", K_U32 },
	[OTATTEST_A_STAGES_RETAGGED] = { "stages_retagged", K_U32 },
	[OTATTEST_A_SLOT] = { "slot", K_U32 },
	[OTATTEST_A_BOOT_STATUS] = { "boot_status", K_HEX32 },
	[OTATTEST_A_EVENT] = { "event", K_U32 },
	[OTATTEST_A_PROGRESS_DONE] = { "progress_done", K_U32 },
	[OTATTEST_A_PROGRESS_TOTAL] = { "progress_total", K_U32 },
	[OTATTEST_A_STAGE] = { "stage", K_U32 },
	[OTATTEST_A_IMAGE_LENGTH] = { "image_length", K_U32 },
	[OTATTEST_A_IMAGE_OFFSET] = { "image_offset", K_U32 },
	[OTATTEST_A_INSTALL_FLAGS] = { "install_flags", K_U32 },
	[OTATTEST_A_MEASUREMENT] = { "measurement", K_BIN },
	[OTATTEST_A_VERSION] = { "version", K_STR },
	[OTATTEST_A_PRIMARY_SLOT] = { "primary_slot", K_U32 },
	[OTATTEST_A_FLOOR_ROM_EXT] = { "floor_rom_ext", K_U32 },
	[OTATTEST_A_FLOOR_BL0] = { "floor_bl0", K_U32 },
	[OTATTEST_A_REVOCATION_SEQUENCE] = { "revocation_sequence", K_U32 },
	[OTATTEST_A_RUNTIME_VERSION] = { "runtime_version", K_STR },
};

static const char *event_name(uint32_t ev)
{
	switch (ev) {
	case OTATTEST_EVENT_RECORD_CHANGED: return "record_changed";
	case OTATTEST_EVENT_STATE_CHANGED: return "state_changed";
	case OTATTEST_EVENT_ROTATE_PROGRESS: return "rotate_progress";
	case OTATTEST_EVENT_DEVICE_ADDED: return "device_added";
	case OTATTEST_EVENT_DEVICE_REMOVED: return "device_removed";
	case OTATTEST_EVENT_RUNTIME_CHANGED: return "runtime_changed";
	}
	return "unknown";
}

struct nl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	uint32_t mcgrp_events;
};

/* What the kernel said about a request. */
struct reply {
	int error;        /* 0 or a positive errno */
	char msg[256];    /* extack message */
	uint32_t miss_type;
	bool have_miss;
	uint32_t bad_offset;
	bool have_offset;
	uint64_t status; /* the extack cookie: the status, as the driver sets it */
	bool have_status;
	/* Output handling for the data callback. */
	const char *out_path;
	unsigned int certs;
	bool one_line;
	int messages;
	char line[8192]; /* the last message as printed, for -u */
	size_t line_len;
};

static char buf[1 << 17];

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die_local(const char *what)
{
	fprintf(stderr, "otattest-nltest: %s: %s\n", what, strerror(errno));
	exit(EXIT_LOCAL);
}

static int write_file(const char *path, const void *p, size_t n)
{
	int r = otu_write_file_atomic(path, p, n, 0644, 0);

	if (r < 0) {
		fprintf(stderr, "otattest-nltest: writing %s: %s\n", path, strerror(-r));
		return -1;
	}
	return 0;
}

/* Print like printf and remember it in r->line (for monitor -u). */
static void __attribute__((format(printf, 2, 3))) emit(struct reply *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (r->line_len >= sizeof(r->line) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->line + r->line_len, sizeof(r->line) - r->line_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		r->line_len = r->line_len + (size_t)n < sizeof(r->line) ? r->line_len + (size_t)n
									: sizeof(r->line) - 1;
}

static int print_attr(const struct nlattr *a, void *data)
{
	struct reply *r = data;
	uint16_t type = mnl_attr_get_type(a);
	const void *p = mnl_attr_get_payload(a);
	uint16_t len = mnl_attr_get_payload_len(a);
	const char *sep = r->one_line ? " " : "\n";
	char path[4096];

	if (type > OTATTEST_A_MAX || !attr_info[type].name) {
		printf("attr%u=", type);
		otu_hex_fprint(stdout, p, len);
		fputs(sep, stdout);
		return MNL_CB_OK;
	}
	switch (attr_info[type].kind) {
	case K_U32:
	case K_HEX32:
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0) {
			printf("%s=bad-length-%u%s", attr_info[type].name, len, sep);
			break;
		}
		if (type == OTATTEST_A_EVENT)
			emit(r, "event=%s%s", event_name(mnl_attr_get_u32(a)), sep);
		else if (attr_info[type].kind == K_U32)
			emit(r, "%s=%" PRIu32 "%s", attr_info[type].name, mnl_attr_get_u32(a), sep);
		else
			emit(r, "%s=0x%08" PRIx32 "%s", attr_info[type].name, mnl_attr_get_u32(a), sep);
		break;
	case K_STR:
		emit(r, "%s=%.*s%s", attr_info[type].name, (int)strnlen(p, len), (const char *)p, sep);
		break;
	case K_BIN:
		if (r->out_path && type == OTATTEST_A_CERT) {
			snprintf(path, sizeof(path), "%s.%u.der", r->out_path, r->certs);
			if (write_file(path, p, len))
				return MNL_CB_ERROR;
			printf("cert%u_len=%u%s", r->certs, len, sep);
		} else if (r->out_path && (type == OTATTEST_A_RECORD || type == OTATTEST_A_EVIDENCE)) {
			if (write_file(r->out_path, p, len))
				return MNL_CB_ERROR;
			printf("%s_len=%u%s", attr_info[type].name, len, sep);
		} else {
			printf("%s=", attr_info[type].name);
			otu_hex_fprint(stdout, p, len);
			fputs(sep, stdout);
		}
		if (type == OTATTEST_A_CERT)
			r->certs++;
		break;
	}
	return MNL_CB_OK;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct reply *r = data;
	int ret;

	r->messages++;
	r->line_len = 0;
	r->line[0] = 0;
	ret = mnl_attr_parse(nlh, sizeof(struct genlmsghdr), print_attr, data);
	if (r->one_line) {
		putchar('\n');
		fflush(stdout);
	}
	return ret;
}

static int extack_attr(const struct nlattr *a, void *data)
{
	struct reply *r = data;

	switch (mnl_attr_get_type(a)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(r->msg, sizeof(r->msg), "%s", mnl_attr_get_str(a));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
			r->bad_offset = mnl_attr_get_u32(a);
			r->have_offset = true;
		}
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
			r->miss_type = mnl_attr_get_u32(a);
			r->have_miss = true;
		}
		break;
	case NLMSGERR_ATTR_COOKIE:
		if (mnl_attr_get_payload_len(a) == OTATTEST_STATUS_COOKIE_LEN) {
			memcpy(&r->status, mnl_attr_get_payload(a), sizeof(r->status));
			r->have_status = true;
		}
		break;
	}
	return MNL_CB_OK;
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct reply *r = data;
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	r->error = -e->error;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/* TLVs follow the error and, unless capped, the echoed request. */
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
		mnl_attr_parse(nlh, off, extack_attr, r);
	}
	return MNL_CB_STOP;
}

static int stop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_STOP;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = noop_cb,
	[NLMSG_ERROR] = error_cb,
	[NLMSG_DONE] = stop_cb,
	[NLMSG_OVERRUN] = noop_cb,
};

/* Send nlh and run callbacks until the ack, the error or the dump's end. */
static int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, struct reply *r)
{
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		die_local("sendto");
	do {
		n = mnl_socket_recvfrom(nl->sk, buf, sizeof(buf));
		if (n < 0)
			die_local("recvfrom");
		ret = mnl_cb_run2(buf, (size_t)n, nlh->nlmsg_seq, nl->portid, cb, r, ctl_cbs,
				  NLMSG_MIN_TYPE);
	} while (ret > 0);
	if (ret < 0 && !r->error)
		die_local("parsing the reply");
	return r->error ? -1 : 0;
}

static struct nlmsghdr *genl_start(struct nl *nl, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = OTATTEST_GENL_VERSION;
	return nlh;
}

/* The family's id and the events group's, from the generic netlink controller. */
static int ctrl_group_cb(const struct nlattr *a, void *data)
{
	struct nl *nl = data;
	const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = {};
	const struct nlattr *x;

	mnl_attr_for_each_nested(x, a) {
		if (mnl_attr_get_type(x) <= CTRL_ATTR_MCAST_GRP_MAX)
			tb[mnl_attr_get_type(x)] = x;
	}
	if (tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
	    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]), OTATTEST_GENL_MCGRP_EVENTS))
		nl->mcgrp_events = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	return MNL_CB_OK;
}

static int ctrl_attr_cb(const struct nlattr *a, void *data)
{
	struct nl *nl = data;
	const struct nlattr *g;

	switch (mnl_attr_get_type(a)) {
	case CTRL_ATTR_FAMILY_ID:
		nl->family = mnl_attr_get_u16(a);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		mnl_attr_for_each_nested(g, a)
			ctrl_group_cb(g, nl);
		break;
	}
	return MNL_CB_OK;
}

static struct nl *ctrl_nl; /* mnl callbacks take one data pointer */

static int ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)data;
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), ctrl_attr_cb, ctrl_nl);
}

static void nl_open(struct nl *nl, int protocol, unsigned int groups)
{
	struct nlmsghdr *nlh;
	struct reply r = {};
	int one = 1;

	nl->sk = mnl_socket_open(protocol);
	if (!nl->sk)
		die_local("socket");
	if (mnl_socket_bind(nl->sk, groups, MNL_SOCKET_AUTOPID) < 0)
		die_local("bind");
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (uint32_t)time(NULL);
	if (protocol != NETLINK_GENERIC)
		return;
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));

	nlh = genl_start(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, OTATTEST_GENL_NAME);
	ctrl_nl = nl;
	if (nl_talk(nl, nlh, ctrl_cb, &r) || !nl->family) {
		printf("error=%s\nerrno=%d\nmsg=\"family %s is not registered (is otattest.ko loaded?)\"\n",
		       strerrorname_np(r.error ?: ENOENT), r.error ?: ENOENT, OTATTEST_GENL_NAME);
		exit(EXIT_NLERR);
	}
}

static int finish(struct reply *r, double t0)
{
	if (r->error) {
		printf("error=%s\nerrno=%d\nmsg=\"%s\"\n", strerrorname_np(r->error) ?: "?", r->error,
		       r->msg);
		if (r->have_miss)
			printf("missing_attr=%u\n", r->miss_type);
		if (r->have_offset)
			printf("bad_attr_offset=%u\n", r->bad_offset);
		/* The status's name, or its number when it is not one. */
		if (r->have_status && r->status <= UINT32_MAX && ota_status_name((ota_status_t)r->status))
			printf("status=%s\n", ota_status_name((ota_status_t)r->status));
		else if (r->have_status)
			printf("status=0x%" PRIx64 "\n", r->status);
	}
	printf("elapsed_ms=%.0f\n", now_ms() - t0);
	return r->error ? EXIT_NLERR : 0;
}

/* Decimal or 0x-hex, as the scenarios write numbers. */
static bool parse_u32(const char *s, uint32_t *v)
{
	return otu_parse_u32(s, OTU_DEC_OR_HEX, 0, UINT32_MAX, v) == 0;
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "otattest-nltest: %s\n\n%s", msg, usage_text);
	exit(EXIT_USAGE);
}

/* -a TYPE=KIND:VALUE for raw. */
static void put_raw_attr(struct nlmsghdr *nlh, const char *spec)
{
	uint8_t bin[8192]; /* room for a chunk longer than the driver takes */
	char kind[8];
	uint32_t type, v;
	const char *eq = strchr(spec, '='), *colon;
	char num[16];
	ssize_t n;

	if (!eq || !(colon = strchr(eq, ':')) || (size_t)(eq - spec) >= sizeof(num) ||
	    (size_t)(colon - eq - 1) >= sizeof(kind))
		usage_error("-a wants TYPE=KIND:VALUE");
	memcpy(num, spec, (size_t)(eq - spec));
	num[eq - spec] = 0;
	memcpy(kind, eq + 1, (size_t)(colon - eq - 1));
	kind[colon - eq - 1] = 0;
	if (!parse_u32(num, &type) || type > 0xffff)
		usage_error("-a: bad attribute type");
	if (!strcmp(kind, "u32") && parse_u32(colon + 1, &v))
		mnl_attr_put_u32(nlh, (uint16_t)type, v);
	else if (!strcmp(kind, "u8") && parse_u32(colon + 1, &v) && v <= 0xff)
		mnl_attr_put_u8(nlh, (uint16_t)type, (uint8_t)v);
	else if (!strcmp(kind, "str"))
		mnl_attr_put_strz(nlh, (uint16_t)type, colon + 1);
	else if (!strcmp(kind, "flag"))
		mnl_attr_put(nlh, (uint16_t)type, 0, NULL);
	else if (!strcmp(kind, "bin") && (n = otu_hex_decode(colon + 1, bin, sizeof(bin))) >= 0)
		mnl_attr_put(nlh, (uint16_t)type, (size_t)n, bin);
	else
		usage_error("-a: bad KIND or VALUE");
}

/* Wait for COUNT messages on sk, for at most secs; print each with cb. */
/* " WORD " within " LINE ": WORD is one of LINE's space-separated words. */
static bool has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *p = line;

	while ((p = strstr(p, word))) {
		if ((p == line || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
		p++;
	}
	return false;
}

static int listen_loop(struct nl *nl, int count, const char *until, const char *skip, int secs,
		       bool uevents)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(nl->sk), .events = POLLIN };
	double deadline = now_ms() + secs * 1000.0;
	struct reply r = { .one_line = true };
	int seen = 0;
	ssize_t n;

	bool found = false;

	printf("listening\n");
	fflush(stdout);
	while ((count <= 0 && !until) || (count > 0 && seen < count) || (until && !found)) {
		double left = deadline - now_ms();

		if (left <= 0)
			break;
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		n = mnl_socket_recvfrom(nl->sk, buf, sizeof(buf) - 1);
		if (n < 0)
			die_local("recvfrom");
		if (uevents) {
			/* "ACTION@DEVPATH\0KEY=VALUE\0..." */
			bool ours = false;

			buf[n] = 0;
			for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
				if (!strcmp(buf + i, "SUBSYSTEM=otattest"))
					ours = true;
			if (!ours)
				continue;
			r.line_len = 0;
			r.line[0] = 0;
			for (ssize_t i = (ssize_t)strlen(buf) + 1; i < n; i += (ssize_t)strlen(buf + i) + 1)
				emit(&r, "%s%s", buf + i, i + (ssize_t)strlen(buf + i) + 1 < n ? " " : "\n");
			fflush(stdout);
			seen++;
			if (until && has_word(r.line, until))
				found = true;
		} else {
			/* One datagram may hold several events: check each. */
			const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
			int rest = (int)n;

			while (mnl_nlmsg_ok(nlh, rest)) {
				if (nlh->nlmsg_type >= NLMSG_MIN_TYPE) {
					data_cb(nlh, &r);
					if (skip && has_word(r.line, skip)) {
						nlh = mnl_nlmsg_next(nlh, &rest);
						continue;
					}
					seen++;
					if (until && has_word(r.line, until))
						found = true;
				}
				nlh = mnl_nlmsg_next(nlh, &rest);
			}
		}
	}
	printf("received=%d\n", seen);
	if (until && !found)
		return EXIT_LOCAL;
	return count > 0 && seen < count ? EXIT_LOCAL : 0;
}

/*
 * The command's own arguments: "-o FILE", "-a SPEC" (repeatable), "-c N",
 * "-t SECONDS" anywhere, the rest positional.
 */
struct args {
	const char *out;
	const char *attrs[64];
	int n_attrs;
	int count, secs, pause_ms;
	const char *until;
	const char *skip; /* -x: printed, never counted */
	const char *pos[4];
	int n_pos;
};

/* The value of -c or -t: a whole decimal number. */
static int count_arg(const char *v)
{
	uint32_t n;

	if (otu_parse_u32(v, OTU_DEC, 0, INT32_MAX, &n) < 0)
		usage_error("-c, -i and -t want a decimal number");
	return (int)n;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];

		if ((!strcmp(s, "-o") || !strcmp(s, "-a") || !strcmp(s, "-c") || !strcmp(s, "-t") ||
		     !strcmp(s, "-u") || !strcmp(s, "-i") || !strcmp(s, "-x")) &&
		    i + 1 < argc) {
			const char *v = argv[++i];

			if (s[1] == 'i')
				a->pause_ms = count_arg(v);
			else if (s[1] == 'o')
				a->out = v;
			else if (s[1] == 'u')
				a->until = v;
			else if (s[1] == 'x')
				a->skip = v;
			else if (s[1] == 'c')
				a->count = count_arg(v);
			else if (s[1] == 't')
				a->secs = count_arg(v);
			else if (a->n_attrs < 64)
				a->attrs[a->n_attrs++] = v;
			else
				usage_error("too many -a");
		} else if (s[0] == '-' && s[1]) {
			usage_error("unknown option or missing value");
		} else if (a->n_pos < 4) {
			a->pos[a->n_pos++] = s;
		} else {
			usage_error("too many arguments");
		}
	}
}

static const struct {
	const char *name;
	uint8_t cmd;
	int min_pos, max_pos;
} commands[] = {
	{ "device", OTATTEST_CMD_GET_DEVICE, 0, 0 },
	{ "record", OTATTEST_CMD_GET_RECORD, 0, 0 },
	{ "attest", OTATTEST_CMD_ATTEST, 1, 1 },
	{ "sign", OTATTEST_CMD_STABLE_SIGN, 2, 2 },
	{ "certs", OTATTEST_CMD_GET_CERTS, 0, 0 },
	{ "rotate", OTATTEST_CMD_ROTATE_TAGS, 0, 0 },
	{ "update", OTATTEST_CMD_UPDATE_RESET, 0, 1 },
	{ "warm", OTATTEST_CMD_WARM_RESET, 0, 0 },
	{ "commit", OTATTEST_CMD_COMMIT, 1, 1 },
	{ "ratchet", OTATTEST_CMD_RATCHET, 2, 3 },
	{ "revoke", OTATTEST_CMD_REVOKE, 1, 1 },
};

/* A slot argument: 0, 1 or "other". */
static uint32_t slot_arg(const char *v)
{
	uint32_t slot;

	if (!strcmp(v, "other"))
		return OTA_UPDATE_SLOT_OTHER;
	if (!parse_u32(v, &slot))
		usage_error("a slot is 0, 1 or other");
	return slot;
}

static struct nlmsghdr *device_request(struct nl *nl, uint8_t cmd, const char *name, uint32_t dev)
{
	struct nlmsghdr *nlh = genl_start(nl, nl->family, cmd, 0);

	if (name)
		mnl_attr_put_strz(nlh, OTATTEST_A_DEVICE_NAME, name);
	else
		mnl_attr_put_u32(nlh, OTATTEST_A_DEVICE, dev);
	return nlh;
}

/*
 * install STAGE SLOT FILE [check]: the whole session on one socket, as a
 * root tool would stream an image (the driver lets only the socket that
 * began a session continue it). Stops at the first error.
 */
static int install(struct nl *nl, const struct args *a, const char *name, uint32_t dev, double t0)
{
	uint8_t *image = NULL;
	uint32_t stage, off = 0;
	struct nlmsghdr *nlh;
	struct reply r = {};
	size_t len;
	int e;

	if (a->n_pos < 3 || a->n_pos > 4 || !parse_u32(a->pos[0], &stage) ||
	    (a->n_pos == 4 && strcmp(a->pos[3], "check")))
		usage_error("install wants STAGE SLOT FILE [check]");
	e = otu_read_file(a->pos[2], 1u << 20, &image, &len);
	if (e < 0) {
		errno = -e;
		die_local(a->pos[2]);
	}
	nlh = device_request(nl, OTATTEST_CMD_INSTALL_BEGIN, name, dev);
	mnl_attr_put_u32(nlh, OTATTEST_A_STAGE, stage);
	mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, slot_arg(a->pos[1]));
	mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_LENGTH, (uint32_t)len);
	mnl_attr_put_u32(nlh, OTATTEST_A_INSTALL_FLAGS, a->n_pos == 4 ? OTA_INSTALL_F_DRY_RUN : 0);
	r.one_line = true;
	nl_talk(nl, nlh, data_cb, &r);
	while (!r.error && off < len) {
		size_t n = len - off > OTA_INSTALL_CHUNK_MAX ? OTA_INSTALL_CHUNK_MAX : len - off;

		nlh = device_request(nl, OTATTEST_CMD_INSTALL_CHUNK, name, dev);
		mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_OFFSET, off);
		mnl_attr_put(nlh, OTATTEST_A_IMAGE_CHUNK, n, image + off);
		nl_talk(nl, nlh, data_cb, &r);
		off += (uint32_t)n;
	}
	if (!r.error) {
		r.one_line = false;
		nl_talk(nl, device_request(nl, OTATTEST_CMD_INSTALL_FINISH, name, dev), data_cb, &r);
	}
	free(image);
	return finish(&r, t0);
}

/* sysfs_notify wakes poll() with POLLPRI | POLLERR; the file is re-read. */
static int poll_sysfs(const char *path, int secs)
{
	char val[256];
	struct pollfd pfd;
	ssize_t n;
	int fd, r;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die_local(path);
	n = pread(fd, val, sizeof(val) - 1, 0); /* arms the notification */
	if (n < 0)
		die_local("reading the attribute");
	val[n] = 0;
	printf("listening value=%s", val);
	fflush(stdout);
	pfd.fd = fd;
	pfd.events = POLLPRI | POLLERR;
	r = poll(&pfd, 1, secs * 1000);
	if (r < 0)
		die_local("poll");
	if (r == 0) {
		printf("timeout\n");
		return EXIT_LOCAL;
	}
	n = pread(fd, val, sizeof(val) - 1, 0);
	if (n < 0)
		die_local("reading the attribute again");
	val[n] = 0;
	printf("changed value=%s", val);
	close(fd);
	return 0;
}

static int quiet_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/*
 * The request in proto again and again, each waiting for its answer (in
 * the kernel's handler, while the driver queues it), until secs have
 * passed; how each ended is counted by errno.
 */
static volatile sig_atomic_t flood_stop;

static void flood_stop_on(int sig)
{
	(void)sig;
	flood_stop = 1;
}

static int flood(struct nl *nl, const struct nlmsghdr *proto, int secs, int pause_ms)
{
	static char req[4096];
	static unsigned long count[4096];
	unsigned long sent = 0;
	double end = now_ms() + secs * 1000.0;
	/* SA_RESTART: a request in flight ends as it would; the loop stops after it. */
	struct sigaction sa = { .sa_handler = flood_stop_on, .sa_flags = SA_RESTART };
	int e;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0 || sigaction(SIGINT, &sa, NULL) < 0)
		return 1;
	memcpy(req, proto, proto->nlmsg_len);
	while (!flood_stop && now_ms() < end) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)req;
		struct reply r = {};

		nlh->nlmsg_seq = ++nl->seq;
		nl_talk(nl, nlh, quiet_cb, &r);
		count[r.error > 0 && r.error < 4096 ? r.error : 0]++;
		sent++;
		if (pause_ms)
			usleep((useconds_t)pause_ms * 1000u);
	}
	printf("sent=%lu\nok=%lu\n", sent, count[0]);
	for (e = 1; e < 4096; e++)
		if (count[e])
			printf("%s=%lu\n", strerrorname_np(e) ?: "E?", count[e]);
	return 0;
}

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	struct args a = { .secs = 10 };
	const char *name = NULL, *cmd;
	struct reply r = {};
	struct nlmsghdr *nlh;
	struct nl nl = {};
	uint32_t dev = 0, v;
	uint8_t nonce[256];
	int opt, n, c;
	double t0;

	/* Global options stop at the command ("+"). */
	while ((opt = getopt_long(argc, argv, "+d:n:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (!parse_u32(optarg, &dev))
				usage_error("-d wants a number");
			break;
		case 'n':
			name = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			usage_error("unknown option");
		}
	}
	if (optind >= argc)
		usage_error("no command");
	cmd = argv[optind];
	parse_args(argc - optind - 1, argv + optind + 1, &a);

	if (!strcmp(cmd, "pollsysfs")) {
		if (a.n_pos != 1)
			usage_error("pollsysfs wants a file");
		return poll_sysfs(a.pos[0], a.secs);
	}
	if (!strcmp(cmd, "uevents")) {
		nl_open(&nl, NETLINK_KOBJECT_UEVENT, 1);
		return listen_loop(&nl, a.count, a.until, a.skip, a.secs, true);
	}
	nl_open(&nl, NETLINK_GENERIC, 0);
	if (!strcmp(cmd, "monitor")) {
		if (!nl.mcgrp_events) {
			errno = ENOENT;
			die_local("the family has no events group");
		}
		if (mnl_socket_setsockopt(nl.sk, NETLINK_ADD_MEMBERSHIP, &nl.mcgrp_events,
					  sizeof(nl.mcgrp_events)) < 0)
			die_local("joining the events group");
		return listen_loop(&nl, a.count, a.until, a.skip, a.secs, false);
	}

	t0 = now_ms();
	if (!strcmp(cmd, "raw")) {
		if (a.n_pos != 1 || !parse_u32(a.pos[0], &v) || v > 0xff)
			usage_error("raw wants a command number");
		nlh = genl_start(&nl, nl.family, (uint8_t)v, 0);
		for (int i = 0; i < a.n_attrs; i++)
			put_raw_attr(nlh, a.attrs[i]);
		nl_talk(&nl, nlh, data_cb, &r);
		return finish(&r, t0);
	}
	if (!strcmp(cmd, "devices")) {
		nlh = genl_start(&nl, nl.family, OTATTEST_CMD_GET_DEVICE, NLM_F_DUMP);
		r.one_line = true;
		nl_talk(&nl, nlh, data_cb, &r);
		printf("devices=%d\n", r.messages);
		return finish(&r, t0);
	}

	if (!strcmp(cmd, "install"))
		return install(&nl, &a, name, dev, t0);

	/* flood COMMAND ARGS: the command is the first positional argument. */
	if (!strcmp(cmd, "flood")) {
		if (a.n_pos < 1)
			usage_error("flood wants a command");
		cmd = a.pos[0];
		memmove(a.pos, a.pos + 1, sizeof(a.pos[0]) * (size_t)--a.n_pos);
		a.pos[a.n_pos] = NULL;
		a.count = -1; /* a flag: flood below */
	}
	for (c = 0; c < (int)(sizeof(commands) / sizeof(commands[0])); c++)
		if (!strcmp(cmd, commands[c].name))
			break;
	if (c == (int)(sizeof(commands) / sizeof(commands[0])))
		usage_error("unknown command");
	if (a.n_pos < commands[c].min_pos || a.n_pos > commands[c].max_pos)
		usage_error("wrong number of arguments");
	nlh = device_request(&nl, commands[c].cmd, name, dev);

	switch (commands[c].cmd) {
	case OTATTEST_CMD_ATTEST:
		if ((n = otu_hex_decode(a.pos[0], nonce, sizeof(nonce))) < 0)
			usage_error("attest wants a hex nonce");
		mnl_attr_put(nlh, OTATTEST_A_NONCE, (size_t)n, nonce);
		break;
	case OTATTEST_CMD_STABLE_SIGN:
		if (!parse_u32(a.pos[0], &v) || (n = otu_hex_decode(a.pos[1], nonce, sizeof(nonce))) < 0)
			usage_error("sign wants SVN and a hex nonce");
		mnl_attr_put_u32(nlh, OTATTEST_A_SVN, v);
		mnl_attr_put(nlh, OTATTEST_A_NONCE, (size_t)n, nonce);
		break;
	case OTATTEST_CMD_UPDATE_RESET:
		if (a.n_pos)
			mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, slot_arg(a.pos[0]));
		break;
	case OTATTEST_CMD_COMMIT:
		mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, slot_arg(a.pos[0]));
		break;
	case OTATTEST_CMD_RATCHET:
		if (!parse_u32(a.pos[0], &v))
			usage_error("ratchet wants STAGE FLOOR");
		mnl_attr_put_u32(nlh, OTATTEST_A_STAGE, v);
		if (!parse_u32(a.pos[1], &v))
			usage_error("ratchet wants STAGE FLOOR");
		mnl_attr_put_u32(nlh, OTATTEST_A_FLOOR, v);
		if (a.n_pos > 2) {
			if (!parse_u32(a.pos[2], &v))
				usage_error("ratchet wants STAGE FLOOR [FLAGS]");
			mnl_attr_put_u32(nlh, OTATTEST_A_RATCHET_FLAGS, v);
		}
		break;
	case OTATTEST_CMD_REVOKE: {
		uint8_t *cmdbuf = NULL;
		size_t len;
		int e = otu_read_file(a.pos[0], 4096, &cmdbuf, &len);

		if (e < 0) {
			errno = -e;
			die_local(a.pos[0]);
		}
		/* Whatever the file holds: the policy judges its length. */
		mnl_attr_put(nlh, OTATTEST_A_REVOCATION, len, cmdbuf);
		free(cmdbuf);
		break;
	}
	}

	if (a.count == -1)
		return flood(&nl, nlh, a.secs, a.pause_ms);
	r.out_path = a.out;
	nl_talk(&nl, nlh, data_cb, &r);
	return finish(&r, t0);
}
