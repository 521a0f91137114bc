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

#include "ctl.h"
#include "parse.h"

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

static void json_string(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
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

/* "ok k=v k=v" -> {"ok":true,"k":"v",...}; "error NAME msg" -> {"ok":false,...}. */
static void print_json(const char *reply)
{
	const char *p;

	if (strncmp(reply, "error ", 6) == 0) {
		const char *name = reply + 6, *sp = strchr(name, ' ');

		fputs("{\"ok\":false,\"error\":", stdout);
		json_string(stdout, name, sp ? (size_t)(sp - name) : strlen(name));
		fputs(",\"message\":", stdout);
		json_string(stdout, sp ? sp + 1 : "", sp ? strlen(sp + 1) : 0);
		fputs("}\n", stdout);
		return;
	}
	fputs("{\"ok\":true", stdout);
	p = reply + 2;
	while (*p) {
		const char *word, *eq, *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		word = p;
		end = strchr(word, ' ');
		if (!end)
			end = word + strlen(word);
		eq = memchr(word, '=', (size_t)(end - word));
		fputc(',', stdout);
		if (eq) {
			json_string(stdout, word, (size_t)(eq - word));
			fputc(':', stdout);
			if (all_digits(eq + 1, (size_t)(end - eq - 1)))
				fwrite(eq + 1, 1, (size_t)(end - eq - 1), stdout);
			else
				json_string(stdout, eq + 1, (size_t)(end - eq - 1));
		} else {
			json_string(stdout, word, (size_t)(end - word));
			fputs(":true", stdout);
		}
		p = end;
	}
	fputs("}\n", stdout);
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
			if (!parse_u32(optarg, 86400, &timeout_s) || timeout_s == 0)
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
