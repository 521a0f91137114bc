/* SPDX-License-Identifier: MIT */
/*
 * otattest-verify --batch: many evidences against one trust store and
 * policy, on every CPU (batch.c).
 */
#ifndef OTATTEST_VERIFY_BATCH_H
#define OTATTEST_VERIFY_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otattest/verify.h>

struct vb_options {
	const struct ota_trust *ca;
	const struct ota_policy *policy;
	/* One nonce for every evidence (a fleet-wide round), or NULL. */
	const uint8_t *nonce;
	size_t nonce_len;
	/* Each evidence's nonce (hex) and boot record in files beside it. */
	bool nonce_files, record_files;
	bool json, quiet;
	unsigned int jobs; /* worker threads; 0: one per online CPU */
	/* Evidence files, directories of them, or "-": paths on standard input. */
	char *const *inputs;
	int input_count;
};

/*
 * Verify every evidence, print one verdict line (or JSON object) each in
 * input order, and a summary on stderr. Returns the exit status: 0 when
 * every evidence passed, OTA_EXIT_VERDICT_FAILED when one failed or could
 * not be used.
 */
int vb_run(const struct vb_options *o);

#endif /* OTATTEST_VERIFY_BATCH_H */
