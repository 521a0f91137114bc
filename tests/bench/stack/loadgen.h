/* SPDX-License-Identifier: MIT */
/*
 * otattest-loadgen: the client side of `make bench-stack` and `make soak`.
 * It runs inside the QEMU guest next to otattestd and tpm2-abrmd and drives
 * them the way real clients do: one D-Bus connection per client through
 * sd-bus, one TSS2 ESAPI context per client through the tabrmd TCTI.
 *
 * An op is one request of one kind (a D-Bus Ping, a property read, an
 * Attest, a TPM2_Quote, ...). Each client thread owns its connection or
 * context, set up before the clock starts, so set-up never shows in a
 * latency.
 */
#ifndef OTATTEST_LOADGEN_H
#define OTATTEST_LOADGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-bus.h>

/* ---- ops ---------------------------------------------------------------- */

/* Per-client state; each op family uses its own part. */
struct lg_client {
	unsigned index;
	sd_bus *bus;       /* D-Bus ops: the client's own connection */
	void *tpm;         /* TPM ops: struct lg_tpm (ops_tpm.c) */
	/* The last failure, for error accounting (a D-Bus error name, or
	 * a TSS2 response code as "tss2:0x...", or a local reason). */
	char err_name[128];
	char err_msg[256];
	/* Attest's evidence and the nonce it was asked for, kept for the
	 * soak's verification. */
	uint8_t nonce[32];
	uint8_t *evidence;
	size_t evidence_len;
};

enum lg_family { LG_FAMILY_BUS, LG_FAMILY_TPM };

struct lg_op {
	const char *name;
	const char *what; /* one line for --help and the report */
	enum lg_family family;
	/* One request; 0 on success, -1 with err_name/err_msg set. */
	int (*run)(struct lg_client *c);
};

const struct lg_op *lg_op_find(const char *name);
extern const struct lg_op lg_ops[];
extern const size_t lg_op_count;

/* Connection set-up per family; 0 or -1 with a message on stderr. */
int lg_bus_open(struct lg_client *c);
void lg_bus_close(struct lg_client *c);
int lg_tpm_open(struct lg_client *c);
void lg_tpm_close(struct lg_client *c);

/* Make the persistent attestation key the quote op uses (once, as root). */
int lg_tpm_setup(void);

/* The ops (D-Bus ones also make up the soak's mix). */
int lg_op_ping(struct lg_client *c);
int lg_op_property(struct lg_client *c);
int lg_op_stages(struct lg_client *c);
int lg_op_record(struct lg_client *c);
int lg_op_attest(struct lg_client *c);
int lg_op_rotate(struct lg_client *c);
int lg_op_tpm_quote(struct lg_client *c);
int lg_op_tpm_pcrread(struct lg_client *c);

/* ---- measurement -------------------------------------------------------- */

uint64_t lg_now_ns(void);

/* A growable list of latencies in nanoseconds. */
struct lg_lat {
	uint64_t *ns;
	size_t n, cap;
};
void lg_lat_add(struct lg_lat *l, uint64_t ns);
void lg_lat_merge(struct lg_lat *into, const struct lg_lat *from);
void lg_lat_free(struct lg_lat *l);
/* Sorts in place; q in [0, 1]; nearest-rank. */
uint64_t lg_lat_quantile(struct lg_lat *l, double q);

/* Resident set size of a process in KiB, or 0 when it cannot be read. */
uint64_t lg_rss_kib(uint32_t pid);
/* CPU time (user + system) in ns: of a process, of this process, of the
 * whole machine (everything but idle). */
uint64_t lg_proc_cpu_ns(uint32_t pid);
uint64_t lg_self_cpu_ns(void);
uint64_t lg_system_busy_ns(void);
/* The pid owning a bus name, or 0. */
uint32_t lg_bus_name_pid(sd_bus *bus, const char *name);

/* ---- modes -------------------------------------------------------------- */

struct lg_bench_args {
	const struct lg_op *op;
	unsigned clients;
	double seconds, warmup;
	const char *rss_name; /* bus name whose owner's RSS is sampled */
	uint32_t bus_pid;     /* the bus daemon, for its CPU time; 0: unknown */
	const char *label;
};
int lg_bench_run(const struct lg_bench_args *a);

struct lg_soak_args {
	unsigned clients;
	double seconds;
	const char *ca_path;
	const char *role; /* "readers" or "rotator" */
	double rotate_every;
	double think_min, think_max; /* readers: seconds between requests; 0: defaults */
	unsigned rss_growth_max_kib;
	const char *out_path;
};
int lg_soak_run(const struct lg_soak_args *a);

/* Wait for a D-Bus name to have an owner, up to secs. */
int lg_bus_wait_name(const char *name, double secs);

#endif /* OTATTEST_LOADGEN_H */
