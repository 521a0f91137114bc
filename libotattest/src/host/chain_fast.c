// SPDX-License-Identifier: MIT
/*
 * The fast path for a chain first seen (chain_fast.h). What OpenSSL's
 * strict path validation (X509_verify_cert with X509_V_FLAG_X509_STRICT)
 * checks of an alias certificate under an identity certificate under a
 * root of the store, and where each is checked here:
 *
 *   DER, version, algorithms, key, names,      cert_view.c: the view, or
 *   extensions known, criticality, duplicates  no fast path at all
 *   leaf: not a CA, no pathlen, digital        alias_ok
 *   signature, no keyCertSign, an AKID
 *   CA: basicConstraints cA, keyCertSign,      identity_ok, anchor_ok
 *   SKID and AKID (not at the root), pathlen
 *   (the root's allows the identity under it)
 *   names chain, key ids chain, not            alias_ok, identity_ok, find_anchor
 *   self-issued, issuer found unambiguously    (and no_store_clash)
 *   validity at the time of checking           valid_at
 *   signatures                                 verify_tbs (EVP, as OpenSSL does)
 *   revocation of the identity (CRLs)          crl_of, not_revoked: one plain
 *                                              CRL of the root, checked at load
 *
 * Anything outside that (another shape, an intermediate, name
 * constraints, policies) is declined and OpenSSL decides.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "otattest/sha256.h"

#include "cert_read.h"
#include "cert_view.h"
#include "chain_fast.h"
#include "cose_key.h"

#define FAST_MAX_STORE 64u       /* a store with more certificates gets no fast path */
#define FAST_NAME_MAX 512u
#define FAST_SKID_MAX 64u
#define FAST_IDENTITY_SLOTS 4096u

struct store_cert {
	uint8_t subject[FAST_NAME_MAX]; /* DER; subject_len 0: too long to keep */
	size_t subject_len;
	bool anchor;                    /* usable as the root of a fast chain */
	uint8_t skid[FAST_SKID_MAX];
	size_t skid_len;
	time_t not_before, not_after;
	EVP_PKEY *key;                  /* anchors only */
	X509_CRL *crl;                  /* the anchor's one plain CRL, signature checked; or NULL */
	time_t crl_this, crl_next;
};

struct identity_entry {
	uint8_t hash[OTA_SHA256_BYTES];
	EVP_PKEY *key;
	time_t not_before, not_after;
};

struct ota_fast {
	pthread_mutex_t lock;
	/* the store's certificates: set before verifying starts, read-only after */
	bool usable;
	bool crls; /* the store has CRLs: an identity needs its root's plain CRL (crl_of) */
	uint32_t store_count;
	struct store_cert store[FAST_MAX_STORE];
	struct identity_entry *slot[FAST_IDENTITY_SLOTS]; /* under lock */
	struct ota_fast_stats stats;                      /* under lock */
};

struct ota_fast *ota_fast_new(void)
{
	struct ota_fast *f = calloc(1, sizeof(*f));

	if (f && pthread_mutex_init(&f->lock, NULL) != 0) {
		free(f);
		f = NULL;
	}
	return f;
}

static void clear_store(struct ota_fast *f)
{
	for (uint32_t i = 0; i < f->store_count; i++) {
		EVP_PKEY_free(f->store[i].key);
		X509_CRL_free(f->store[i].crl);
	}
	memset(f->store, 0, sizeof(f->store));
	f->store_count = 0;
	f->usable = false;
}

void ota_fast_forget(struct ota_fast *f)
{
	pthread_mutex_lock(&f->lock);
	for (uint32_t i = 0; i < FAST_IDENTITY_SLOTS; i++) {
		if (f->slot[i])
			EVP_PKEY_free(f->slot[i]->key);
		free(f->slot[i]);
		f->slot[i] = NULL;
	}
	pthread_mutex_unlock(&f->lock);
}

void ota_fast_free(struct ota_fast *f)
{
	if (f == NULL)
		return;
	ota_fast_forget(f);
	clear_store(f);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/* valid at now, strictly inside its period (OpenSSL: notBefore <= now < notAfter) */
static bool valid_at(time_t not_before, time_t not_after, time_t now)
{
	return not_before < now && now < not_after;
}

/* The signature on a certificate's TBS by key, as OpenSSL's X509_verify checks it. */
static bool verify_tbs(const struct ota_cert_view *v, EVP_PKEY *key)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	bool ok = md && EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key) == 1 &&
		  EVP_DigestVerify(md, v->sig.p, v->sig.n, v->tbs.p, v->tbs.n) == 1;

	EVP_MD_CTX_free(md);
	return ok;
}

/* A root the fast path may use: a self-signed CA in the profile, its root-position rules. */
static bool anchor_ok(const struct ota_cert_view *v, EVP_PKEY *key)
{
	return v->ca && (v->key_usage & OTA_KU_KEY_CERT_SIGN) && v->skid.p &&
	       (v->pathlen == -1 || v->pathlen >= 1) && der_eq(&v->issuer, v->subject.p, v->subject.n) &&
	       (v->akid.p == NULL || der_eq(&v->akid, v->skid.p, v->skid.n)) && v->tcb_info.p == NULL &&
	       v->skid.n <= FAST_SKID_MAX && verify_tbs(v, key);
}

/*
 * A CRL the fast path reads as OpenSSL would: version 1 or 2, a next
 * update, no extension but a non-critical authority key id (the root's)
 * and CRL number - so no scope, delta or critical one - and entries
 * without extensions (no reasons, so no removeFromCRL), signed by the
 * root, whose key usage allows CRL signing.
 */
static bool crl_plain(X509_CRL *crl, const struct store_cert *root, X509 *root_cert)
{
	STACK_OF(X509_REVOKED) *revoked = X509_CRL_get_REVOKED(crl);
	AUTHORITY_KEYID *a;
	ASN1_INTEGER *number;
	int i, nid, crit = 0;
	bool ok;

	if (!(X509_get_key_usage(root_cert) & KU_CRL_SIGN) || X509_CRL_get0_nextUpdate(crl) == NULL ||
	    X509_CRL_verify(crl, root->key) != 1)
		return false;
	for (i = 0; i < X509_CRL_get_ext_count(crl); i++) {
		X509_EXTENSION *e = X509_CRL_get_ext(crl, i);

		nid = OBJ_obj2nid(X509_EXTENSION_get_object(e));
		if (X509_EXTENSION_get_critical(e) ||
		    (nid != NID_authority_key_identifier && nid != NID_crl_number))
			return false;
	}
	a = X509_CRL_get_ext_d2i(crl, NID_authority_key_identifier, &crit, NULL);
	if (a == NULL && crit != -1)
		return false; /* present and not decodable, or twice */
	if (a != NULL) {
		/* A key id only, the root's. */
		ok = a->issuer == NULL && a->serial == NULL && a->keyid != NULL &&
		     (size_t)ASN1_STRING_length(a->keyid) == root->skid_len &&
		     !memcmp(ASN1_STRING_get0_data(a->keyid), root->skid, root->skid_len);
		AUTHORITY_KEYID_free(a);
		if (!ok)
			return false;
	}
	number = X509_CRL_get_ext_d2i(crl, NID_crl_number, &crit, NULL);
	ok = number != NULL || crit == -1; /* absent, or there once and decodable */
	ASN1_INTEGER_free(number);
	if (!ok)
		return false;
	for (i = 0; i < sk_X509_REVOKED_num(revoked); i++)
		if (X509_REVOKED_get_ext_count(sk_X509_REVOKED_value(revoked, i)) != 0)
			return false;
	return true;
}

/*
 * Each root's CRL, when the store has CRLs: exactly one for its name, and
 * plain; a root with none, or more (OpenSSL would pick one by its own
 * score), gets no fast path for identities it has not seen.
 */
static void set_crls(struct ota_fast *f, X509_STORE *store, X509 *const certs[])
{
	STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(store);
	uint32_t i;
	int k;

	f->crls = false;
	for (k = 0; objs && k < sk_X509_OBJECT_num(objs); k++)
		if (X509_OBJECT_get0_X509_CRL(sk_X509_OBJECT_value(objs, k)))
			f->crls = true;
	for (i = 0; f->crls && i < f->store_count; i++) {
		struct store_cert *s = &f->store[i];
		X509_CRL *only = NULL;
		int found = 0;

		if (!s->anchor)
			continue;
		for (k = 0; k < sk_X509_OBJECT_num(objs); k++) {
			X509_CRL *c = X509_OBJECT_get0_X509_CRL(sk_X509_OBJECT_value(objs, k));

			if (c && X509_NAME_cmp(X509_CRL_get_issuer(c),
					       X509_get_subject_name(certs[i])) == 0) {
				only = c;
				found++;
			}
		}
		if (found == 1 && crl_plain(only, s, certs[i]) &&
		    ota_asn1_seconds(X509_CRL_get0_lastUpdate(only), &s->crl_this) &&
		    ota_asn1_seconds(X509_CRL_get0_nextUpdate(only), &s->crl_next) &&
		    X509_CRL_up_ref(only) == 1)
			s->crl = only;
	}
}

/* The identity is not on its root's CRL, which is current: or no CRL is asked for. */
static bool not_revoked(const struct ota_fast *f, const struct store_cert *root,
			const struct ota_cert_view *id, time_t now)
{
	const unsigned char *p = id->serial.p;
	ASN1_INTEGER *serial;
	X509_REVOKED *entry = NULL;
	bool ok;

	if (!f->crls)
		return true;
	/* OpenSSL: lastUpdate <= now < nextUpdate; strictly inside here. */
	if (root->crl == NULL || !(root->crl_this < now && now < root->crl_next))
		return false;
	serial = d2i_ASN1_INTEGER(NULL, &p, (long)id->serial.n);
	ok = serial != NULL && X509_CRL_get0_by_serial(root->crl, &entry, serial) == 0;
	ASN1_INTEGER_free(serial);
	return ok;
}

void ota_fast_set_anchors(struct ota_fast *f, X509_STORE *store)
{
	STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(store);
	X509 *certs[FAST_MAX_STORE];
	uint32_t n = 0, i, j;
	int k;

	clear_store(f);
	for (k = 0; objs && k < sk_X509_OBJECT_num(objs); k++) {
		X509 *x = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objs, k));

		if (x == NULL)
			continue; /* a CRL */
		if (n == FAST_MAX_STORE)
			return; /* unusable: too many to compare every evidence's names against */
		certs[n++] = x;
	}
	for (i = 0; i < n; i++) {
		struct store_cert *s = &f->store[i];
		unsigned char *der = NULL;
		struct ota_cert_view v;
		const unsigned char *name = NULL;
		size_t name_len = 0;
		int len = i2d_X509(certs[i], &der);
		bool unique = true;

		/* Every certificate's name, in the profile or not, for no_store_clash. */
		if (X509_NAME_get0_der(X509_get_subject_name(certs[i]), &name, &name_len) == 1 &&
		    name_len <= FAST_NAME_MAX) {
			memcpy(s->subject, name, name_len);
			s->subject_len = name_len;
		}

		/* A name another certificate of the store has too: OpenSSL might take either. */
		for (j = 0; j < n; j++)
			if (j != i && X509_NAME_cmp(X509_get_subject_name(certs[i]),
						    X509_get_subject_name(certs[j])) == 0)
				unique = false;
		if (len > 0 && ota_cert_view_parse(der, (size_t)len, &v) &&
		    der_eq(&v.subject, s->subject, s->subject_len)) {
			s->not_before = v.not_before;
			s->not_after = v.not_after;
			s->key = X509_get_pubkey(certs[i]);
			s->anchor = unique && s->key && anchor_ok(&v, s->key);
			if (s->anchor) {
				memcpy(s->skid, v.skid.p, v.skid.n);
				s->skid_len = v.skid.n;
			} else {
				EVP_PKEY_free(s->key);
				s->key = NULL;
			}
		}
		OPENSSL_free(der);
	}
	f->store_count = n;
	f->usable = true;
	set_crls(f, store, certs);
}

/*
 * No certificate of the store has this name (as OpenSSL compares names):
 * otherwise OpenSSL could take it as the issuer, or the leaf itself as
 * trusted, instead of the chain checked here. A store name outside the
 * view's names cannot be compared, and declines too.
 */
static bool no_store_clash(const struct ota_fast *f, const struct der *name)
{
	for (uint32_t i = 0; i < f->store_count; i++) {
		const struct store_cert *s = &f->store[i];

		if (s->subject_len == 0 || ota_cert_names_cmp(s->subject, s->subject_len, name->p,
							      name->n) != OTA_NAMES_DIFFERENT)
			return false;
	}
	return true;
}

/* The store's root that issued id: its name byte for byte and its key id. */
static const struct store_cert *find_anchor(const struct ota_fast *f,
					    const struct ota_cert_view *id)
{
	for (uint32_t i = 0; i < f->store_count; i++) {
		const struct store_cert *s = &f->store[i];

		if (s->anchor && der_eq(&id->issuer, s->subject, s->subject_len) &&
		    der_eq(&id->akid, s->skid, s->skid_len))
			return s;
	}
	return NULL;
}

/* The leaf: an end-entity signing certificate issued by id, by name and key id. */
static bool alias_ok(const struct ota_fast *f, const struct ota_cert_view *a,
		     const struct ota_cert_view *id, time_t now)
{
	return !a->ca && a->pathlen == -1 && (a->key_usage & OTA_KU_DIGITAL_SIGNATURE) &&
	       !(a->key_usage & OTA_KU_KEY_CERT_SIGN) && a->akid.p && id->skid.p &&
	       der_eq(&a->akid, id->skid.p, id->skid.n) &&
	       der_eq(&a->issuer, id->subject.p, id->subject.n) &&
	       ota_cert_names_cmp(a->subject.p, a->subject.n, a->issuer.p, a->issuer.n) ==
		       OTA_NAMES_DIFFERENT &&
	       no_store_clash(f, &a->subject) && valid_at(a->not_before, a->not_after, now);
}

/* An identity's own shape: a CA that may sign certificates, with both key ids. */
static bool identity_shape(const struct ota_cert_view *id)
{
	return id->ca && (id->key_usage & OTA_KU_KEY_CERT_SIGN) && id->skid.p && id->akid.p &&
	       id->tcb_info.p == NULL;
}

/* The identity: its shape, not self-issued, no store name, valid now. */
static bool identity_ok(const struct ota_fast *f, const struct ota_cert_view *id, time_t now)
{
	return identity_shape(id) &&
	       ota_cert_names_cmp(id->subject.p, id->subject.n, id->issuer.p, id->issuer.n) ==
		       OTA_NAMES_DIFFERENT &&
	       no_store_clash(f, &id->subject) && valid_at(id->not_before, id->not_after, now);
}

static unsigned int slot_of(const uint8_t hash[OTA_SHA256_BYTES])
{
	return ((unsigned int)hash[0] | (unsigned int)hash[1] << 8) % FAST_IDENTITY_SLOTS;
}

/* A remembered identity's key (a new reference) and period, valid at now; NULL otherwise. */
static EVP_PKEY *identity_get(struct ota_fast *f, const uint8_t hash[OTA_SHA256_BYTES],
			      time_t now, time_t *not_before, time_t *not_after)
{
	struct identity_entry *e;
	EVP_PKEY *key = NULL;

	pthread_mutex_lock(&f->lock);
	e = f->slot[slot_of(hash)];
	if (e && !memcmp(e->hash, hash, OTA_SHA256_BYTES) &&
	    valid_at(e->not_before, e->not_after, now) && EVP_PKEY_up_ref(e->key) == 1) {
		key = e->key;
		*not_before = e->not_before;
		*not_after = e->not_after;
	}
	pthread_mutex_unlock(&f->lock);
	return key;
}

static void identity_put(struct ota_fast *f, const uint8_t hash[OTA_SHA256_BYTES], EVP_PKEY *key,
			 time_t not_before, time_t not_after)
{
	struct identity_entry *e = malloc(sizeof(*e)), *old;

	if (e == NULL || EVP_PKEY_up_ref(key) != 1) {
		free(e);
		return;
	}
	memcpy(e->hash, hash, OTA_SHA256_BYTES);
	e->key = key;
	e->not_before = not_before;
	e->not_after = not_after;
	pthread_mutex_lock(&f->lock);
	old = f->slot[slot_of(hash)];
	f->slot[slot_of(hash)] = e;
	pthread_mutex_unlock(&f->lock);
	if (old)
		EVP_PKEY_free(old->key);
	free(old);
}

void ota_fast_put_identity(struct ota_fast *f, const uint8_t *der, size_t len, EVP_PKEY *key,
			   time_t not_before, time_t not_after)
{
	uint8_t hash[OTA_SHA256_BYTES];
	struct ota_cert_view id;

	/* Only what the fast path would read the same way: the view, and an identity's shape. */
	if (f == NULL || key == NULL || !ota_cert_view_parse(der, len, &id) || !identity_shape(&id))
		return;
	ota_sha256(der, len, hash);
	identity_put(f, hash, key, not_before, not_after);
}

static time_t later(time_t a, time_t b)
{
	return a > b ? a : b;
}

static time_t sooner(time_t a, time_t b)
{
	return a < b ? a : b;
}

/* What trust.c's chain_facts reads after OpenSSL's validation, from the views. */
static void fast_facts(const struct ota_cert_view *a, const struct ota_cert_view *id,
		       struct ota_chain_facts *facts)
{
	memcpy(facts->leaf_pubkey, a->pubkey, OTA_P256_PUBKEY_BYTES);
	facts->alias_st = ota_alias_info_from_parts(
		(const char *)a->subject_cn.p, a->subject_cn.n, (const char *)a->issuer_cn.p,
		a->issuer_cn.n, a->tcb_info.p, a->tcb_info.n, &facts->alias);
	facts->identity_st = OTA_OK;
	memset(&facts->identity, 0, sizeof(facts->identity));
	facts->identity.has_device_id =
		id->subject_cn.p && ota_cert_cn_device_id((const char *)id->subject_cn.p,
							  id->subject_cn.n, OTA_CERT_CN_IDENTITY,
							  facts->identity.device_id);
	facts->identity.issued_alias = true; /* names, key ids and signature: alias_ok, verify_tbs */
}

bool ota_fast_verify(struct ota_fast *f, const uint8_t *const certs[],
		     const size_t lens[], uint32_t n, time_t now,
		     struct ota_chain_facts *facts, time_t *not_before, time_t *not_after)
{
	struct ota_cert_view a, id;
	const struct store_cert *root;
	uint8_t hash[OTA_SHA256_BYTES];
	EVP_PKEY *id_key = NULL, *leaf = NULL;
	time_t nb = 0, na = 0;
	bool fresh = false;

	if (f == NULL || !f->usable || n != 2 || !ota_cert_view_parse(certs[0], lens[0], &a) ||
	    !ota_cert_view_parse(certs[1], lens[1], &id) || !alias_ok(f, &a, &id, now) ||
	    !identity_ok(f, &id, now))
		goto declined;
	ota_sha256(certs[1], lens[1], hash);
	id_key = identity_get(f, hash, now, &nb, &na);
	if (id_key == NULL) {
		/* First seen: under a root of the store, and not on its CRL when there are CRLs. */
		root = find_anchor(f, &id);
		if (root == NULL || !valid_at(root->not_before, root->not_after, now) ||
		    !not_revoked(f, root, &id, now) || !verify_tbs(&id, root->key) ||
		    (id_key = ota_p256_public_key(id.pubkey)) == NULL)
			goto declined;
		nb = later(id.not_before, root->not_before);
		na = sooner(id.not_after, root->not_after);
		if (f->crls)
			na = sooner(na, root->crl_next); /* then the CRL must be read again */
		identity_put(f, hash, id_key, nb, na);
		fresh = true;
	}
	if (!verify_tbs(&a, id_key) || (leaf = ota_p256_public_key(a.pubkey)) == NULL)
		goto declined;
	EVP_PKEY_free(id_key);
	fast_facts(&a, &id, facts);
	facts->leaf = leaf;
	*not_before = later(nb, a.not_before);
	*not_after = sooner(na, a.not_after);
	pthread_mutex_lock(&f->lock);
	f->stats.accepted++;
	f->stats.identities += fresh;
	pthread_mutex_unlock(&f->lock);
	return true;
declined:
	EVP_PKEY_free(id_key);
	if (f) {
		pthread_mutex_lock(&f->lock);
		f->stats.declined++;
		pthread_mutex_unlock(&f->lock);
	}
	return false;
}

void ota_fast_get_stats(struct ota_fast *f, struct ota_fast_stats *out)
{
	pthread_mutex_lock(&f->lock);
	*out = f->stats;
	pthread_mutex_unlock(&f->lock);
}
