// SPDX-License-Identifier: MIT
/*
 * 'otattest-model ctl': a client for the control socket, so shell scripts
 * need neither socat nor python. The words after the options are joined
 * into one request line; the reply is printed as it came, or with --json
 * as one JSON object. The exit code says what happened: 0 ok, 2 usage,
 * else the exit code of the status class the model named.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <otattest/status.h>
#include <otu/json.h>
#include <otu/num.h>

#include "ctl.h"

#define CTL_REPLY_MAX 4096u

static int status_exit(ota_status_t st)
{
	return ota_class_exit_code(ota_status_class(st));
}

/* The status a reply's NAME stands for; false when NAME is none of ours. */
static bool status_by_name(const char *name, ota_status_t *out)
{
	static const struct {
		const char *name;
		ota_status_t value;
	} table[] = {
#define OTA_X_STATUS_ROW(n, cls, mod, idx, msg) { #n, OTA_##n },
		OTA_STATUS_LIST(OTA_X_STATUS_ROW)
#undef OTA_X_STATUS_ROW
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(table[i].name, name) == 0) {
			*out = table[i].value;
			return true;
		}
	}
	return false;
}

static bool all_digits(const char *s, size_t len)
{
	if (len == 0 || len > 18 || (len > 1 && s[0] == '0'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* One "k=v" or "flag" word of an ok reply as a member: digits as a number. */
static void add_word(struct json_object *doc, const char *word, size_t len)
{
	const char *eq = memchr(word, '=', len);
	size_t key_len = eq ? (size_t)(eq - word) : len;
	char *key = strndup(word, key_len), *digits;
	struct json_object *value;
	uint64_t n;

	if (!key)
		return;
	if (!eq) {
		value = json_object_new_boolean(1);
	} else if (all_digits(eq + 1, len - key_len - 1) &&
		   (digits = strndup(eq + 1, len - key_len - 1)) != NULL) {
		/* all_digits allows 18 digits at most: always an exact int64. */
		value = otu_parse_u64(digits, OTU_DEC, 0, INT64_MAX, &n) == 0
				? json_object_new_int64((int64_t)n)
				: otu_json_string(digits);
		free(digits);
	} else {
		value = otu_json_string_len(eq + 1, len - key_len - 1);
	}
	json_object_object_add(doc, key, value);
	free(key);
}

/* "ok k=v k=v" -> {"ok":true,"k":"v",...}; "error NAME msg" -> {"ok":false,...}. */
static void print_json(const char *reply)
{
	struct json_object *doc = json_object_new_object();
	const char *p;

	if (strncmp(reply, "error ", 6) == 0) {
		const char *name = reply + 6, *sp = strchr(name, ' ');

		otu_json_add_bool(doc, "ok", false);
		json_object_object_add(doc, "error",
				       otu_json_string_len(name, sp ? (size_t)(sp - name) : strlen(name)));
		otu_json_add_str(doc, "message", sp ? sp + 1 : "");
		otu_json_emit(stdout, doc);
		return;
	}
	otu_json_add_bool(doc, "ok", true);
	p = reply + 2;
	while (*p) {
		const char *word, *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		word = p;
		end = strchr(word, ' ');
		if (!end)
			end = word + strlen(word);
		add_word(doc, word, (size_t)(end - word));
		p = end;
	}
	otu_json_emit(stdout, doc);
}

static int connect_control(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char ctl_synopsis[] =
	"usage: otattest-model ctl [--json] [--timeout=SEC] (--control=PATH | --state-dir=DIR) "
	"REQUEST...\n"
	"Sends one control request and prints the reply (default timeout 120 s).\n"
	"See 'otattest-model --help', CONTROL PROTOCOL, for the requests.\n";

static int ctl_usage(const char *why)
{
	fprintf(stderr, "otattest-model ctl: %s\n%s", why, ctl_synopsis);
	return OTA_EXIT_USAGE;
}

int ctl_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "control", required_argument, NULL, 'c' },
		{ "state-dir", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char path[4096], line[4096], reply[CTL_REPLY_MAX];
	const char *control = NULL, *state_dir = NULL;
	size_t used = 0, got = 0;
	uint32_t timeout_s = 120;
	bool json = false;
	int64_t deadline;
	ota_status_t st;
	int c, fd;

	while ((c = getopt_long(argc, argv, "c:d:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			control = optarg;
			break;
		case 'd':
			state_dir = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 't':
			if (otu_parse_u32(optarg, OTU_DEC_OR_HEX, 1, 86400, &timeout_s) < 0)
				return ctl_usage("--timeout needs 1..86400 seconds");
			break;
		case 'h':
			fputs(ctl_synopsis, stdout);
			return 0;
		default:
			return ctl_usage("bad option");
		}
	}
	if (!control && !state_dir)
		return ctl_usage("give --control=PATH or --state-dir=DIR");
	if (optind >= argc)
		return ctl_usage("no request");
	if (!control) {
		snprintf(path, sizeof(path), "%s/control.sock", state_dir);
		control = path;
	}
	for (int i = optind; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (used + len + 2 > sizeof(line))
			return ctl_usage("request too long");
		if (i > optind)
			line[used++] = ' ';
		memcpy(line + used, argv[i], len);
		used += len;
	}
	line[used++] = '\n';

	fd = connect_control(control);
	if (fd < 0) {
		fprintf(stderr, "otattest-model ctl: %s: %s\n", control, strerror(-fd));
		return status_exit(OTA_HOST_NO_DEVICE);
	}
	if (send(fd, line, used, MSG_NOSIGNAL) != (ssize_t)used) {
		fprintf(stderr, "otattest-model ctl: send: %s\n", strerror(errno));
		close(fd);
		return status_exit(OTA_HOST_DEVICE_GONE);
	}
	deadline = now_ms() + (int64_t)timeout_s * 1000;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
			fprintf(stderr, "otattest-model ctl: no reply in %u s\n", timeout_s);
			close(fd);
			return status_exit(OTA_HOST_TIMEOUT);
		}
		n = recv(fd, reply + got, sizeof(reply) - 1 - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "otattest-model ctl: the model closed the connection\n");
			close(fd);
			return status_exit(OTA_HOST_DEVICE_GONE);
		}
		got += (size_t)n;
		reply[got] = '\0';
		if (strchr(reply, '\n') || got == sizeof(reply) - 1)
			break;
	}
	close(fd);
	reply[strcspn(reply, "\n")] = '\0';

	if (json)
		print_json(reply);
	else
		puts(reply);
	if (strncmp(reply, "ok", 2) == 0 && (reply[2] == '\0' || reply[2] == ' '))
		return 0;
	if (strncmp(reply, "error usage", 11) == 0)
		return OTA_EXIT_USAGE;
	if (strncmp(reply, "error ", 6) == 0) {
		char name[64];

		if (sscanf(reply + 6, "%63s", name) == 1 && status_by_name(name, &st))
			return status_exit(st);
	}
	return status_exit(OTA_HOST_PROTOCOL);
}
