// SPDX-License-Identifier: MIT
/* Server side of the ivshmem protocol; see ivshmem_proto.h. */
#include "ivshmem_proto.h"

#include <endian.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

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
