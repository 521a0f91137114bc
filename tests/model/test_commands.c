// SPDX-License-Identifier: MIT
/*
 * A provisioned device (fixture.h) behind the model: every mailbox
 * command round-trips, every change of the device moves the record
 * generation and is announced on the event vector, and the state survives
 * model restarts. Signatures are checked with OpenSSL directly, not with
 * the code that made them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include <otattest/sha256.h>
#include <otu/file.h>
#include <otattest/verify.h>

#include "fixture.h"
#include "harness.h"

static struct rig rig;

static void setup(void)
{
	rig_up(&rig, true, NULL);
}

static void teardown(void)
{
	rig_down(&rig);
}

static void ctl(const char *request, char *reply, size_t cap)
{
	rig_ctl_ok(&rig, request, reply, cap);
}

/* ECDSA P-256 verify of a raw r||s over a digest with a raw X||Y key, by OpenSSL. */
static bool p256_verify(const uint8_t pub[64], const uint8_t digest[32], const uint8_t sig[64])
{
	uint8_t point[65] = { 0x04 };
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *pkey = NULL;
	ECDSA_SIG *es = ECDSA_SIG_new();
	unsigned char *der = NULL;
	int der_len, ok = 0;

	memcpy(point + 1, pub, 64);
	OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point));
	params = OSSL_PARAM_BLD_to_param(bld);
	if (EVP_PKEY_fromdata_init(ctx) == 1 &&
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1) {
		ECDSA_SIG_set0(es, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL));
		der_len = i2d_ECDSA_SIG(es, &der);
		EVP_PKEY_CTX_free(ctx);
		ctx = EVP_PKEY_CTX_new(pkey, NULL);
		ok = der_len > 0 && EVP_PKEY_verify_init(ctx) == 1 &&
		     EVP_PKEY_verify(ctx, der, (size_t)der_len, digest, 32) == 1;
	}
	OPENSSL_free(der);
	ECDSA_SIG_free(es);
	EVP_PKEY_free(pkey);
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return ok;
}

/* The raw P-256 point of an X.509 certificate's key. */
static bool cert_pubkey(const uint8_t *der, size_t len, uint8_t pub[64])
{
	const unsigned char *p = der;
	X509 *x = d2i_X509(NULL, &p, (long)len);
	uint8_t point[65];
	size_t n = 0;
	bool ok = false;

	if (x && p == der + len) {
		EVP_PKEY *k = X509_get0_pubkey(x);

		ok = k && EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, point,
							   sizeof(point), &n) == 1 &&
		     n == 65 && point[0] == 0x04;
		if (ok)
			memcpy(pub, point + 1, 64);
	}
	X509_free(x);
	return ok;
}

static const struct ota_stage_record *booted_stage(const struct ota_record *r, uint32_t stage)
{
	for (uint32_t i = 0; i < r->hdr.stage_count; i++)
		if (r->stage[i].stage == stage && (r->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &r->stage[i];
	return NULL;
}

START_TEST(cold_boot_verifies_both_stages_and_writes_tags)
{
	struct ota_record rec;
	const struct ota_stage_record *re, *bl0;
	struct ota_shm_info info;

	ck_assert_uint_eq(devc_read_info(&rig.dev, &info), OTA_OK);
	ck_assert_uint_eq(info.device_state, OTA_DEV_READY);
	ck_assert_uint_eq(info.state_detail, OTA_OK);
	rig_record(&rig, &rec);
	ck_assert_uint_eq(rec.hdr.boot_status, OTA_OK);
	ck_assert_uint_eq(rec.hdr.reset_reason, OTA_RESET_COLD);
	ck_assert_uint_eq(rec.hdr.lifecycle, OTA_LC_DEV);
	ck_assert(rec.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED);
	re = booted_stage(&rec, OTA_STAGE_ROM_EXT);
	bl0 = booted_stage(&rec, OTA_STAGE_BL0);
	ck_assert_ptr_nonnull(re);
	ck_assert_ptr_nonnull(bl0);
	/* A fresh device has no tags: the slow path, then a fresh tag. */
	ck_assert_uint_eq(re->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(bl0->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(bl0->delegation_depth, 1);
	ck_assert_uint_eq(bl0->security_version, 1);
	ck_assert_uint_eq(rec.hdr.min_svn, 1);
	ck_assert_int_gt(rig_status(&rig, "flash-writes"), 0);
}
END_TEST

START_TEST(second_boot_takes_the_tag_path)
{
	char reply[256];
	struct ota_record rec;

	ctl("power-cycle", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, "boot-status=OK"));
	rig_record(&rig, &rec);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

/* The control socket's flash programmer (tamper tag): the next boot names the mismatch. */
START_TEST(tampered_tag_is_a_mismatch_on_the_next_boot)
{
	char reply[256];
	struct ota_record rec;
	const struct ota_stage_record *bl0;

	rig_ctl_expect(&rig, "tamper tag bl0", "error usage tamper tag rom_ext|bl0 a|b");
	rig_ctl_expect(&rig, "tamper tag bl0 b", "error MODEL_NO_TAG"); /* slot B is empty */
	ctl("tamper tag bl0 a", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, "tag=bl0/a takes-effect=next-boot"));
	ctl("power-cycle", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, "boot-status=OK"));
	rig_record(&rig, &rec);
	bl0 = booted_stage(&rec, OTA_STAGE_BL0);
	ck_assert_uint_eq(bl0->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(bl0->path_reason, OTA_REASON_TAG_MISMATCH);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	/* Re-tagged: the boot after is on the tag path again. */
	ctl("power-cycle", reply, sizeof(reply));
	rig_record(&rig, &rec);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->path_reason, OTA_REASON_NONE);
}
END_TEST

START_TEST(get_record_equals_the_region)
{
	struct ota_record rec;
	uint8_t buf[2048];
	uint32_t len, rlen = rig_record(&rig, &rec);

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, rlen);
	ck_assert_mem_eq(buf, &rec, len);
}
END_TEST

START_TEST(attest_returns_signed_fresh_evidence)
{
	static uint8_t ev[OTA_SHM_RESPONSE_SIZE];
	struct ota_req_attest req;
	struct ota_cose_sign1 cose;
	struct ota_evidence_claims claims;
	struct ota_record rec;
	uint8_t digest[32], alias[64];
	uint32_t len, rlen;

	memset(&req, 0, sizeof(req));
	req.nonce_len = 24;
	for (unsigned i = 0; i < 24; i++)
		req.nonce[i] = (uint8_t)(0xc0 + i);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_ATTEST, &req, sizeof(req), ev, sizeof(ev), &len),
			  OTA_OK);
	ck_assert_uint_gt(len, 0);
	ck_assert_uint_le(len, OTA_EVIDENCE_MAX_BYTES);
	ck_assert_uint_eq(ota_cose_sign1_decode(ev, len, &cose), OTA_OK);
	ck_assert_uint_eq(ota_evidence_decode_claims(cose.payload, cose.payload_len, &claims, NULL, 0),
			  OTA_OK);
	ck_assert_uint_eq(claims.nonce_len, 24);
	ck_assert_mem_eq(claims.nonce, req.nonce, 24);
	/* Bound to the record the host can read in shared memory. */
	rlen = rig_record(&rig, &rec);
	ota_sha256(&rec, rlen, digest);
	ck_assert_mem_eq(claims.record_digest, digest, 32);
	ck_assert_uint_eq(claims.generation, rec.hdr.generation);
	/* Signed by the key its leaf certificate names. */
	ck_assert_uint_ge(cose.cert_count, 1);
	ck_assert(cert_pubkey(cose.certs[0], cose.cert_lens[0], alias));
	ck_assert_uint_eq(ota_cose_sign1_verify(&cose, alias), OTA_OK);
	/* And the whole verdict: chain to the manufacturer CA, nonce, record, policy. */
	{
		const struct fixture *fx = fixture_get();
		static struct ota_verdict v;
		struct ota_policy pol;
		struct ota_trust *ca = NULL;

		ck_assert_uint_eq(ota_trust_load_file(fx->ca, &ca), OTA_OK);
		ota_policy_init(&pol);
		ck_assert_uint_eq(ota_verify_evidence(ev, len, ca, req.nonce, 24, &pol,
						      (const uint8_t *)&rec, rlen, &v),
				  OTA_OK);
		ck_assert(v.authentic);
		/* A different nonce is refused. */
		req.nonce[0] ^= 1;
		ck_assert_uint_ne(ota_verify_evidence(ev, len, ca, req.nonce, 24, &pol,
						      (const uint8_t *)&rec, rlen, &v),
				  OTA_OK);
		ota_trust_free(ca);
	}
	ev[len - 1] ^= 1;
	ck_assert_uint_eq(ota_cose_sign1_decode(ev, len, &cose), OTA_OK);
	ck_assert_uint_ne(ota_cose_sign1_verify(&cose, alias), OTA_OK);
}
END_TEST

START_TEST(stable_sign_signs_with_the_svn_key)
{
	struct ota_req_stable_sign req;
	struct ota_resp_stable_sign resp, again;
	struct ota_sha256 h;
	uint8_t digest[32];
	uint32_t len, svn_le = 1;

	memset(&req, 0, sizeof(req));
	req.svn = 1;
	req.msg_len = 16;
	memcpy(req.msg, "enrol this key!!", 16);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_STABLE_SIGN, &req, sizeof(req), &resp,
				   sizeof(resp), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(resp));
	ck_assert_uint_eq(resp.svn, 1);
	ota_sha256_init(&h);
	ota_sha256_update(&h, OTA_STABLE_SIGN_DOMAIN, strlen(OTA_STABLE_SIGN_DOMAIN));
	ota_sha256_update(&h, &svn_le, 4);
	ota_sha256_update(&h, req.msg, 16);
	ota_sha256_final(&h, digest);
	ck_assert(p256_verify(resp.pubkey, digest, resp.signature));
	/* The same key after a warm reset: it hangs off min SVN, not the boot. */
	{
		uint8_t r[64];

		ck_assert_uint_eq(rig_call(&rig, OTA_CMD_WARM_RESET, NULL, 0, r, sizeof(r), &len),
				  OTA_OK);
	}
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_STABLE_SIGN, &req, sizeof(req), &again,
				   sizeof(again), &len),
			  OTA_OK);
	ck_assert_mem_eq(again.pubkey, resp.pubkey, 64);
	/* Above the minimum SVN since cold boot: refused. */
	req.svn = 2;
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_STABLE_SIGN, &req, sizeof(req), &resp,
				   sizeof(resp), &len),
			  OTA_CHAIN_SVN_ABOVE_MIN);
	ck_assert_uint_eq(len, 0);
}
END_TEST

START_TEST(get_certs_chain_to_the_manufacturer_ca)
{
	static uint8_t buf[OTA_SHM_RESPONSE_SIZE];
	const struct fixture *fx = fixture_get();
	const struct ota_resp_certs *hdr = (const struct ota_resp_certs *)buf;
	const uint8_t *certs[OTA_CERTS_MAX];
	size_t lens[OTA_CERTS_MAX];
	struct ota_trust *ca = NULL;
	uint8_t leaf[64];
	uint32_t len, off = sizeof(*hdr);
	char why[256];

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_CERTS, NULL, 0, buf, sizeof(buf), &len),
			  OTA_OK);
	ck_assert_uint_ge(len, sizeof(*hdr));
	ck_assert_uint_eq(hdr->count, 2); /* alias, then device identity */
	ck_assert_uint_eq(hdr->reserved, 0);
	for (uint32_t i = 0; i < hdr->count; i++) {
		uint32_t n;

		ck_assert_uint_le(off + 4u, len);
		memcpy(&n, buf + off, 4);
		ck_assert_uint_le(n, len - off - 4u);
		certs[i] = buf + off + 4;
		lens[i] = n;
		off += 4u + ((n + 3u) & ~3u);
	}
	ck_assert_uint_eq(off, len);
	/* The chain checks out against the CA otimage made, with OpenSSL. */
	ck_assert_uint_eq(ota_trust_load_file(fx->ca, &ca), OTA_OK);
	ck_assert_msg(ota_chain_verify(ca, certs, lens, 2, leaf, why, sizeof(why)) == OTA_OK,
		      "chain: %s", why);
	ota_trust_free(ca);
}
END_TEST

START_TEST(rotate_tags_bumps_the_key_version)
{
	struct ota_req_rotate req = { 0 };
	struct ota_resp_rotate resp;
	struct ota_record before, after;
	struct ota_shm_info i0, i1;
	uint32_t len;

	rig_record(&rig, &before);
	ck_assert_uint_eq(devc_read_info(&rig.dev, &i0), OTA_OK);
	ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_ROTATE_TAGS, &req, sizeof(req), &resp,
				   sizeof(resp), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(resp));
	ck_assert_uint_eq(resp.old_key_version, before.hdr.tag_key_version);
	ck_assert_uint_eq(resp.new_key_version, before.hdr.tag_key_version + 1);
	ck_assert_uint_ge(resp.stages_retagged, 2);
	rig_record(&rig, &after);
	ck_assert_uint_gt(after.hdr.generation, before.hdr.generation);
	ck_assert_uint_eq(after.hdr.tag_key_version, resp.new_key_version);
	/* The guest heard of it, and the rotation showed itself while it ran. */
	ck_assert_uint_gt(ivc_drain(&rig.dev.iv, OTA_VEC_EVENT), 0);
	ck_assert_uint_eq(devc_read_info(&rig.dev, &i1), OTA_OK);
	ck_assert_uint_gt(i1.event_counter, i0.event_counter);
	ck_assert_uint_eq(i1.device_state, OTA_DEV_READY);
	ck_assert_int_ge(mp_log_count(&rig.mp, "state state=rotating"), 1);
	ck_assert_int_ge(mp_log_count(&rig.mp, "progress done="), 1);
	/* Old tags no longer match: the next boot re-verifies once, then tags again. */
	{
		char reply[256];

		ctl("power-cycle", reply, sizeof(reply));
		rig_record(&rig, &after);
		ck_assert_uint_eq(booted_stage(&after, OTA_STAGE_BL0)->path, OTA_PATH_TAG);
		ck_assert_uint_eq(booted_stage(&after, OTA_STAGE_BL0)->tag_key_version,
				  resp.new_key_version);
	}
}
END_TEST

START_TEST(warm_reset_keeps_the_image)
{
	struct ota_resp_reset resp;
	struct ota_record before, after;
	uint32_t len;

	rig_record(&rig, &before);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_WARM_RESET, NULL, 0, &resp, sizeof(resp), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(resp));
	ck_assert_uint_eq(resp.boot_status, OTA_OK);
	rig_record(&rig, &after);
	ck_assert_uint_eq(resp.generation, after.hdr.generation);
	ck_assert_uint_gt(after.hdr.generation, before.hdr.generation);
	ck_assert_uint_eq(after.hdr.reset_reason, OTA_RESET_WARM);
	ck_assert_uint_eq(resp.booted_slot, booted_stage(&before, OTA_STAGE_BL0)->slot);
	ck_assert_uint_eq(after.hdr.min_svn, before.hdr.min_svn);
}
END_TEST

START_TEST(update_reset_switches_slots_and_refuses_untrusted_images)
{
	const struct fixture *fx = fixture_get();
	struct ota_req_update req = { .slot = OTA_UPDATE_SLOT_OTHER };
	struct ota_resp_reset resp;
	struct ota_record before, after;
	char line[512], reply[512];
	uint32_t len, running;

	rig_record(&rig, &before);
	running = booted_stage(&before, OTA_STAGE_BL0)->slot;
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_UPDATE_RESET, &req, sizeof(req), &resp,
				   sizeof(resp), &len),
			  OTA_OK);
	ck_assert_uint_eq(resp.booted_slot, 1u - running);
	rig_record(&rig, &after);
	ck_assert_uint_eq(after.hdr.reset_reason, OTA_RESET_UPDATE);
	ck_assert_uint_eq(booted_stage(&after, OTA_STAGE_BL0)->slot, 1u - running);
	ck_assert_uint_gt(after.hdr.generation, before.hdr.generation);
	/* The log says what reached the device and what its boot ran (a soak's evidence). */
	ck_assert_int_eq(mp_log_count(&rig.mp, "command=update-reset length=8 status=OK"), 1);
	ck_assert_int_eq(mp_log_count(&rig.mp, " slot=other"), 1);
	snprintf(line, sizeof(line), "generation=%u length=", after.hdr.generation);
	ck_assert_int_eq(mp_log_count(&rig.mp, line), 1);
	snprintf(line, sizeof(line), "bl0-slot=%u primary=%u trial-boots=1 revert=0", 1u - running,
		 running);
	ck_assert_int_eq(mp_log_count(&rig.mp, line), 1);

	/* An update agent writes version 2 into the idle slot and resets into it. */
	snprintf(line, sizeof(line), "install bl0 %s %s", running == OTA_SLOT_A ? "a" : "b",
		 fx->bl0_v2);
	ctl(line, reply, sizeof(reply));
	req.slot = running;
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_UPDATE_RESET, &req, sizeof(req), &resp,
				   sizeof(resp), &len),
			  OTA_OK);
	rig_record(&rig, &after);
	ck_assert_uint_eq(booted_stage(&after, OTA_STAGE_BL0)->security_version, 2);

	/* An image under a key the device does not trust: refused, the running one kept. */
	snprintf(line, sizeof(line), "install bl0 %s %s", running == OTA_SLOT_A ? "b" : "a",
		 fx->bl0_bad);
	ctl(line, reply, sizeof(reply));
	before = after;
	req.slot = OTA_UPDATE_SLOT_OTHER;
	ck_assert_uint_ne(rig_call(&rig, OTA_CMD_UPDATE_RESET, &req, sizeof(req), &resp,
				   sizeof(resp), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(resp));
	ck_assert_uint_eq(resp.booted_slot, running);
	ck_assert_uint_eq(devc_read_info(&rig.dev, &(struct ota_shm_info){ 0 }), OTA_OK);
	rig_wait_status(&rig, "state", "ready", 2000);
}
END_TEST

/*
 * Issue 14 through the real mailbox: BL0 v2 streamed in 4 KiB chunks
 * (the largest requests, INSTALL_CHUNK's 4104 bytes, through shared
 * memory), update reset into it, commit, and a cold boot stays on it.
 */
START_TEST(install_update_commit_through_the_mailbox)
{
	const struct fixture *fx = fixture_get();
	static struct ota_req_install_chunk chunk;
	struct ota_req_install_begin begin = { OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER, 0, 0 };
	struct ota_req_install_finish finish = { 0, 0 };
	struct ota_resp_install_finish fin;
	struct ota_resp_install progress;
	struct ota_resp_boot_svc svc;
	struct ota_req_commit commit = { 0, 0 };
	struct ota_req_update update = { 0, 0 };
	struct ota_resp_reset reset;
	struct ota_record rec;
	uint8_t *img = NULL;
	size_t img_len = 0, off, n;
	char reply[512];
	uint32_t len, other;

	ck_assert_int_eq(otu_read_file(fx->bl0_v2, 2u << 20, &img, &img_len), 0);
	rig_record(&rig, &rec);
	other = booted_stage(&rec, OTA_STAGE_BL0)->slot ^ 1u;
	begin.length = (uint32_t)img_len;
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_INSTALL_BEGIN, &begin, sizeof(begin), &progress,
				   sizeof(progress), &len),
			  OTA_OK);
	ck_assert_uint_eq(progress.slot, other);
	for (off = 0; off < img_len; off += n) {
		n = img_len - off < OTA_INSTALL_CHUNK_MAX ? img_len - off : OTA_INSTALL_CHUNK_MAX;
		memset(&chunk, 0, sizeof(chunk));
		chunk.offset = (uint32_t)off;
		chunk.length = (uint32_t)n;
		memcpy(chunk.data, img + off, n);
		ck_assert_uint_eq(rig_call(&rig, OTA_CMD_INSTALL_CHUNK, &chunk, sizeof(chunk),
					   &progress, sizeof(progress), &len),
				  OTA_OK);
		ck_assert_uint_eq(progress.received, off + n);
	}
	free(img);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_INSTALL_FINISH, &finish, sizeof(finish), &fin,
				   sizeof(fin), &len),
			  OTA_OK);
	ck_assert_uint_eq(fin.flags, OTA_INSTALL_RESULT_F_WRITTEN);
	ck_assert_uint_eq(fin.security_version, 2);
	rig_record(&rig, &rec);
	ck_assert_uint_eq(ota_record_update_of(&rec)->update_state, OTA_UPDATE_PENDING);

	update.slot = other;
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_UPDATE_RESET, &update, sizeof(update), &reset,
				   sizeof(reset), &len),
			  OTA_OK);
	commit.slot = other;
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_COMMIT, &commit, sizeof(commit), &svc, sizeof(svc),
				   &len),
			  OTA_OK);
	ck_assert_uint_eq(svc.primary_slot, other);
	ctl("power-cycle", reply, sizeof(reply));
	rig_wait_status(&rig, "state", "ready", 5000);
	rig_record(&rig, &rec);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->slot, other);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->security_version, 2);
	ck_assert_uint_eq(ota_record_update_of(&rec)->update_state, OTA_UPDATE_IDLE);
}
END_TEST

/*
 * A COMMIT of the slot that is already primary, or a RATCHET to a floor
 * already reached, needs no reset: the device answers at once, with the
 * whole response and no new boot. (It used to accept it as if a reset
 * were coming and answer with no bytes, which the driver calls malformed.)
 */
START_TEST(requests_already_done_are_answered_at_once)
{
	struct ota_req_commit commit = { 0 };
	struct ota_req_ratchet ratchet = { .stage = OTA_STAGE_BL0 };
	struct ota_resp_boot_svc svc;
	struct ota_record rec;
	uint32_t len, generation;

	rig_record(&rig, &rec);
	generation = rec.hdr.generation;
	commit.slot = booted_stage(&rec, OTA_STAGE_BL0)->slot;
	memset(&svc, 0xa5, sizeof(svc));
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_COMMIT, &commit, sizeof(commit), &svc, sizeof(svc), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(svc));
	ck_assert_uint_eq(svc.primary_slot, commit.slot);
	ck_assert_uint_eq(svc.booted_slot, commit.slot);
	ck_assert_uint_eq(svc.generation, generation);
	ck_assert_uint_eq(svc.reserved, 0);

	ratchet.floor = rec.hdr.floor_bl0;
	memset(&svc, 0xa5, sizeof(svc));
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_RATCHET, &ratchet, sizeof(ratchet), &svc, sizeof(svc), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(svc));
	ck_assert_uint_eq(svc.floor_bl0, rec.hdr.floor_bl0);
	ck_assert_uint_eq(svc.generation, generation);
	rig_record(&rig, &rec);
	ck_assert_uint_eq(rec.hdr.generation, generation); /* no reset happened */
}
END_TEST

START_TEST(generation_moves_on_every_change)
{
	struct ota_req_rotate rot = { 0 };
	struct ota_req_update upd = { .slot = OTA_UPDATE_SLOT_OTHER };
	uint8_t buf[256];
	char reply[256];
	uint32_t last, len;
	struct ota_record rec;

	rig_record(&rig, &rec);
	last = rec.hdr.generation;
	for (int round = 0; round < 6; round++) {
		ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);
		switch (round) {
		case 0:
			ck_assert_uint_eq(rig_call(&rig, OTA_CMD_WARM_RESET, NULL, 0, buf, sizeof(buf),
						   &len),
					  OTA_OK);
			break;
		case 1:
			ck_assert_uint_eq(rig_call(&rig, OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot), buf,
						   sizeof(buf), &len),
					  OTA_OK);
			break;
		case 2:
			ck_assert_uint_eq(rig_call(&rig, OTA_CMD_UPDATE_RESET, &upd, sizeof(upd), buf,
						   sizeof(buf), &len),
					  OTA_OK);
			break;
		case 3:
			ctl("power-cycle", reply, sizeof(reply));
			break;
		case 4:
			rig_leave(&rig);
			ck_assert_int_ge(mp_stop(&rig.mp, 5000), 0);
			ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
			rig_join(&rig);
			break;
		case 5:
			rig_leave(&rig);
			mp_kill(&rig.mp);
			ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
			rig_join(&rig);
			break;
		}
		rig_record(&rig, &rec);
		ck_assert_msg(rec.hdr.generation > last, "round %d: generation %u after %u", round,
			      rec.hdr.generation, last);
		last = rec.hdr.generation;
		if (round < 4) /* a restarted model has a new guest: nothing to hear */
			ck_assert_uint_gt(ivc_drain(&rig.dev.iv, OTA_VEC_EVENT), 0);
	}
}
END_TEST

START_TEST(state_survives_restarts)
{
	struct ota_req_rotate rot = { 0 };
	struct ota_resp_rotate resp;
	struct ota_record rec;
	uint32_t len;

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot), &resp, sizeof(resp),
				   &len),
			  OTA_OK);
	for (int kill_it = 0; kill_it < 2; kill_it++) {
		rig_leave(&rig);
		if (kill_it)
			mp_kill(&rig.mp);
		else
			ck_assert_int_ge(mp_stop(&rig.mp, 5000), 0);
		/* Started without the factory images: only the state directory. */
		ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
		rig_join(&rig);
		rig_record(&rig, &rec);
		ck_assert_uint_eq(rec.hdr.boot_status, OTA_OK);
		ck_assert_uint_eq(rec.hdr.tag_key_version, resp.new_key_version);
		/* The tags written for the rotated key carry the boot. */
		ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
		ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	}
}
END_TEST

START_TEST(raised_floor_refuses_old_images_until_an_update)
{
	const struct fixture *fx = fixture_get();
	char reply[512], line[512];
	struct ota_record rec;

	ctl("otp floor bl0 2", reply, sizeof(reply));
	ctl("power-cycle", reply, sizeof(reply));
	ck_assert_ptr_null(strstr(reply, "boot-status=OK "));
	rig_record(&rig, &rec);
	ck_assert_uint_ne(rec.hdr.boot_status, OTA_OK);
	ck_assert_uint_eq(rec.hdr.floor_bl0, 2);
	for (uint32_t i = 0; i < rec.hdr.stage_count; i++)
		if (rec.stage[i].stage == OTA_STAGE_BL0)
			ck_assert_uint_eq(rec.stage[i].status, OTA_SVN_BELOW_FLOOR);
	rig_wait_status(&rig, "state", "failed", 1000);
	/* The failed device still serves GET_RECORD, refuses the rest. */
	{
		uint8_t buf[2048];
		uint32_t len;

		ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len),
				  OTA_OK);
		ck_assert_uint_eq(rig_call(&rig, OTA_CMD_WARM_RESET, NULL, 0, buf, sizeof(buf), &len),
				  OTA_MBOX_NOT_READY);
	}
	/* Recovery by flash: a version-2 image in slot A, and power. */
	snprintf(line, sizeof(line), "install bl0 a %s", fx->bl0_v2);
	ctl(line, reply, sizeof(reply));
	ctl("power-cycle", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, "boot-status=OK "));
	rig_record(&rig, &rec);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->security_version, 2);
	ck_assert_uint_eq(booted_stage(&rec, OTA_STAGE_BL0)->slot, OTA_SLOT_A);
}
END_TEST

static Suite *commands_suite(void)
{
	Suite *s = suite_create("model-commands");
	TCase *boot = tcase_create("boot");
	TCase *cmds = tcase_create("commands");
	TCase *life = tcase_create("lifecycle");

	tcase_add_checked_fixture(boot, setup, teardown);
	tcase_set_timeout(boot, 60);
	tcase_add_test(boot, cold_boot_verifies_both_stages_and_writes_tags);
	tcase_add_test(boot, second_boot_takes_the_tag_path);
	tcase_add_test(boot, tampered_tag_is_a_mismatch_on_the_next_boot);
	tcase_add_test(boot, raised_floor_refuses_old_images_until_an_update);
	suite_add_tcase(s, boot);

	tcase_add_checked_fixture(cmds, setup, teardown);
	tcase_set_timeout(cmds, 60);
	tcase_add_test(cmds, get_record_equals_the_region);
	tcase_add_test(cmds, attest_returns_signed_fresh_evidence);
	tcase_add_test(cmds, stable_sign_signs_with_the_svn_key);
	tcase_add_test(cmds, get_certs_chain_to_the_manufacturer_ca);
	tcase_add_test(cmds, rotate_tags_bumps_the_key_version);
	tcase_add_test(cmds, warm_reset_keeps_the_image);
	tcase_add_test(cmds, update_reset_switches_slots_and_refuses_untrusted_images);
	tcase_add_test(cmds, install_update_commit_through_the_mailbox);
	tcase_add_test(cmds, requests_already_done_are_answered_at_once);
	suite_add_tcase(s, cmds);

	tcase_add_checked_fixture(life, setup, teardown);
	tcase_set_timeout(life, 90);
	tcase_add_test(life, generation_moves_on_every_change);
	tcase_add_test(life, state_survives_restarts);
	suite_add_tcase(s, life);
	return s;
}

int main(void)
{
	return harness_run(commands_suite(), true);
}
