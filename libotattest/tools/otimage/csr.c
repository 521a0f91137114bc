// SPDX-License-Identifier: MIT
/*
 * The manufacturer CA's check of a device's certificate request (otimage
 * ca-sign). The request comes off a device on the factory line: it is
 * taken apart with OpenSSL's own PKCS#10 parser and believed only as far
 * as it proves itself -
 *
 *   - one DER CertificationRequest, version 1, nothing after it;
 *   - a P-256 key (what the device's identity key is, evidence.h);
 *   - signed ECDSA with SHA-256 by that very key (X509_REQ_verify): the
 *     device holds the private key of what it asks to have certified;
 *   - subject exactly O=otattest, CN=otattest identity <32 hex digits>,
 *     each a UTF8String in its own RDN: the name the firmware gives the
 *     identity key when it names it as the alias certificate's issuer.
 *
 * Attributes (extension requests) are not looked at: the identity
 * certificate's profile is the CA's (idcert.c), not the requester's.
 */
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/objects.h>
#include <openssl/pem.h>

#include <otattest/evidence.h>

#include "idcert.h"
#include "otimage.h"

/* One DER request, or a single PEM "CERTIFICATE REQUEST" block. */
static X509_REQ *csr_parse(const uint8_t *buf, size_t len)
{
	const unsigned char *p = buf;
	X509_REQ *req;
	BIO *bio;

	if (len > 10 && memcmp(buf, "-----BEGIN", 10) == 0) {
		bio = BIO_new_mem_buf(buf, (int)len);
		req = bio ? PEM_read_bio_X509_REQ(bio, NULL, NULL, NULL) : NULL;
		BIO_free(bio);
		return req;
	}
	req = d2i_X509_REQ(NULL, &p, (long)len);
	if (req && p != buf + len) { /* trailing bytes: not one request */
		X509_REQ_free(req);
		req = NULL;
	}
	return req;
}

/* X || Y of a P-256 key; TOOL_KEY_NOT_P256 for any other key. */
static ota_status_t p256_raw(EVP_PKEY *key, uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	char group[32];
	BIGNUM *x = NULL, *y = NULL;
	bool ok;

	if (!EVP_PKEY_is_a(key, "EC") ||
	    EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
					   NULL) != 1 ||
	    strcmp(group, "prime256v1") != 0)
		return OTA_TOOL_KEY_NOT_P256;
	ok = EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, &x) == 1 &&
	     EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, &y) == 1 &&
	     BN_bn2binpad(x, pub, 32) == 32 && BN_bn2binpad(y, pub + 32, 32) == 32;
	BN_free(x);
	BN_free(y);
	return ok ? OTA_OK : OTA_TOOL_CRYPTO;
}

/* Entry i of the name, alone in its RDN, of type nid, as UTF8String text. */
static const ASN1_STRING *name_part(const X509_NAME *name, int i, int nid)
{
	const X509_NAME_ENTRY *e = X509_NAME_get_entry(name, i);
	const ASN1_STRING *v;

	if (e == NULL || X509_NAME_ENTRY_set(e) != i ||
	    OBJ_obj2nid(X509_NAME_ENTRY_get_object(e)) != nid)
		return NULL;
	v = X509_NAME_ENTRY_get_data(e);
	return ASN1_STRING_type(v) == V_ASN1_UTF8STRING ? v : NULL;
}

static bool lower_hex(const uint8_t *s, size_t n, uint8_t *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		const char *hi = memchr(digits, s[2 * i], 16), *lo = memchr(digits, s[2 * i + 1], 16);

		if (!hi || !lo)
			return false;
		out[i] = (uint8_t)((hi - digits) << 4 | (lo - digits));
	}
	return true;
}

/* O=otattest, CN=otattest identity <id>: nothing more, nothing else. */
static bool subject_device_id(const X509_NAME *name, uint8_t id[OTA_DEVICE_ID_BYTES])
{
	static const size_t prefix = sizeof(OTA_CERT_CN_IDENTITY) - 1u;
	const ASN1_STRING *o, *cn;

	if (X509_NAME_entry_count(name) != 2)
		return false;
	o = name_part(name, 0, NID_organizationName);
	cn = name_part(name, 1, NID_commonName);
	if (!o || !cn || ASN1_STRING_length(o) != (int)sizeof(OTA_CERT_ORG) - 1 ||
	    memcmp(ASN1_STRING_get0_data(o), OTA_CERT_ORG, sizeof(OTA_CERT_ORG) - 1u) != 0 ||
	    ASN1_STRING_length(cn) != (int)(prefix + 2u * OTA_DEVICE_ID_BYTES) ||
	    memcmp(ASN1_STRING_get0_data(cn), OTA_CERT_CN_IDENTITY, prefix) != 0)
		return false;
	return lower_hex(ASN1_STRING_get0_data(cn) + prefix, OTA_DEVICE_ID_BYTES, id);
}

ota_status_t otimage_csr_check(const uint8_t *buf, size_t len,
			       uint8_t device_id[OTA_DEVICE_ID_BYTES],
			       uint8_t pub[OTA_P256_PUBKEY_BYTES], struct oti_diag *d)
{
	X509_REQ *req = csr_parse(buf, len);
	EVP_PKEY *key;
	ota_status_t st;
	int nid;

	if (req == NULL)
		return oti_diag_set(d, OTA_TOOL_CSR_MALFORMED, NULL, "csr", NULL);
	if (X509_REQ_get_version(req) != X509_REQ_VERSION_1) {
		st = oti_diag_set(d, OTA_TOOL_CSR_MALFORMED, NULL, "csr.version", "not version 1");
		goto out;
	}
	key = X509_REQ_get0_pubkey(req);
	st = key ? p256_raw(key, pub) : OTA_TOOL_KEY_NOT_P256;
	if (st != OTA_OK) {
		oti_diag_set(d, st, NULL, "csr.subjectPKInfo", NULL);
		goto out;
	}
	nid = X509_REQ_get_signature_nid(req);
	if (nid != NID_ecdsa_with_SHA256) {
		st = oti_diag_set(d, OTA_TOOL_CSR_SIGNATURE, NULL, "csr.signatureAlgorithm",
				  "%s, the device signs ecdsa-with-SHA256",
				  nid == NID_undef ? "unknown" : OBJ_nid2sn(nid));
		goto out;
	}
	if (X509_REQ_verify(req, key) != 1) {
		st = oti_diag_set(d, OTA_TOOL_CSR_SIGNATURE, NULL, "csr.signature", NULL);
		goto out;
	}
	if (!subject_device_id(X509_REQ_get_subject_name(req), device_id)) {
		st = oti_diag_set(d, OTA_TOOL_CSR_SUBJECT, NULL, "csr.subject",
				  "expected O=%s, CN=%s<32 lower-case hex digits>", OTA_CERT_ORG,
				  OTA_CERT_CN_IDENTITY);
		goto out;
	}
	st = OTA_OK;
out:
	X509_REQ_free(req);
	return st;
}
