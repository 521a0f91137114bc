/* SPDX-License-Identifier: MIT */
/*
 * Runtime (BL0) internals: the command handlers behind ota_runtime_command
 * and ota_runtime_resume. The runtime reads what ROM_EXT handed over
 * (handoff.h) and uses the shared checks (fwlib.h) for its pre-checks; it
 * never runs an earlier stage's code.
 */
#ifndef OTATTEST_FW_RUNTIME_H
#define OTATTEST_FW_RUNTIME_H

#include <otattest/evidence.h>
#include <otattest/flash.h>

#include "../lib/fwlib.h"

/*
 * The stable ECDSA key of SVN `svn`, derived from the retained chain link
 * of min_svn by cranking it down. CHAIN_SVN_ABOVE_MAX when svn is above
 * the chain's length, CHAIN_SVN_ABOVE_MIN when svn > min_svn,
 * CHAIN_NOT_READY when no chain was established since cold boot. The
 * caller destroys the returned handle.
 */
ota_status_t ota_keychain_stable_key(uint32_t svn, hal_key_t *out);

/* Command handlers: request already copied out and validated. */
ota_status_t ota_rt_attest(const struct ota_boot_state *bs, const struct ota_runtime *rt,
			   const uint8_t *nonce, uint32_t nonce_len,
			   uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);
ota_status_t ota_rt_get_certs(const struct ota_runtime *rt, uint8_t *resp, uint32_t resp_cap,
			      uint32_t *resp_len);
ota_status_t ota_rt_stable_sign(const struct ota_req_stable_sign *req, uint8_t *resp,
				uint32_t resp_cap, uint32_t *resp_len);
/* Personalization, manufacturing lifecycle state only (personalize.c). */
ota_status_t ota_rt_get_identity_csr(const struct ota_boot_state *bs,
				     const struct ota_runtime *rt, uint8_t *resp,
				     uint32_t resp_cap, uint32_t *resp_len);
ota_status_t ota_rt_set_identity_cert(const struct ota_boot_state *bs,
				      const struct ota_runtime *rt,
				      const struct ota_req_set_identity_cert *req);

/*
 * Reset requests (reset_request.c). Each pre-checks on the slow path
 * without the key manager - an update target that would not boot, a
 * rotation some valid image could not take - and refuses with nothing
 * changed; otherwise it records the one-shot request in retention RAM and
 * asks the reset manager for the reset; a refusal fills *out. The *_done
 * functions answer after the boot that followed.
 */
ota_status_t ota_rt_update_request(uint32_t slot, struct ota_resp_reset *out);
ota_status_t ota_rt_update_done(uint32_t slot, struct ota_resp_reset *out);
ota_status_t ota_rt_warm_request(struct ota_resp_reset *out);
ota_status_t ota_rt_warm_done(struct ota_resp_reset *out);
ota_status_t ota_rt_rotate_request(struct ota_resp_rotate *out);
ota_status_t ota_rt_rotate_done(struct ota_resp_rotate *out);

/*
 * Installing an image (install.c): request already validated. BEGIN opens
 * the session, CHUNK stages bytes in RAM, FINISH checks the whole image
 * for its slot and, unless a dry run, writes it.
 */
ota_status_t ota_rt_install_begin(const struct ota_req_install_begin *req,
				  struct ota_resp_install *out);
ota_status_t ota_rt_install_chunk(const struct ota_req_install_chunk *req,
				  struct ota_resp_install *out);
ota_status_t ota_rt_install_finish(struct ota_resp_install_finish *out);

/*
 * COMMIT, RATCHET, REVOKE (boot_svc.c): check, then leave the request for
 * ROM_EXT and ask for a warm reset (OTA_OK, *answered false: no answer yet), or
 * answer at once with *out filled and *answered true (a refusal, or OTA_OK when
 * there is nothing to do). The request argument of the command is the one
 * used. _done answers after the boot.
 */
ota_status_t ota_rt_svc_request(uint32_t command, const struct ota_req_commit *commit,
				const struct ota_req_ratchet *ratchet,
				const struct ota_revocation *rev,
				const struct ota_revocation_hybrid *hybrid,
				struct ota_resp_boot_svc *out, bool *answered);
ota_status_t ota_rt_svc_done(uint32_t command, struct ota_resp_boot_svc *out);

/* GET_INFO (info.c): the version string compiled into this runtime. */
ota_status_t ota_rt_get_info(struct ota_resp_info *out);

#endif /* OTATTEST_FW_RUNTIME_H */
