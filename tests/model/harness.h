/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the model suites: a model child with a guest peer
 * joined to it, assertions on control replies, and the suite runner that
 * prints check's summary and the project's "N passed, N failed" line.
 */
#ifndef TESTS_MODEL_HARNESS_H
#define TESTS_MODEL_HARNESS_H

#include <check.h>

#include "devclient.h"
#include "modelproc.h"

#define MBOX_TIMEOUT_MS 5000
#define CONNECT_TIMEOUT_MS 5000

struct rig {
	struct model_proc mp;
	struct devc dev;
	bool joined;
	bool provisioned;
};

/*
 * Start a model (on a blank device, or on the fixture's provisioned one
 * when provision is true: see fixture.h) and join it as the guest. Extra model arguments
 * may be NULL. Fails the test on any error.
 */
void rig_up(struct rig *r, bool provision, const char *const *extra_args);
/* Join (again) as the guest after rig_leave. */
void rig_join(struct rig *r);
void rig_leave(struct rig *r);
void rig_down(struct rig *r);

/* A control request that must succeed; the reply goes to reply. */
void rig_ctl_ok(struct rig *r, const char *request, char *reply, size_t cap);
/* A control request whose reply must start with want_prefix ("error USAGE ", say). */
void rig_ctl_expect(struct rig *r, const char *request, const char *want_prefix);
/* A numeric field of "status". */
long long rig_status(struct rig *r, const char *key);
/* Wait until a status field has the given text value (or fail after ms). */
void rig_wait_status(struct rig *r, const char *key, const char *value, int ms);

/* One well-formed mailbox call that must come back; returns the device's status. */
ota_status_t rig_call(struct rig *r, uint32_t command, const void *req, uint32_t req_len,
		      void *resp, uint32_t cap, uint32_t *resp_len);
/* The record region, which must read consistently and validate. */
uint32_t rig_record(struct rig *r, struct ota_record *out);

/*
 * Run the suite in CK_FORK mode and print both summary lines; exit code.
 * needs_fixture: provision the test device first (fixture.h).
 */
int harness_run(Suite *s, bool needs_fixture);



/*
 * A flash image holding only a valid layout (no images): enough for the
 * model's install request and the flash fault knobs on an unprovisioned
 * device. Slots are slot_pages pages each. Returns 0 or -errno.
 */
int write_layout_only_flash(const char *path, uint32_t slot_pages);
/* The flash offset of a slot in that layout. */
uint32_t layout_slot_offset(uint32_t stage, uint32_t slot, uint32_t slot_pages);

/* Run a shell command line; its exit status (or -1 when it did not exit). */
int shell_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif /* TESTS_MODEL_HARNESS_H */
