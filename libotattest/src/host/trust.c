// SPDX-License-Identifier: MIT
/*
 * Trust anchors and certificate chains: OpenSSL's X509_STORE and
 * X509_verify_cert do the path validation (RFC 5280), in strict mode, with
 * the evidence's x5chain as the untrusted intermediates. On top of that
 * the leaf must be an end-entity certificate for digital signatures, so
 * the identity certificate (a CA) can never be passed off as the signer.
 * Each trust store remembers the chains it verified (chain_cache.h), so
 * a chain seen before costs a hash and a lookup; a chain first seen in
 * the profile otattest issues takes the fast path (chain_fast.h) and
 * goes to OpenSSL only when that declines it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "otattest/verify.h"

#include "cert_read.h"
#include "chain_cache.h"
#include "chain_fast.h"
#include "cose_key.h"
#include "fileio.h"

struct ota_trust {
	X509_STORE *store;
	struct ota_chain_cache *cache;
	struct ota_fast *fast;
	uint32_t crl_count;
	/* The earliest nextUpdate of the CRLs: no chain is remembered past it. */
	time_t crls_until;
};

ota_status_t ota_trust_load_pem(const void *pem, size_t len, struct ota_trust **out)
{
	struct ota_trust *t;
	BIO *bio;
	X509 *x;
	int n = 0;

	*out = NULL;
	if (len > INT32_MAX)
		return OTA_HOST_BAD_ARGUMENT;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return OTA_HOST_INTERNAL;
	t->store = X509_STORE_new();
	t->cache = ota_chain_cache_new();
	t->fast = ota_fast_new();
	bio = BIO_new_mem_buf(pem, (int)len);
	if (t->store == NULL || t->cache == NULL || t->fast == NULL || bio == NULL) {
		BIO_free(bio);
		ota_trust_free(t);
		return OTA_HOST_INTERNAL;
	}
	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (X509_STORE_add_cert(t->store, x) == 1)
			n++;
		X509_free(x);
	}
	ERR_clear_error(); /* the loop ends on "no start line" */
	BIO_free(bio);
	if (n == 0) {
		ota_trust_free(t);
		return OTA_X509_MALFORMED;
	}
	ota_fast_set_anchors(t->fast, t->store);
	*out = t;
	return OTA_OK;
}

static ota_status_t load_pem(void *out, const void *pem, size_t len)
{
	return ota_trust_load_pem(pem, len, out);
}

ota_status_t ota_trust_load_file(const char *path, struct ota_trust **out)
{
	*out = NULL;
	return ota_read_file_with(path, 1u << 20, load_pem, out);
}

/*
 * A CRL whose scope is the whole of its issuer's certificates, complete in
 * itself: what this verifier implements. Refused, because honouring them
 * needs rules neither verifier has (and OpenSSL without
 * X509_V_FLAG_USE_DELTAS skips a delta CRL, so a certificate it revokes
 * would pass): a delta CRL (deltaCRLIndicator), a CRL pointing at its
 * deltas (freshestCRL), a partitioned or reason-limited one
 * (issuingDistributionPoint), and an indirect one (an entry's
 * certificateIssuer). docs/verifier.md, "Policy".
 */
static bool crl_scope_whole(X509_CRL *crl)
{
	static const int scoped[] = { NID_delta_crl, NID_freshest_crl,
				      NID_issuing_distribution_point };
	STACK_OF(X509_REVOKED) *revoked = X509_CRL_get_REVOKED(crl);
	size_t k;
	int i;

	for (k = 0; k < sizeof(scoped) / sizeof(scoped[0]); k++)
		if (X509_CRL_get_ext_by_NID(crl, scoped[k], -1) >= 0)
			return false;
	for (i = 0; i < sk_X509_REVOKED_num(revoked); i++)
		if (X509_REVOKED_get_ext_by_NID(sk_X509_REVOKED_value(revoked, i),
						NID_certificate_issuer, -1) >= 0)
			return false;
	return true;
}

ota_status_t ota_trust_add_crl_pem(struct ota_trust *t, const void *pem, size_t len)
{
	STACK_OF(X509_CRL) *crls;
	struct ota_chain_cache *fresh;
	X509_CRL *crl;
	BIO *bio;
	time_t next, until = t ? t->crls_until : 0;
	int i, n;
	ota_status_t st = OTA_OK;

	if (t == NULL || len > INT32_MAX)
		return OTA_HOST_BAD_ARGUMENT;
	bio = BIO_new_mem_buf(pem, (int)len);
	fresh = ota_chain_cache_new();
	crls = sk_X509_CRL_new_null();
	if (bio == NULL || fresh == NULL || crls == NULL) {
		st = OTA_HOST_INTERNAL;
		goto out;
	}
	/* All of the file is read and judged before any of it is added: bad input changes nothing. */
	while ((crl = PEM_read_bio_X509_CRL(bio, NULL, NULL, NULL)) != NULL) {
		if (!sk_X509_CRL_push(crls, crl)) {
			X509_CRL_free(crl);
			st = OTA_HOST_INTERNAL;
			goto out;
		}
		if (!crl_scope_whole(crl)) {
			st = OTA_X509_CRL_UNSUPPORTED;
			goto out;
		}
	}
	n = sk_X509_CRL_num(crls);
	if (n == 0) {
		st = OTA_X509_MALFORMED;
		goto out;
	}
	for (i = 0; i < n; i++) {
		crl = sk_X509_CRL_value(crls, i);
		if (X509_STORE_add_crl(t->store, crl) != 1) {
			st = OTA_HOST_INTERNAL;
			goto out;
		}
		if (X509_CRL_get0_nextUpdate(crl) &&
		    ota_asn1_seconds(X509_CRL_get0_nextUpdate(crl), &next) &&
		    (until == 0 || next < until))
			until = next;
	}
	/* Chains and identities remembered before were not checked against these CRLs. */
	ota_chain_cache_free(t->cache);
	t->cache = fresh;
	fresh = NULL;
	ota_fast_forget(t->fast);
	ota_fast_set_anchors(t->fast, t->store);
	t->crls_until = until;
	t->crl_count += (uint32_t)n;
out:
	ERR_clear_error(); /* the loop ends on "no start line" */
	BIO_free(bio);
	sk_X509_CRL_pop_free(crls, X509_CRL_free);
	ota_chain_cache_free(fresh);
	return st;
}

static ota_status_t add_crl_pem(void *t, const void *pem, size_t len)
{
	return ota_trust_add_crl_pem(t, pem, len);
}

/* A fleet's CRL lists many devices: up to 16 MiB of PEM. */
ota_status_t ota_trust_add_crl_file(struct ota_trust *t, const char *path)
{
	return ota_read_file_with(path, 16u << 20, add_crl_pem, t);
}

uint32_t ota_trust_crl_count(const struct ota_trust *t)
{
	return t ? t->crl_count : 0;
}

void ota_trust_free(struct ota_trust *t)
{
	if (t == NULL)
		return;
	X509_STORE_free(t->store);
	ota_chain_cache_free(t->cache);
	ota_fast_free(t->fast);
	free(t);
}

static bool leaf_p256_key(X509 *leaf, uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	EVP_PKEY *pkey = X509_get0_pubkey(leaf);
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES];
	char group[32];
	size_t n = 0;

	if (pkey == NULL || !EVP_PKEY_is_a(pkey, "EC") ||
	    EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
					   NULL) != 1 ||
	    strcmp(group, "prime256v1") != 0 ||
	    EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point,
					    sizeof(point), &n) != 1 ||
	    n != sizeof(point) || point[0] != POINT_CONVERSION_UNCOMPRESSED)
		return false;
	memcpy(pub, point + 1, OTA_P256_PUBKEY_BYTES);
	return true;
}

/* What a successful chain verification hands its caller beyond the leaf key. */
struct chain_result {
	EVP_PKEY *leaf;              /* a reference */
	time_t not_before, not_after; /* when every certificate of the chain is valid */
};

/* The period in which every certificate of the verified chain is valid. */
static bool chain_period(X509_STORE_CTX *ctx, time_t *not_before, time_t *not_after)
{
	STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(ctx);
	int i;

	if (chain == NULL)
		return false;
	*not_before = 0;
	*not_after = (time_t)INT64_MAX;
	for (i = 0; i < sk_X509_num(chain); i++) {
		X509 *x = sk_X509_value(chain, i);
		time_t nb, na;

		if (!ota_asn1_seconds(X509_get0_notBefore(x), &nb) ||
		    !ota_asn1_seconds(X509_get0_notAfter(x), &na))
			return false;
		if (nb > *not_before)
			*not_before = nb;
		if (na < *not_after)
			*not_after = na;
	}
	return true;
}

/*
 * What the certificates say (chain_cache.h), read from the ones path
 * validation decoded: the alias certificate is the leaf; the identity
 * certificate is the evidence's second, and when the validated chain has
 * it as the leaf's issuer, its signature on the leaf is already checked.
 */
static void chain_facts(X509_STORE_CTX *ctx, X509 *leaf, STACK_OF(X509) *untrusted,
			struct ota_chain_facts *facts)
{
	STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(ctx);
	X509 *id = sk_X509_num(untrusted) > 0 ? sk_X509_value(untrusted, 0) : NULL;
	bool issuer_checked;

	facts->alias_st = ota_alias_cert_info_x509(leaf, &facts->alias);
	facts->identity_st = OTA_X509_MALFORMED;
	memset(&facts->identity, 0, sizeof(facts->identity));
	if (id == NULL)
		return;
	issuer_checked = chain && sk_X509_num(chain) >= 2 && X509_cmp(sk_X509_value(chain, 1), id) == 0;
	facts->identity_st = ota_identity_cert_info_x509(id, leaf, issuer_checked, &facts->identity);
}

/*
 * Revocation of the certificate the CA issued (the device's identity
 * certificate: the alias below it is issued by the device itself, which
 * publishes no CRL). OpenSSL checks it as the target of its own path
 * validation with X509_V_FLAG_CRL_CHECK: the CRL's issuer and signature,
 * its validity period and critical extensions are its rules, not ours.
 * A CA without a current CRL fails: revocation that cannot be checked
 * does not pass.
 */
static ota_status_t not_revoked(const struct ota_trust *t, X509_STORE_CTX *verified, char *why,
				size_t why_len)
{
	STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(verified);
	X509_STORE_CTX *ctx;
	X509 *issued;
	ota_status_t st = OTA_VERIFY_CHAIN_UNTRUSTED;
	int err;

	if (chain == NULL || sk_X509_num(chain) < 2)
		return st;
	/*
	 * The alias's issuer: the identity certificate, whoever issued it (a
	 * CA under a trusted intermediate too). Only a chain without one, the
	 * leaf right under the anchor, has the leaf checked instead.
	 */
	issued = sk_X509_value(chain, sk_X509_num(chain) >= 3 ? 1 : 0);
	ctx = X509_STORE_CTX_new();
	/* The evidence's certificates as the untrusted ones again: an intermediate among them. */
	if (ctx == NULL || X509_STORE_CTX_init(ctx, t->store, issued,
					       X509_STORE_CTX_get0_untrusted(verified)) != 1) {
		snprintf(why, why_len, "revocation could not be checked");
		X509_STORE_CTX_free(ctx);
		return st;
	}
	X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_X509_STRICT | X509_V_FLAG_CRL_CHECK);
	if (X509_verify_cert(ctx) == 1) {
		st = OTA_OK;
	} else {
		err = X509_STORE_CTX_get_error(ctx);
		if (err == X509_V_ERR_CERT_REVOKED) {
			st = OTA_VERIFY_IDENTITY_REVOKED;
			snprintf(why, why_len, "the identity certificate is revoked by its CA's CRL");
		} else {
			snprintf(why, why_len, "revocation: %s", X509_verify_cert_error_string(err));
		}
	}
	X509_STORE_CTX_free(ctx);
	return st;
}

/*
 * The identity certificate of a chain of two that path validation
 * accepted (as the leaf's issuer, its own issuer from the store), for the
 * fast path: the same device's next alias certificate needs no more.
 */
static void remember_identity(const struct ota_trust *t, X509_STORE_CTX *ctx, X509 *given,
			      const uint8_t *der, size_t len, const struct chain_result *res)
{
	STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(ctx);
	X509 *id = chain && sk_X509_num(chain) == 3 ? sk_X509_value(chain, 1) : NULL;
	time_t not_after = res->not_after;

	if (id == NULL || X509_cmp(given, id) != 0)
		return;
	if (t->crls_until && not_after > t->crls_until)
		not_after = t->crls_until;
	ota_fast_put_identity(t->fast, der, len, X509_get0_pubkey(id), res->not_before, not_after);
}

static ota_status_t chain_verify(const struct ota_trust *t, const uint8_t *const certs[],
				 const size_t lens[], uint32_t count,
				 uint8_t leaf_pubkey[OTA_P256_PUBKEY_BYTES], char *why,
				 size_t why_len, struct chain_result *res,
				 struct ota_chain_facts *facts)
{
	STACK_OF(X509) *untrusted = NULL;
	X509_STORE_CTX *ctx = NULL;
	X509 *leaf = NULL;
	ota_status_t st = OTA_VERIFY_CHAIN_UNTRUSTED;
	uint32_t i;

	snprintf(why, why_len, "no certificate");
	if (count == 0 || t == NULL)
		return st;
	leaf = ota_cert_from_der(certs[0], lens[0]);
	if (leaf == NULL) {
		snprintf(why, why_len, "leaf certificate is not valid DER X.509");
		return OTA_X509_MALFORMED;
	}
	if (!leaf_p256_key(leaf, leaf_pubkey)) {
		snprintf(why, why_len, "leaf key is not an uncompressed P-256 key");
		st = OTA_SIG_BAD_PUBKEY;
		goto out;
	}
	untrusted = sk_X509_new_null();
	if (untrusted == NULL)
		goto out;
	for (i = 1; i < count; i++) {
		X509 *x = ota_cert_from_der(certs[i], lens[i]);

		if (x == NULL || !sk_X509_push(untrusted, x)) {
			X509_free(x);
			snprintf(why, why_len, "certificate %u is not valid DER X.509", i);
			st = OTA_X509_MALFORMED;
			goto out;
		}
	}
	ctx = X509_STORE_CTX_new();
	if (ctx == NULL || X509_STORE_CTX_init(ctx, t->store, leaf, untrusted) != 1)
		goto out;
	X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_X509_STRICT);
	if (X509_verify_cert(ctx) != 1) {
		snprintf(why, why_len, "%s",
			 X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx)));
		goto out;
	}
	if ((X509_get_extension_flags(leaf) & EXFLAG_CA) || X509_check_ca(leaf) != 0 ||
	    !(X509_get_key_usage(leaf) & KU_DIGITAL_SIGNATURE)) {
		snprintf(why, why_len, "leaf is not an end-entity signing certificate");
		goto out;
	}
	if (t->crl_count) {
		st = not_revoked(t, ctx, why, why_len);
		if (st != OTA_OK)
			goto out;
		st = OTA_VERIFY_CHAIN_UNTRUSTED;
	}
	/* What the cache keeps: without it the chain is still good, just not remembered. */
	if (res && (!chain_period(ctx, &res->not_before, &res->not_after) ||
		    (res->leaf = X509_get_pubkey(leaf)) == NULL))
		res->leaf = NULL;
	if (facts)
		chain_facts(ctx, leaf, untrusted, facts);
	if (res && res->leaf && count == 2)
		remember_identity(t, ctx, sk_X509_value(untrusted, 0), certs[1], lens[1], res);
	snprintf(why, why_len, "ok");
	st = OTA_OK;
out:
	ERR_clear_error();
	X509_STORE_CTX_free(ctx);
	sk_X509_pop_free(untrusted, X509_free);
	X509_free(leaf);
	return st;
}

/*
 * The identity certificate (certs[1]) verified to the trust store as a
 * certificate of its own (the CA's issue, not revoked when CRLs are
 * loaded), and the alias certificate (certs[0]) an end entity in its name
 * that is valid now. *id and *alias on OTA_OK (the caller frees them).
 */
static ota_status_t identity_alone(const struct ota_trust *t, const uint8_t *const certs[],
				   const size_t lens[], uint32_t count, X509 **id, X509 **alias,
				   char *why, size_t why_len)
{
	X509_STORE_CTX *ctx = NULL;
	ota_status_t st = OTA_VERIFY_CHAIN_UNTRUSTED;

	*id = *alias = NULL;
	snprintf(why, why_len, "an alias and an identity certificate are needed");
	if (t == NULL || count != 2)
		return st;
	*alias = ota_cert_from_der(certs[0], lens[0]);
	*id = ota_cert_from_der(certs[1], lens[1]);
	if (*alias == NULL || *id == NULL) {
		snprintf(why, why_len, "a certificate is not valid DER X.509");
		st = OTA_X509_MALFORMED;
		goto out;
	}
	ctx = X509_STORE_CTX_new();
	if (ctx == NULL || X509_STORE_CTX_init(ctx, t->store, *id, NULL) != 1)
		goto out;
	X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_X509_STRICT);
	if (X509_verify_cert(ctx) != 1) {
		snprintf(why, why_len, "identity certificate: %s",
			 X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx)));
		goto out;
	}
	if (t->crl_count) {
		st = not_revoked(t, ctx, why, why_len);
		if (st != OTA_OK)
			goto out;
		st = OTA_VERIFY_CHAIN_UNTRUSTED;
	}
	if (X509_check_ca(*id) == 0 ||
	    X509_NAME_cmp(X509_get_issuer_name(*alias), X509_get_subject_name(*id)) != 0) {
		snprintf(why, why_len, "the alias certificate is not in the identity certificate's name");
		goto out;
	}
	if ((X509_get_extension_flags(*alias) & EXFLAG_CA) || X509_check_ca(*alias) != 0 ||
	    !(X509_get_key_usage(*alias) & KU_DIGITAL_SIGNATURE) ||
	    X509_cmp_current_time(X509_get0_notBefore(*alias)) >= 0 ||
	    X509_cmp_current_time(X509_get0_notAfter(*alias)) <= 0) {
		snprintf(why, why_len, "leaf is not an end-entity signing certificate valid now");
		goto out;
	}
	st = OTA_OK;
out:
	X509_STORE_CTX_free(ctx);
	if (st != OTA_OK) {
		X509_free(*id);
		X509_free(*alias);
		*id = *alias = NULL;
	}
	ERR_clear_error();
	return st;
}

ota_status_t ota_chain_verify_handovers(const struct ota_trust *t, const uint8_t *const certs[],
					const size_t lens[], uint32_t count,
					const uint8_t *const ho[], const size_t ho_lens[],
					uint32_t ho_count, struct ota_chain_facts *facts,
					uint32_t *version, char *why, size_t why_len)
{
	uint8_t certified[OTA_P256_PUBKEY_BYTES];
	struct ota_identity_handover last;
	EVP_PKEY *issuer = NULL;
	X509 *id, *alias;
	ota_status_t st;

	memset(facts, 0, sizeof(*facts));
	*version = 0;
	st = identity_alone(t, certs, lens, count, &id, &alias, why, why_len);
	if (st != OTA_OK)
		return st;
	st = OTA_VERIFY_CHAIN_UNTRUSTED;
	facts->alias_st = ota_alias_cert_info_x509(alias, &facts->alias);
	if (!leaf_p256_key(alias, facts->leaf_pubkey) || !leaf_p256_key(id, certified) ||
	    ho_count == 0 || lens[0] == 0 || !facts->alias.has_device_id) {
		snprintf(why, why_len, "the certificates' keys or names are not the device's");
		goto out;
	}
	/* From the certified identity through every hand-over to the key that signed the alias. */
	if (ho_lens[ho_count - 1] != sizeof(last)) {
		st = OTA_VERIFY_HANDOVER_MALFORMED;
		snprintf(why, why_len, "identity hand-over %u is malformed", ho_count);
		goto out;
	}
	memcpy(&last, ho[ho_count - 1], sizeof(last)); /* unaligned in the evidence */
	st = ota_handover_chain_check(certified, last.to_pubkey, facts->alias.device_id, ho,
				      ho_lens, ho_count, version, why, why_len);
	if (st != OTA_OK)
		goto out;
	issuer = ota_p256_public_key(last.to_pubkey);
	if (issuer == NULL || X509_verify(alias, issuer) != 1) {
		st = OTA_VERIFY_HANDOVER_GAP;
		snprintf(why, why_len, "the alias certificate is not signed by the identity the "
				       "hand-overs lead to");
		goto out;
	}
	/* The identity, through its hand-overs, issued the alias certificate. */
	facts->identity_st = ota_identity_cert_info_x509(id, alias, true, &facts->identity);
	facts->identity.issued_alias = facts->identity_st == OTA_OK && facts->identity.has_device_id;
	facts->leaf = X509_get_pubkey(alias);
	st = facts->leaf != NULL ? OTA_OK : OTA_VERIFY_CHAIN_UNTRUSTED;
	if (st == OTA_OK)
		snprintf(why, why_len, "ok");
out:
	EVP_PKEY_free(issuer);
	X509_free(id);
	X509_free(alias);
	ERR_clear_error();
	return st;
}

bool ota_chain_handover_missing(const struct ota_trust *t, const uint8_t *const certs[],
				const size_t lens[], uint32_t count)
{
	char why[160];
	X509 *id, *alias;
	bool missing;

	if (identity_alone(t, certs, lens, count, &id, &alias, why, sizeof(why)) != OTA_OK)
		return false;
	/*
	 * In the identity's name, from the CA, but naming another key as its
	 * issuer (the authority key id is not the identity's subject key id)
	 * and not signed by the identity's key: another identity of the
	 * device signed it. A certificate merely tampered with keeps the key id.
	 */
	missing = X509_get0_authority_key_id(alias) != NULL && X509_get0_subject_key_id(id) != NULL &&
		  ASN1_OCTET_STRING_cmp(X509_get0_authority_key_id(alias),
					X509_get0_subject_key_id(id)) != 0 &&
		  X509_verify(alias, X509_get0_pubkey(id)) != 1;
	X509_free(id);
	X509_free(alias);
	ERR_clear_error();
	return missing;
}

ota_status_t ota_chain_verify(const struct ota_trust *t, const uint8_t *const certs[],
			      const size_t lens[], uint32_t count,
			      uint8_t leaf_pubkey[OTA_P256_PUBKEY_BYTES], char *why,
			      size_t why_len)
{
	return chain_verify(t, certs, lens, count, leaf_pubkey, why, why_len, NULL, NULL);
}

ota_status_t ota_chain_verify_cached(const struct ota_trust *t, const uint8_t *const certs[],
				     const size_t lens[], uint32_t count,
				     struct ota_chain_facts *facts, char *why, size_t why_len)
{
	struct chain_result res = { 0 };
	uint8_t key[OTA_SHA256_BYTES];
	time_t now = time(NULL);
	ota_status_t st;

	memset(facts, 0, sizeof(*facts));
	if (t == NULL || count == 0)
		return ota_chain_verify(t, certs, lens, count, facts->leaf_pubkey, why, why_len);
	ota_chain_key(certs, lens, count, key);
	if (ota_chain_cache_get(t->cache, key, now, facts)) {
		snprintf(why, why_len, "ok");
		return OTA_OK;
	}
	if (ota_fast_verify(t->fast, certs, lens, count, now, facts,
			    &res.not_before, &res.not_after)) {
		res.leaf = facts->leaf;
		st = OTA_OK;
		snprintf(why, why_len, "ok");
	} else {
		st = chain_verify(t, certs, lens, count, facts->leaf_pubkey, why, why_len, &res,
				  facts);
		if (st != OTA_OK)
			return st;
		facts->leaf = res.leaf;
	}
	if (t->crls_until && res.not_after > t->crls_until)
		res.not_after = t->crls_until; /* then the CRLs must be read again */
	if (facts->leaf && now >= res.not_before && now <= res.not_after)
		ota_chain_cache_put(t->cache, key, facts, res.not_before, res.not_after);
	return OTA_OK;
}

void ota_chain_facts_read(const uint8_t *const certs[], const size_t lens[], uint32_t count,
			  struct ota_chain_facts *facts)
{
	facts->alias_st = count ? ota_alias_cert_info(certs[0], lens[0], &facts->alias)
				: OTA_X509_MALFORMED;
	facts->identity_st = count >= 2 ? ota_identity_cert_info(certs[1], lens[1], certs[0], lens[0],
								 &facts->identity)
					: OTA_X509_MALFORMED;
}

void ota_trust_cache_stats(const struct ota_trust *t, uint64_t *hits, uint64_t *misses)
{
	ota_chain_cache_stats(t->cache, hits, misses);
}

void ota_trust_fast_stats(const struct ota_trust *t, struct ota_fast_stats *out)
{
	ota_fast_get_stats(t->fast, out);
}

struct ota_fast *ota_trust_fast(const struct ota_trust *t)
{
	return t->fast;
}
