// SPDX-License-Identifier: MIT
/* One ivshmem protocol message each way; see ivshmem_proto.h. */
#include "ivshmem_proto.h"

#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* How long the rest of a message may take once its first bytes are in. */
#define IVSHMEM_REST_TIMEOUT_MS 1000

int ivshmem_send(int sock, int64_t value, int fd)
{
	uint64_t le = htole64((uint64_t)value);
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *cmsg;

		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	do {
		n = sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != sizeof(le))
		return -EMSGSIZE;
	return 0;
}

int ivshmem_send_greeting(int sock, uint32_t client_id, int shm_fd, uint32_t other_id,
			  const int *other_fds, const int *own_fds, unsigned vectors)
{
	int r;

	r = ivshmem_send(sock, IVSHMEM_PROTOCOL_VERSION, -1);
	if (r < 0)
		return r;
	r = ivshmem_send(sock, client_id, -1);
	if (r < 0)
		return r;
	r = ivshmem_send(sock, IVSHMEM_SHM_MARKER, shm_fd);
	if (r < 0)
		return r;
	for (unsigned v = 0; other_fds && v < vectors; v++) {
		r = ivshmem_send(sock, other_id, other_fds[v]);
		if (r < 0)
			return r;
	}
	for (unsigned v = 0; v < vectors; v++) {
		r = ivshmem_send(sock, client_id, own_fds[v]);
		if (r < 0)
			return r;
	}
	return 0;
}

int ivshmem_recv(int sock, int timeout_ms, int64_t *value, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	uint64_t le;
	size_t got = 0;
	int err;

	*fd = -1;
	while (got < sizeof(le)) {
		struct iovec iov = { .iov_base = (char *)&le + got, .iov_len = sizeof(le) - got };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = control.buf,
				      .msg_controllen = sizeof(control.buf) };
		struct cmsghdr *cmsg;
		ssize_t n;
		/* A message is sent whole; the rest of a split one is due at once. */
		int r = poll(&pfd, 1, got ? IVSHMEM_REST_TIMEOUT_MS : timeout_ms);

		if (r == 0) {
			err = got ? EPROTO : ETIMEDOUT;
			goto fail;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			goto fail;
		}
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			err = errno;
			goto fail;
		}
		if (n == 0) {
			if (*fd >= 0)
				close(*fd);
			*fd = -1;
			return got ? -EPROTO : 0;
		}
		for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
			int passed;

			if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
			    cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
				continue;
			memcpy(&passed, CMSG_DATA(cmsg), sizeof(int));
			if (*fd < 0)
				*fd = passed;
			else
				close(passed); /* one fd per message */
		}
		got += (size_t)n;
	}
	*value = (int64_t)le64toh(le);
	return 1;

fail:
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return -err;
}
