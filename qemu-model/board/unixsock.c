// SPDX-License-Identifier: MIT
/* Listening UNIX sockets; see unixsock.h. */
#include "unixsock.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int fill_addr(struct sockaddr_un *sa, const char *path)
{
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, len);
	return 0;
}

/* True when some process accepts connections on the socket at path. */
static bool socket_alive(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool alive;

	if (fd < 0)
		return false;
	alive = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0;
	close(fd);
	return alive;
}

static int listen_mode(const char *path, int backlog, mode_t mode);

int unix_listen(const char *path, int backlog)
{
	return listen_mode(path, backlog, 0);
}

int unix_listen_private(const char *path, int backlog)
{
	return listen_mode(path, backlog, 0600);
}

bool unix_peer_is_owner(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || len != sizeof(cred))
		return false;
	return cred.uid == 0 || cred.uid == geteuid();
}

/* mode 0: what the umask leaves. */
static int listen_mode(const char *path, int backlog, mode_t mode)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd, r;

	r = fill_addr(&sa, path);
	if (r < 0)
		return r;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		if (socket_alive(&sa))
			return -EADDRINUSE;
		if (unlink(path) < 0 && errno != ENOENT)
			return -errno;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0 || (mode && chmod(path, mode) < 0) ||
	    listen(fd, backlog) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

int unix_accept(int listen_fd)
{
	int fd;

	do {
		fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	} while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}
