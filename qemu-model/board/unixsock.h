/* SPDX-License-Identifier: MIT */
/* Listening UNIX stream sockets for the ivshmem server and the control socket. */
#ifndef MODEL_UNIXSOCK_H
#define MODEL_UNIXSOCK_H

#include <stdbool.h>

/*
 * Bind and listen on path, non-blocking and close-on-exec. A stale socket
 * left by a killed model is replaced; a socket some live process still
 * accepts on is not (-EADDRINUSE), nor is anything that is not a socket
 * (-EEXIST). Returns the fd or -errno.
 */
int unix_listen(const char *path, int backlog);

/*
 * The same for a socket only its owner may use: mode 0600 whatever the
 * umask (set between bind and listen, before anyone can connect).
 */
int unix_listen_private(const char *path, int backlog);

/*
 * Whether the peer of a connected socket is this process's user or root,
 * by the kernel's SO_PEERCRED (not anything the peer says).
 */
bool unix_peer_is_owner(int fd);

/* Accept one connection, non-blocking and close-on-exec; fd or -errno. */
int unix_accept(int listen_fd);

#endif /* MODEL_UNIXSOCK_H */
