/* SPDX-License-Identifier: MIT */
/* Listening UNIX stream sockets for the ivshmem server and the control socket. */
#ifndef MODEL_UNIXSOCK_H
#define MODEL_UNIXSOCK_H

/*
 * Bind and listen on path, non-blocking and close-on-exec. A stale socket
 * left by a killed model is replaced; a socket some live process still
 * accepts on is not (-EADDRINUSE), nor is anything that is not a socket
 * (-EEXIST). Returns the fd or -errno.
 */
int unix_listen(const char *path, int backlog);

/* Accept one connection, non-blocking and close-on-exec; fd or -errno. */
int unix_accept(int listen_fd);

#endif /* MODEL_UNIXSOCK_H */
