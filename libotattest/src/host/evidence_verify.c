// SPDX-License-Identifier: MIT
/*
 * ota_verify_evidence: every check, in the order a careful verifier runs
 * them, and a verdict naming each one that failed. It keeps going after a
 * failure wherever the next check still means something (a bad chain
 * does not hide a bad nonce), so one run tells an operator everything.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "otattest/verify.h"

#include "chain_cache.h"
#include "cose_key.h"
#include "verdict.h"

void ota_verdict_add(struct ota_verdict *v, ota_status_t st, uint32_t stage, const char *fmt, ...)
{
	struct ota_verdict_failure *f;
	va_list ap;

	if (v->failure_count == OTA_VERDICT_MAX_FAILURES) {
		v->failures_truncated = true;
		return;
	}
	f = &v->failures[v->failure_count++];
	f->status = st;
	f->stage = stage;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

static bool sha256(const uint8_t *p, size_t n, uint8_t out[OTA_SHA256_BYTES])
{
	unsigned int len = 0;

	return EVP_Digest(p, n, out, &len, EVP_sha256(), NULL) == 1 && len == OTA_SHA256_BYTES;
}

/* One certified number against its claim: a failure naming the claim when they differ. */
static void same_u32(struct ota_verdict *v, ota_status_t st, uint32_t stage, const char *what,
		     uint32_t claimed, uint32_t certified)
{
	if (claimed != certified)
		ota_verdict_add(v, st, stage, "%s%s%s claimed %u, certified %u",
				stage ? ota_stage_name(stage) : "", stage ? " " : "", what, claimed,
				certified);
}

/*
 * The update state (DeviceState version 2): what a compromised runtime
 * would most like to hide - a trial, a reverted trial, a revocation not
 * applied, a refused image - is what ROM_EXT certified. pending-update is
 * the runtime's own (it installs after the certificate) and not compared.
 */
static void check_update_certified(const struct ota_update_claims *d,
				   const struct ota_update_claims *c, struct ota_verdict *v)
{
	const ota_status_t st = OTA_VERIFY_STATE_MISMATCH;
	const uint32_t ns = OTA_VERDICT_NO_STAGE;

	same_u32(v, st, ns, "reset reason", c->reset_reason, d->reset_reason);
	same_u32(v, st, ns, "update state", c->state, d->state);
	same_u32(v, st, ns, "primary slot", c->primary_slot, d->primary_slot);
	same_u32(v, st, ns, "booted slot", c->booted_slot, d->booted_slot);
	same_u32(v, st, ns, "revocation sequence", c->revocation_seq, d->revocation_seq);
	same_u32(v, st, ns, "device revocation sequence", c->revocation_seq_device,
		 d->revocation_seq_device);
	same_u32(v, st, ns, "trial boots", c->trial_boots, d->trial_boots);
	same_u32(v, st, ns, "revert reason", c->revert_reason, d->revert_reason);
	same_u32(v, st, ns, "reverted slot", c->reverted_slot, d->reverted_slot);
	same_u32(v, st, ns, "refused attempts", c->refused_count, d->refused_count);
	same_u32(v, st, ns, "refused attempt slots", c->refused_slots, d->refused_slots);
}

/*
 * The device state the claims show is the one ROM_EXT certified (the ROM's
 * TCB info entry): every claim a policy judges or an operator reads as
 * the device's own, each compared on its own so the verdict names it.
 */
static void check_state_certified(const struct ota_cert_device *d,
				  const struct ota_evidence_claims *c, struct ota_verdict *v)
{
	const ota_status_t st = OTA_VERIFY_STATE_MISMATCH;

	same_u32(v, st, OTA_VERDICT_NO_STAGE, "lifecycle", c->lifecycle, d->lifecycle);
	same_u32(v, st, OTA_VERDICT_NO_STAGE, "epoch", c->epoch, d->epoch);
	same_u32(v, st, OTA_VERDICT_NO_STAGE, "min SVN", c->min_svn, d->min_svn);
	same_u32(v, st, OTA_VERDICT_NO_STAGE, "ROM_EXT floor", c->floor_rom_ext, d->floor_rom_ext);
	same_u32(v, st, OTA_VERDICT_NO_STAGE, "BL0 floor", c->floor_bl0, d->floor_bl0);
	same_u32(v, st, OTA_VERDICT_NO_STAGE, "chain max SVN", c->chain_max_svn, d->chain_max_svn);
	same_u32(v, st, OTA_VERDICT_NO_STAGE, "tag key version", c->tag_key_version,
		 d->tag_key_version);
	if (memcmp(c->rom_identity, d->rom_identity, OTA_SHA256_BYTES))
		ota_verdict_add(v, st, OTA_VERDICT_NO_STAGE,
				"ROM identity claimed is not the one certified");
	check_update_certified(&d->update, &c->update, v);
}

/* A booted stage's results are the ones ROM or ROM_EXT certified for it. */
static void check_results_certified(const struct ota_cert_tcb *t,
				    const struct ota_evidence_stage *s, struct ota_verdict *v)
{
	const ota_status_t st = OTA_VERIFY_RESULT_MISMATCH;
	uint32_t k;

	same_u32(v, st, s->stage, "path", s->path, t->path);
	same_u32(v, st, s->stage, "signature scheme", s->sig_scheme, t->sig_scheme);
	same_u32(v, st, s->stage, "delegation depth", s->depth, t->depth);
	same_u32(v, st, s->stage, "tag key version", s->tag_key_version, t->tag_key_version);
	same_u32(v, st, s->stage, "path reason", s->path_reason, t->path_reason);
	same_u32(v, st, s->stage, "usage flags", s->usage_flags, t->usage_flags);
	/* Key ids one by one: with equal depths the counts are equal too. */
	for (k = 0; k < s->key_id_count && k < t->key_id_count; k++) {
		if (!memcmp(s->key_ids[k], t->key_ids[k], OTA_KEY_ID_BYTES))
			continue;
		if (k == 0)
			ota_verdict_add(v, st, s->stage, "%s root key id claimed is not the one certified",
					ota_stage_name(s->stage));
		else
			ota_verdict_add(v, st, s->stage,
					"%s delegate %u key id claimed is not the one certified",
					ota_stage_name(s->stage), k);
	}
}

/*
 * The alias certificate speaks for one device: the one its subject names
 * must be the one its issuer - the identity certificate - names, and the
 * identity certificate the evidence carries must be that issuer. Otherwise
 * device D's identity key vouches for evidence in device E's name.
 */
static void check_identity(const struct ota_cose_sign1 *m, const struct ota_chain_facts *f,
			   struct ota_verdict *v)
{
	const struct ota_alias_info *info = &f->alias;
	const struct ota_identity_info *id = &f->identity;

	if (!info->has_device_id || !info->has_issuer_device_id ||
	    memcmp(info->device_id, info->issuer_device_id, OTA_DEVICE_ID_BYTES)) {
		ota_verdict_add(v, OTA_VERIFY_IDENTITY_MISMATCH, OTA_VERDICT_NO_STAGE,
				"the alias certificate's subject and issuer name different devices");
		return;
	}
	if (m->cert_count < 2)
		return; /* no identity certificate: the chain cannot be trusted, and says so */
	if (f->identity_st != OTA_OK || !id->issued_alias || !id->has_device_id ||
	    memcmp(id->device_id, info->device_id, OTA_DEVICE_ID_BYTES))
		ota_verdict_add(v, OTA_VERIFY_IDENTITY_MISMATCH, OTA_VERDICT_NO_STAGE,
				"the identity certificate in the evidence %s",
				id->issued_alias ? "names another device than the alias certificate"
						 : "did not issue the alias certificate");
}

/* The certificate's entry for a stage (its layer), or NULL. */
static const struct ota_cert_tcb *certified_stage(const struct ota_alias_info *info,
						  uint32_t stage)
{
	for (uint32_t t = 0; t < info->tcb_count; t++)
		if (info->tcb[t].stage == stage)
			return &info->tcb[t];
	return NULL;
}

/*
 * The claims must agree with what the alias certificate certifies: the
 * device (its CN, and the identity that issued it), the device state
 * and, for every booted stage, the image's SVN and measurement and the
 * results of its check (its MultiTcbInfo). The alias key is in the hands
 * of the running BL0; the certificate was made before BL0 ran.
 */
static void check_certified(const struct ota_cose_sign1 *m, const struct ota_chain_facts *f,
			    struct ota_verdict *v)
{
	const struct ota_evidence_claims *c = &v->claims;
	const struct ota_alias_info *info = &f->alias;
	uint32_t i, matched = 0, booted = 0;

	if (f->alias_st != OTA_OK) {
		ota_verdict_add(v, OTA_VERIFY_TCB_MISMATCH, OTA_VERDICT_NO_STAGE,
				"the alias certificate's TCB info does not parse");
		return;
	}
	if (!info->has_device_id || memcmp(info->device_id, c->device_id, OTA_DEVICE_ID_BYTES))
		ota_verdict_add(v, OTA_VERIFY_DEVICE_MISMATCH, OTA_VERDICT_NO_STAGE,
				"the ueid claim is not the device the alias certificate names");
	check_identity(m, f, v);
	if (info->certifies_results)
		check_state_certified(&info->device, c, v);
	else
		ota_verdict_add(v, OTA_VERIFY_NOT_CERTIFIED, OTA_VERDICT_NO_STAGE,
				"the alias certificate certifies %s, not the stage results and "
				"device state the claims show (older firmware)",
				info->tcb_count ? "measurements and SVNs only" : "no TCB info");
	for (i = 0; i < c->stage_count; i++) {
		const struct ota_evidence_stage *s = &c->stage[i];
		const struct ota_cert_tcb *t;

		if (!(s->flags & OTA_STAGE_F_BOOTED) || s->status != OTA_OK)
			continue;
		booted++;
		t = certified_stage(info, s->stage);
		if (t == NULL || t->svn != s->svn ||
		    memcmp(t->measurement, s->measurement, OTA_SHA256_BYTES)) {
			ota_verdict_add(v, OTA_VERIFY_TCB_MISMATCH, s->stage,
					"%s SVN and measurement claimed are not the ones certified "
					"in the alias certificate", ota_stage_name(s->stage));
			continue;
		}
		matched++;
		if (info->certifies_results)
			check_results_certified(t, s, v);
	}
	if (matched == booted && info->tcb_count != booted)
		ota_verdict_add(v, OTA_VERIFY_TCB_MISMATCH, OTA_VERDICT_NO_STAGE,
				"the alias certificate certifies %u stages, the claims show %u booted",
				info->tcb_count, booted);
}

static ota_status_t verify_evidence(const uint8_t *evidence, size_t len,
				    const struct ota_trust *anchors, const uint8_t *nonce,
				    size_t nonce_len, const struct ota_policy *policy,
				    const uint8_t *record, size_t record_len, struct ota_verdict *v)
{
	uint8_t digest[OTA_SHA256_BYTES];
	const uint8_t *ho[OTA_HANDOVER_MAX];
	size_t ho_lens[OTA_HANDOVER_MAX];
	struct ota_chain_facts facts;
	struct ota_cose_sign1 m;
	bool chain_ok = false, sig_ok = false;
	uint32_t ho_count = 0, id_version = 0;
	char why[160];
	ota_status_t st;

	memset(v, 0, sizeof(*v));
	st = ota_cose_sign1_decode(evidence, len, &m);
	if (st != OTA_OK) {
		ota_verdict_add(v, st, OTA_VERDICT_NO_STAGE, "evidence is not a valid COSE_Sign1: %s",
				ota_status_message(st));
		return st;
	}

	/*
	 * A chain the trust store verified before is remembered with its leaf
	 * key and what its certificates say (chain_cache.h): a device's second
	 * evidence costs its own signature and not the chain's three.
	 */
	if (ota_cose_sign1_handovers(evidence, len, ho, ho_lens, &ho_count) != OTA_OK)
		ho_count = 0; /* decoded above: cannot fail here */
	/*
	 * An identity that changed hands (keychain.md): the identity
	 * certificate to the CA, then the hand-overs to the alias certificate's
	 * issuer; not remembered in the chain cache.
	 */
	if (ho_count)
		st = ota_chain_verify_handovers(anchors, m.certs, m.cert_lens, m.cert_count, ho,
						ho_lens, ho_count, &facts, &id_version, why,
						sizeof(why));
	else
		st = ota_chain_verify_cached(anchors, m.certs, m.cert_lens, m.cert_count, &facts,
					     why, sizeof(why));
	if (st == OTA_OK && policy != NULL && policy->crl_count && !ota_trust_crl_count(anchors)) {
		/* A caller that forgot ota_trust_add_policy_crls gets no unchecked pass. */
		st = OTA_VERIFY_CHAIN_UNTRUSTED;
		snprintf(why, sizeof(why), "the policy names CRLs the trust store has not loaded");
	}
	if (st == OTA_OK) {
		chain_ok = true;
	} else if (st == OTA_VERIFY_IDENTITY_REVOKED || st == OTA_VERIFY_HANDOVER_GAP ||
		   st == OTA_VERIFY_HANDOVER_FORGED || st == OTA_VERIFY_HANDOVER_OUT_OF_ORDER ||
		   st == OTA_VERIFY_HANDOVER_MALFORMED || st == OTA_VERIFY_IDENTITY_MISMATCH) {
		ota_verdict_add(v, st, OTA_VERDICT_NO_STAGE, "%s", why);
	} else {
		st = OTA_VERIFY_CHAIN_UNTRUSTED;
		ota_verdict_add(v, st, OTA_VERDICT_NO_STAGE,
				"certificate chain does not lead to the trusted CA: %s", why);
		/* Why, when the device's identity changed hands and the evidence omits how. */
		if (ho_count == 0 &&
		    ota_chain_handover_missing(anchors, m.certs, m.cert_lens, m.cert_count))
			ota_verdict_add(v, OTA_VERIFY_HANDOVER_GAP, OTA_VERDICT_NO_STAGE,
					"the alias certificate was issued by another identity of this "
					"device than the one the CA certified, and the evidence "
					"carries no hand-over");
	}
	if (st != OTA_OK)
		ota_chain_facts_read(m.certs, m.cert_lens, m.cert_count, &facts);

	/* The leaf key is checked even when the chain is not: report both. */
	if (st == OTA_OK || st == OTA_VERIFY_CHAIN_UNTRUSTED || st == OTA_VERIFY_IDENTITY_REVOKED ||
	    st == OTA_VERIFY_HANDOVER_GAP || st == OTA_VERIFY_HANDOVER_FORGED ||
	    st == OTA_VERIFY_HANDOVER_OUT_OF_ORDER || st == OTA_VERIFY_HANDOVER_MALFORMED ||
	    st == OTA_VERIFY_IDENTITY_MISMATCH) {
		if ((facts.leaf ? ota_cose_sign1_verify_pkey(&m, facts.leaf)
				: ota_cose_sign1_verify(&m, facts.leaf_pubkey)) == OTA_OK)
			sig_ok = true;
		else
			ota_verdict_add(v, OTA_VERIFY_SIGNATURE_INVALID, OTA_VERDICT_NO_STAGE,
					"evidence signature does not verify with the alias key");
	} else {
		ota_verdict_add(v, OTA_VERIFY_SIGNATURE_INVALID, OTA_VERDICT_NO_STAGE,
				"no usable signing key in the certificate chain");
	}
	v->authentic = chain_ok && sig_ok;
	EVP_PKEY_free(facts.leaf);
	facts.leaf = NULL;

	st = ota_evidence_decode_claims(m.payload, m.payload_len, &v->claims, why, sizeof(why));
	if (st != OTA_OK) {
		ota_verdict_add(v, OTA_VERIFY_CLAIMS_INVALID, OTA_VERDICT_NO_STAGE,
				"claims set is malformed: %s", why);
		return v->failures[0].status;
	}
	v->claims_valid = true;

	check_certified(&m, &facts, v);

	if (nonce != NULL &&
	    (nonce_len != v->claims.nonce_len || CRYPTO_memcmp(nonce, v->claims.nonce, nonce_len)))
		ota_verdict_add(v, OTA_VERIFY_NONCE_MISMATCH, OTA_VERDICT_NO_STAGE,
				"evidence nonce (%u bytes) is not the expected nonce (%zu bytes)",
				v->claims.nonce_len, nonce_len);

	if (record != NULL) {
		if (!sha256(record, record_len, digest) ||
		    memcmp(digest, v->claims.record_digest, sizeof(digest)))
			ota_verdict_add(v, OTA_VERIFY_RECORD_MISMATCH, OTA_VERDICT_NO_STAGE,
					"the boot record given does not hash to the record digest claim");
	}

	if (policy != NULL)
		ota_policy_evaluate(policy, &v->claims, v);
	return v->failure_count ? v->failures[0].status : OTA_OK;
}

/*
 * The verdict is the whole answer: OpenSSL's error queue, which a refused
 * certificate or signature leaves full, is emptied here so no caller
 * (a long-running verifier, a fuzzer) sees it grow.
 */
ota_status_t ota_verify_evidence(const uint8_t *evidence, size_t len,
				 const struct ota_trust *anchors, const uint8_t *nonce,
				 size_t nonce_len, const struct ota_policy *policy,
				 const uint8_t *record, size_t record_len, struct ota_verdict *v)
{
	ota_status_t st = verify_evidence(evidence, len, anchors, nonce, nonce_len, policy, record,
					  record_len, v);

	ERR_clear_error();
	return st;
}
