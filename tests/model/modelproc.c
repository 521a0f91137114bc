// SPDX-License-Identifier: MIT
/* Model child processes for tests; see modelproc.h. */
#include "modelproc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <otu/num.h>

#ifndef OTA_MODEL_PATH
#define OTA_MODEL_PATH "build/otattest-model"
#endif

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *mp_binary(void)
{
	const char *env = getenv("OTATTEST_MODEL");

	return env && *env ? env : OTA_MODEL_PATH;
}

int mp_init(struct model_proc *mp)
{
	const char *tmp = getenv("TMPDIR");

	memset(mp, 0, sizeof(*mp));
	mp->pid = -1;
	mp->server_pid = -1;
	snprintf(mp->dir, sizeof(mp->dir), "%s/otamodel.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(mp->dir))
		return -errno;
	snprintf(mp->state_dir, sizeof(mp->state_dir), "%s/state", mp->dir);
	snprintf(mp->socket, sizeof(mp->socket), "%s/ivshmem.sock", mp->dir);
	snprintf(mp->device_socket, sizeof(mp->device_socket), "%s/device.sock", mp->dir);
	snprintf(mp->control, sizeof(mp->control), "%s/control.sock", mp->dir);
	snprintf(mp->log, sizeof(mp->log), "%s/model.log", mp->dir);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void reap(pid_t *pid, int sig)
{
	if (*pid <= 0)
		return;
	kill(*pid, sig);
	waitpid(*pid, NULL, 0);
	*pid = -1;
}

void mp_cleanup(struct model_proc *mp)
{
	reap(&mp->pid, SIGKILL);
	reap(&mp->server_pid, SIGKILL);
	if (mp->dir[0] && !getenv("OTATTEST_KEEP"))
		nftw(mp->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int connect_control(const struct model_proc *mp)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, mp->control, strlen(mp->control));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

/* Fork and exec argv with stdout and stderr appended to the log. */
static pid_t spawn(const struct model_proc *mp, const char *const *argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(mp->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

int mp_start_server(struct model_proc *mp, const char *const *extra_args)
{
	const char *argv[32];
	unsigned n = 0;
	int64_t deadline;
	struct stat st;

	argv[n++] = mp_binary();
	argv[n++] = "server";
	argv[n++] = "--socket";
	argv[n++] = mp->socket;
	argv[n++] = "--device-socket";
	argv[n++] = mp->device_socket;
	argv[n++] = "--log-level=debug";
	for (unsigned i = 0; extra_args && extra_args[i] && n < 31; i++)
		argv[n++] = extra_args[i];
	argv[n] = NULL;
	mp->server_pid = spawn(mp, argv);
	if (mp->server_pid < 0)
		return -errno;
	/* The device socket is made last: both sockets listen once it is there. */
	deadline = now_ms() + 10000;
	while (now_ms() < deadline) {
		int status;

		if (waitpid(mp->server_pid, &status, WNOHANG) == mp->server_pid) {
			mp->server_pid = -1;
			return -ECHILD;
		}
		if (lstat(mp->device_socket, &st) == 0 && S_ISSOCK(st.st_mode))
			return 0;
		usleep(2000);
	}
	return -ETIMEDOUT;
}

static int wait_child(pid_t *pid, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int status;

	if (*pid <= 0)
		return -ECHILD;
	while (now_ms() < deadline) {
		if (waitpid(*pid, &status, WNOHANG) == *pid) {
			*pid = -1;
			return status;
		}
		usleep(1000);
	}
	return -ETIMEDOUT;
}

int mp_stop_server(struct model_proc *mp, int timeout_ms)
{
	int r;

	if (mp->server_pid <= 0)
		return -ECHILD;
	kill(mp->server_pid, SIGTERM);
	r = wait_child(&mp->server_pid, timeout_ms);
	if (r == -ETIMEDOUT)
		reap(&mp->server_pid, SIGKILL);
	return r;
}

int mp_start(struct model_proc *mp, const char *const *extra_args)
{
	char connect_arg[200];
	const char *argv[64];
	unsigned n = 0;
	int64_t deadline;
	char reply[512];

	argv[n++] = mp_binary();
	argv[n++] = "--state-dir";
	argv[n++] = mp->state_dir;
	if (mp->server_pid > 0) {
		/* A device process: the server has the ivshmem socket. */
		snprintf(connect_arg, sizeof(connect_arg), "--connect=%s", mp->device_socket);
		argv[n++] = connect_arg;
	} else {
		argv[n++] = "--socket";
		argv[n++] = mp->socket;
	}
	argv[n++] = "--control";
	argv[n++] = mp->control;
	argv[n++] = "--no-fsync";
	argv[n++] = "--log-level=debug";
	for (unsigned i = 0; extra_args && extra_args[i] && n < 63; i++)
		argv[n++] = extra_args[i];
	argv[n] = NULL;

	mp->pid = spawn(mp, argv);
	if (mp->pid < 0)
		return -errno;
	/* Ready is when the control socket answers. */
	deadline = now_ms() + 20000;
	while (now_ms() < deadline) {
		int status;

		if (waitpid(mp->pid, &status, WNOHANG) == mp->pid) {
			mp->pid = -1;
			return -ECHILD;
		}
		if (mp_ctl(mp, "status", reply, sizeof(reply)) == 0)
			return 0;
		usleep(2000);
	}
	return -ETIMEDOUT;
}

int mp_ctl(struct model_proc *mp, const char *request, char *reply, size_t cap)
{
	char line[4200];
	size_t got = 0, len = (size_t)snprintf(line, sizeof(line), "%s\n", request);
	int64_t deadline = now_ms() + 120000;
	int fd = connect_control(mp);

	if (fd < 0)
		return fd;
	if (send(fd, line, len, MSG_NOSIGNAL) != (ssize_t)len) {
		close(fd);
		return -EPIPE;
	}
	while (got + 1 < cap) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, (int)(deadline - now_ms())) <= 0)
			break;
		n = recv(fd, reply + got, cap - 1 - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
		reply[got] = '\0';
		if (memchr(reply, '\n', got))
			break;
	}
	close(fd);
	reply[got] = '\0';
	if (!memchr(reply, '\n', got))
		return -EPIPE;
	reply[strcspn(reply, "\n")] = '\0';
	return 0;
}

bool mp_reply_value(const char *reply, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);
	const char *p = reply;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == reply || p[-1] == ' ') && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t vlen = strcspn(v, " ");

			if (vlen >= cap)
				return false;
			memcpy(out, v, vlen);
			out[vlen] = '\0';
			return true;
		}
		p += klen;
	}
	return false;
}

long long mp_status_num(struct model_proc *mp, const char *key)
{
	char reply[2048], value[64];
	uint64_t n;

	if (mp_ctl(mp, "status", reply, sizeof(reply)) < 0 ||
	    !mp_reply_value(reply, key, value, sizeof(value)) ||
	    otu_parse_u64(value, OTU_DEC, 0, INT64_MAX, &n) < 0)
		return -1;
	return (long long)n;
}

int mp_wait(struct model_proc *mp, int timeout_ms)
{
	return wait_child(&mp->pid, timeout_ms);
}

int mp_stop(struct model_proc *mp, int timeout_ms)
{
	int r;

	if (mp->pid <= 0)
		return -ECHILD;
	kill(mp->pid, SIGTERM);
	r = mp_wait(mp, timeout_ms);
	if (r == -ETIMEDOUT)
		mp_kill(mp);
	return r;
}

void mp_kill(struct model_proc *mp)
{
	reap(&mp->pid, SIGKILL);
}

int mp_log_count(const struct model_proc *mp, const char *needle)
{
	char line[2048];
	int count = 0;
	FILE *f = fopen(mp->log, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			count++;
	fclose(f);
	return count;
}
