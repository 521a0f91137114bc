// SPDX-License-Identifier: MIT
/*
 * otattest-nlfuzz: generated generic netlink messages and sysfs traffic
 * against the running driver, for the kernel-fuzz-live e2e scenario.
 *
 *   otattest-nlfuzz --seconds N --seed S [--sysfs DIR]
 *
 * For N seconds it sends requests to the otattest family built from a
 * seeded generator. Two in five are requests the policies take (a real
 * command, its selector, its attributes at sizes on and just off their
 * bounds), so they reach the device while it dies and lies; the rest are
 * the family's commands (and some past
 * OTATTEST_CMD_MAX), attributes of every type up to past OTATTEST_A_MAX
 * with right and wrong sizes, strings with and without their NUL, nested
 * attributes where none are expected, NLA_F_NESTED and byte-order flags,
 * attribute lengths that lie, dump/ack/echo flags, other versions, now and
 * then another family id or a message length that lies. Every answer is
 * drained and must be well formed netlink: each message fits, an error
 * carries its nlmsgerr, a reply's attributes parse. Every 16 messages a
 * file of DIR (the device's sysfs directory) is read whole or at a random
 * offset, or random bytes are written to it.
 *
 * It judges only what it receives; the scenario judges the kernel log and
 * that the device still answers afterwards. Prints key=value counters;
 * exit 0, 1 when an answer was malformed, 2 on usage, 3 on a local error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <otattest/genl.h>
#include <otu/num.h>

#define EXIT_MALFORMED 1
#define EXIT_USAGE 2
#define EXIT_LOCAL 3
#define MAX_FILES 64
#define MAX_ERRNO 160

static uint64_t rng;
static uint8_t msg[16384], rbuf[1 << 17];
static struct {
	unsigned long sent, send_err, replies, acks, malformed, dumps_done;
	unsigned long err[MAX_ERRNO], sysfs_reads, sysfs_read_err, sysfs_writes, sysfs_write_err;
} n;

/* xorshift64*: the same seed gives the same messages. */
static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

static uint32_t below(uint32_t k)
{
	return k ? rnd() % k : 0;
}

static bool chance(uint32_t percent)
{
	return below(100) < percent;
}

static void die(const char *what)
{
	fprintf(stderr, "otattest-nlfuzz: %s: %s\n", what, strerror(errno));
	exit(EXIT_LOCAL);
}

/* A payload for one attribute; returns its length (at most room). */
static size_t payload(uint8_t *p, size_t room, int depth);

static size_t put_attr(uint8_t *p, size_t room, int depth)
{
	struct nlattr *a = (struct nlattr *)p;
	size_t len;

	if (room < NLA_HDRLEN)
		return 0;
	a->nla_type = (uint16_t)(chance(85) ? below(OTATTEST_A_MAX + 3) : rnd() & NLA_TYPE_MASK);
	if (chance(8))
		a->nla_type |= NLA_F_NESTED;
	if (chance(3))
		a->nla_type |= NLA_F_NET_BYTEORDER;
	len = NLA_HDRLEN + payload(p + NLA_HDRLEN, room - NLA_HDRLEN, depth);
	/* Mostly the truth; sometimes a length that runs past the message or short of a header. */
	a->nla_len = (uint16_t)(chance(4) ? below((uint32_t)room + 8) : len);
	return NLA_ALIGN(len) <= room ? NLA_ALIGN(len) : room;
}

static size_t payload(uint8_t *p, size_t room, int depth)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33,
					  63, 64, 65, 128, 255, 256, 1024, 4096 };
	static const uint32_t values[] = { 0, 1, 2, 3, 255, 256, 0x7fffffffu, 0xffffffffu };
	static const char *const names[] = { "otattest0", "otattest1", "otattest00", "", "otattest0\n" };
	size_t len = 0, i;
	uint32_t v;

	switch (below(5)) {
	case 0: /* a number, right-sized for a u32 or not */
		v = chance(70) ? values[below(sizeof(values) / sizeof(values[0]))] : rnd();
		len = (size_t)1 << below(4); /* 1, 2, 4 or 8 bytes */
		len = len < room ? len : room;
		memset(p, 0, len);
		memcpy(p, &v, len < 4 ? len : 4);
		break;
	case 1: { /* a device name, with or without its NUL */
		const char *s = names[below(sizeof(names) / sizeof(names[0]))];

		len = strlen(s) + (chance(70) ? 1 : 0);
		len = len < room ? len : room;
		memcpy(p, s, len);
		break;
	}
	case 2: /* bytes of a telling size (nonces are 16..64) */
		len = sizes[below(sizeof(sizes) / sizeof(sizes[0]))];
		len = len < room ? len : room;
		for (i = 0; i < len; i++)
			p[i] = (uint8_t)rnd();
		break;
	case 3: /* attributes nested where the policy expects none */
		if (depth < 3)
			for (i = below(4) + 1; i > 0 && len < room; i--)
				len += put_attr(p + len, room - len, depth + 1);
		break;
	default: /* nothing */
		break;
	}
	return len;
}

/* An attribute exactly as the policy wants it (payload of len bytes). */
static size_t put_exact(size_t at, uint16_t type, const void *p, size_t len)
{
	struct nlattr *a = (struct nlattr *)(msg + at);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy(msg + at + NLA_HDRLEN, p, len);
	memset(msg + at + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	return NLA_HDRLEN + NLA_ALIGN(len);
}

/*
 * A request the policies let through, mostly: a real command with its
 * selector and the attributes it takes, at sizes on and just off their
 * bounds, sometimes with one stray attribute. These reach the mailbox,
 * so the device's deaths, resets and lies meet requests in flight.
 */
static size_t build_valid(size_t len)
{
	static const uint32_t slots[] = { 0, 1, 0xffffffffu, 2 };
	static const uint32_t nonce_lens[] = { 16, 32, 64, 15, 65 };
	struct genlmsghdr *g = (struct genlmsghdr *)(msg + NLMSG_HDRLEN);
	uint8_t bytes[64 + 1];
	uint32_t v = 0, k;

	g->cmd = (uint8_t)(OTATTEST_CMD_GET_DEVICE + below(OTATTEST_CMD_UPDATE_RESET));
	if (chance(85))
		len += put_exact(len, OTATTEST_A_DEVICE, &v, sizeof(v));
	else
		len += put_exact(len, OTATTEST_A_DEVICE_NAME, "otattest0", 10);
	for (k = 0; k < sizeof(bytes); k++)
		bytes[k] = (uint8_t)rnd();
	switch (g->cmd) {
	case OTATTEST_CMD_ATTEST:
		k = chance(90) ? nonce_lens[below(3)] : nonce_lens[3 + below(2)];
		len += put_exact(len, OTATTEST_A_NONCE, bytes, k);
		break;
	case OTATTEST_CMD_STABLE_SIGN:
		v = below(12);
		len += put_exact(len, OTATTEST_A_SVN, &v, sizeof(v));
		len += put_exact(len, OTATTEST_A_NONCE, bytes, nonce_lens[below(3)]);
		break;
	case OTATTEST_CMD_UPDATE_RESET:
		v = slots[below(4)];
		if (chance(80))
			len += put_exact(len, OTATTEST_A_SLOT, &v, sizeof(v));
		break;
	default:
		break;
	}
	if (chance(20))
		len += put_attr(msg + len, 1024 - len, 0);
	return len;
}

/* One request in msg; returns the bytes to send. */
static size_t build(uint16_t family, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)msg;
	struct genlmsghdr *g = (struct genlmsghdr *)(msg + NLMSG_HDRLEN);
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN, room, count;

	memset(msg, 0, len);
	nlh->nlmsg_type = chance(96) ? family : chance(50) ? GENL_ID_CTRL : (uint16_t)rnd();
	nlh->nlmsg_flags = NLM_F_REQUEST;
	if (chance(50))
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (chance(15))
		nlh->nlmsg_flags |= NLM_F_DUMP;
	if (chance(3))
		nlh->nlmsg_flags |= NLM_F_ECHO;
	if (chance(5))
		nlh->nlmsg_flags |= (uint16_t)(rnd() & 0x0f00); /* NEW/GET modifiers */
	nlh->nlmsg_seq = seq;
	g->cmd = (uint8_t)(chance(85) ? below(OTATTEST_CMD_MAX + 3) : rnd());
	g->version = (uint8_t)(chance(90) ? OTATTEST_GENL_VERSION : rnd());
	if (chance(5))
		g->reserved = (uint16_t)rnd();
	if (chance(40)) {
		g->version = OTATTEST_GENL_VERSION;
		g->reserved = 0;
		nlh->nlmsg_type = family;
		nlh->nlmsg_flags &= (uint16_t)~NLM_F_DUMP;
		len = build_valid(len);
		if (g->cmd == OTATTEST_CMD_GET_DEVICE && chance(50))
			nlh->nlmsg_flags |= NLM_F_DUMP;
		nlh->nlmsg_len = (uint32_t)len;
		return len;
	}
	/* Small messages mostly; a large one now and then. */
	room = (chance(95) ? 1024 : sizeof(msg)) - len;
	for (count = below(7); count > 0 && room >= NLA_HDRLEN; count--) {
		size_t a = put_attr(msg + len, room, 0);

		len += a;
		room -= a;
	}
	nlh->nlmsg_len = (uint32_t)len;
	if (chance(2)) /* a header that lies about the message */
		nlh->nlmsg_len = chance(50) ? below((uint32_t)len) : (uint32_t)len + below(64) + 1;
	return len;
}

static int attr_ok(const struct nlattr *a, void *data)
{
	(void)a;
	(void)data;
	return MNL_CB_OK; /* mnl_attr_parse already checked that it fits */
}

/* Every message of one receive must be well formed. */
static void judge(const uint8_t *p, size_t len, uint16_t family)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
	int left = (int)len;

	while (mnl_nlmsg_ok(nlh, left)) {
		n.replies++;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			int err;

			if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
				n.malformed++;
			} else {
				err = -e->error;
				if (err == 0)
					n.acks++;
				else if (err > 0 && err < MAX_ERRNO)
					n.err[err]++;
				else
					n.malformed++; /* an errno the kernel does not have */
			}
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			n.dumps_done++;
		} else if (nlh->nlmsg_type == family &&
			   (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
			    mnl_attr_parse(nlh, GENL_HDRLEN, attr_ok, NULL) < MNL_CB_STOP)) {
			n.malformed++;
		}
		nlh = mnl_nlmsg_next(nlh, &left);
	}
	if (left != 0)
		n.malformed++; /* bytes that are not a whole message */
}

/* Whatever came back, dumps included (their next part comes on each read). */
static void drain(int fd, uint16_t family)
{
	ssize_t got;

	for (;;) {
		got = recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT);
		if (got < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == ENOBUFS || errno == EINTR)
				continue; /* an overrun lost answers: nothing to judge */
			die("recv");
		}
		judge(rbuf, (size_t)got, family);
	}
}

static int nfiles;
static char files[MAX_FILES][512];

static void sysfs_scan(const char *dir)
{
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		die(dir);
	while ((e = readdir(d)) && nfiles < MAX_FILES) {
		snprintf(files[nfiles], sizeof(files[0]), "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && lstat(files[nfiles], &st) == 0 && S_ISREG(st.st_mode))
			nfiles++;
	}
	closedir(d);
}

/* Read a file whole or from a random offset, or write random bytes to it. */
static void sysfs_poke(void)
{
	uint8_t junk[64];
	const char *f = files[below((uint32_t)nfiles)];
	ssize_t r;
	size_t i, len;
	int fd;

	if (chance(25)) {
		n.sysfs_writes++;
		len = below(sizeof(junk)) + 1;
		for (i = 0; i < len; i++)
			junk[i] = (uint8_t)rnd();
		/* Words a writable file (uevent) acts on, now and then. */
		if (chance(30)) {
			static const char *const words[] = { "add", "change", "remove", "online",
							     "offline", "bind", "unbind", "1", "0" };
			const char *w = words[below(sizeof(words) / sizeof(words[0]))];

			len = strlen(w);
			memcpy(junk, w, len);
		}
		fd = open(f, O_WRONLY | O_NONBLOCK);
		if (fd < 0 || write(fd, junk, len) < 0)
			n.sysfs_write_err++;
		if (fd >= 0)
			close(fd);
		return;
	}
	n.sysfs_reads++;
	fd = open(f, O_RDONLY);
	if (fd < 0) {
		n.sysfs_read_err++;
		return;
	}
	if (chance(30)) {
		if (pread(fd, rbuf, below(8192) + 1, below(8192)) < 0)
			n.sysfs_read_err++;
	} else {
		while ((r = read(fd, rbuf, sizeof(rbuf))) > 0)
			;
		if (r < 0)
			n.sysfs_read_err++;
	}
	close(fd);
}

/* The family's id from the generic netlink controller. */
static int family_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID && mnl_attr_validate(a, MNL_TYPE_U16) == 0)
		*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_reply(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, GENL_HDRLEN, family_attr, data);
}

static uint16_t resolve(struct mnl_socket *sk, uint32_t portid)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msg);
	struct genlmsghdr *g;
	uint16_t id = 0;
	ssize_t got;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, OTATTEST_GENL_NAME);
	if (mnl_socket_sendto(sk, nlh, nlh->nlmsg_len) < 0)
		die("sendto");
	got = mnl_socket_recvfrom(sk, rbuf, sizeof(rbuf));
	if (got < 0 || mnl_cb_run(rbuf, (size_t)got, 1, portid, family_reply, &id) < 0 || !id) {
		fprintf(stderr, "otattest-nlfuzz: family %s is not registered\n", OTATTEST_GENL_NAME);
		exit(EXIT_LOCAL);
	}
	return id;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void report(void)
{
	int e;

	printf("sent=%lu\nsend_errors=%lu\nreplies=%lu\nacks=%lu\ndumps_done=%lu\nmalformed=%lu\n",
	       n.sent, n.send_err, n.replies, n.acks, n.dumps_done, n.malformed);
	for (e = 1; e < MAX_ERRNO; e++)
		if (n.err[e])
			printf("err_%s=%lu\n", strerrorname_np(e) ?: "unknown", n.err[e]);
	printf("sysfs_reads=%lu\nsysfs_read_errors=%lu\nsysfs_writes=%lu\nsysfs_write_errors=%lu\n",
	       n.sysfs_reads, n.sysfs_read_err, n.sysfs_writes, n.sysfs_write_err);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "seconds", required_argument, NULL, 't' },
					      { "seed", required_argument, NULL, 's' },
					      { "sysfs", required_argument, NULL, 'y' },
					      { NULL, 0, NULL, 0 } };
	uint32_t seconds = 0, seed = 1, seq = 1, portid;
	const char *sysfs = NULL;
	struct mnl_socket *sk;
	uint16_t family;
	double end;
	size_t len;
	int c, one = 1;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if ((c == 't' && otu_parse_u32(optarg, OTU_DEC, 1, 86400, &seconds) != 0) ||
		    (c == 's' && otu_parse_u32(optarg, OTU_DEC, 0, UINT32_MAX, &seed) != 0) || c == '?')
			seconds = 0;
		if (c == 'y')
			sysfs = optarg;
	}
	if (!seconds || optind != argc) {
		fprintf(stderr, "usage: otattest-nlfuzz --seconds N [--seed S] [--sysfs DIR]\n");
		return EXIT_USAGE;
	}
	rng = 0x9e3779b97f4a7c15ull ^ seed;
	if (sysfs)
		sysfs_scan(sysfs);
	sk = mnl_socket_open(NETLINK_GENERIC);
	if (!sk || mnl_socket_bind(sk, 0, MNL_SOCKET_AUTOPID) < 0)
		die("netlink socket");
	portid = mnl_socket_get_portid(sk);
	mnl_socket_setsockopt(sk, NETLINK_EXT_ACK, &one, sizeof(one));
	family = resolve(sk, portid);
	printf("family=%u seed=%u seconds=%u sysfs_files=%d\n", family, seed, seconds, nfiles);
	fflush(stdout);

	end = now() + seconds;
	while (now() < end) {
		len = build(family, ++seq);
		if (mnl_socket_sendto(sk, msg, len) < 0)
			n.send_err++;
		n.sent++;
		drain(mnl_socket_get_fd(sk), family);
		if (nfiles && n.sent % 16 == 0)
			sysfs_poke();
	}
	report();
	mnl_socket_close(sk);
	return n.malformed ? EXIT_MALFORMED : 0;
}
