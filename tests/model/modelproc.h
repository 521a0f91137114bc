/* SPDX-License-Identifier: MIT */
/*
 * Run otattest-model as a child process for a test: a fresh directory per
 * model (state, sockets, log), start and wait until ready, talk to its
 * control socket, stop it politely or kill it. In split mode
 * (mp_start_server first) a server process holds the ivshmem socket and
 * mp_start starts device processes that join it.
 */
#ifndef TESTS_MODEL_MODELPROC_H
#define TESTS_MODEL_MODELPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct model_proc {
	pid_t pid;           /* the model; in split mode the device process */
	pid_t server_pid;    /* split mode: the server process; -1 when none */
	char dir[128];       /* owns everything below */
	char state_dir[160];
	char socket[160];
	char device_socket[160]; /* split mode: where device processes join */
	char control[160];
	char log[160];       /* every process's lines, appended */
};

/* Make a fresh directory under $TMPDIR (or /tmp). 0 or -errno. */
int mp_init(struct model_proc *mp);
/* Remove the directory and everything in it. */
void mp_cleanup(struct model_proc *mp);

/*
 * Start the model on mp's state directory with extra arguments (NULL
 * terminated, may be NULL) and wait until its control socket answers.
 * With a server running (mp_start_server) it is a device process joined
 * to it (--connect). Returns 0, or -ETIMEDOUT / -ECHILD (it exited; see
 * the log).
 */
int mp_start(struct model_proc *mp, const char *const *extra_args);

/*
 * Split mode: start 'otattest-model server' on mp's ivshmem socket and
 * device socket, and wait until the device socket exists (the server
 * listens on both then). 0, -ETIMEDOUT or -ECHILD.
 */
int mp_start_server(struct model_proc *mp, const char *const *extra_args);
/* SIGTERM the server and wait up to timeout_ms: its wait status or -ETIMEDOUT. */
int mp_stop_server(struct model_proc *mp, int timeout_ms);

/* One control request; reply without the newline. 0 or -errno. */
int mp_ctl(struct model_proc *mp, const char *request, char *reply, size_t cap);
/* The value of key=value in a reply; false when absent. */
bool mp_reply_value(const char *reply, const char *key, char *out, size_t cap);
/* mp_ctl("status") and return one numeric field, or -1. */
long long mp_status_num(struct model_proc *mp, const char *key);

/* SIGTERM, then wait up to timeout_ms. Returns the wait status or -ETIMEDOUT. */
int mp_stop(struct model_proc *mp, int timeout_ms);
/* SIGKILL and reap (the model, or the device process: never the server). */
void mp_kill(struct model_proc *mp);
/* Wait for the child to exit on its own. Returns the wait status or -ETIMEDOUT. */
int mp_wait(struct model_proc *mp, int timeout_ms);

/* How many lines of the model's log contain needle. */
int mp_log_count(const struct model_proc *mp, const char *needle);

/* The otattest-model binary ($OTATTEST_MODEL, else the build's). */
const char *mp_binary(void);

#endif /* TESTS_MODEL_MODELPROC_H */
