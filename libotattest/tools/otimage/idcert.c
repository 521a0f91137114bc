// SPDX-License-Identifier: MIT
/*
 * otimage's certificate side, with OpenSSL 3's X509 and EVP APIs: the
 * manufacturer CA and the device identity certificates it issues. Names,
 * key identifiers and validity follow evidence.h, the same rules the
 * firmware's own DER writer follows for the alias certificate, so the
 * three certificates form one chain `openssl verify` accepts.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <otattest/evidence.h>
#include <otu/hex.h>

#include "idcert.h"

static const char not_before[] = "20250101000000Z";
static const char not_after[] = "99991231235959Z";

/* SKI/AKI: the first 20 bytes of SHA-256 of the uncompressed point. */
static bool key_id_of(EVP_PKEY *key, uint8_t out[OTA_CERT_KEY_ID_BYTES])
{
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES], h[32];
	unsigned int hl = 0;
	size_t n = 0;

	if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point,
					    sizeof(point), &n) != 1 ||
	    n != sizeof(point) || EVP_Digest(point, n, h, &hl, EVP_sha256(), NULL) != 1)
		return false;
	memcpy(out, h, OTA_CERT_KEY_ID_BYTES);
	return true;
}

static bool add_ext(X509 *cert, X509V3_CTX *ctx, int nid, const char *value)
{
	X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, ctx, nid, value);
	bool ok = ext && X509_add_ext(cert, ext, -1) == 1;

	X509_EXTENSION_free(ext);
	return ok;
}

static bool add_key_ids(X509 *cert, EVP_PKEY *subject, X509 *issuer)
{
	uint8_t id[OTA_CERT_KEY_ID_BYTES];
	ASN1_OCTET_STRING *ski = ASN1_OCTET_STRING_new();
	X509V3_CTX ctx;
	bool ok;

	ok = ski && key_id_of(subject, id) && ASN1_OCTET_STRING_set(ski, id, sizeof(id)) == 1 &&
	     X509_add1_ext_i2d(cert, NID_subject_key_identifier, ski, 0, X509V3_ADD_DEFAULT) == 1;
	ASN1_OCTET_STRING_free(ski);
	if (!ok)
		return false;
	/* AKI keyid from the issuer's SKI (for the self-signed CA: its own). */
	X509V3_set_ctx(&ctx, issuer ? issuer : cert, cert, NULL, NULL, 0);
	return add_ext(cert, &ctx, NID_authority_key_identifier, "keyid:always");
}

static bool set_name(X509_NAME *name, const char *cn)
{
	return X509_NAME_add_entry_by_NID(name, NID_organizationName, MBSTRING_UTF8,
					  (const unsigned char *)OTA_CERT_ORG, -1, -1, 0) == 1 &&
	       X509_NAME_add_entry_by_NID(name, NID_commonName, MBSTRING_UTF8,
					  (const unsigned char *)cn, -1, -1, 0) == 1;
}

static bool set_common(X509 *cert)
{
	uint8_t serial[16];
	BIGNUM *bn = NULL;
	bool ok;

	if (RAND_bytes(serial, sizeof(serial)) != 1)
		return false;
	serial[0] = (uint8_t)((serial[0] & 0x7f) | 0x40); /* positive, 16 bytes */
	bn = BN_bin2bn(serial, sizeof(serial), NULL);
	ok = bn && X509_set_version(cert, X509_VERSION_3) == 1 &&
	     BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert)) != NULL &&
	     ASN1_TIME_set_string_X509(X509_getm_notBefore(cert), not_before) == 1 &&
	     ASN1_TIME_set_string_X509(X509_getm_notAfter(cert), not_after) == 1;
	BN_free(bn);
	return ok;
}

ota_status_t otimage_ca_create(const char *common_name, EVP_PKEY **key, X509 **cert)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *c = X509_new();
	X509V3_CTX ctx;
	bool ok;

	*key = NULL;
	*cert = NULL;
	ok = k && c && set_common(c) && set_name(X509_get_subject_name(c), common_name) &&
	     X509_set_issuer_name(c, X509_get_subject_name(c)) == 1 && X509_set_pubkey(c, k) == 1;
	if (ok) {
		X509V3_set_ctx(&ctx, c, c, NULL, NULL, 0);
		ok = add_ext(c, &ctx, NID_basic_constraints, "critical,CA:TRUE,pathlen:1") &&
		     add_ext(c, &ctx, NID_key_usage, "critical,keyCertSign,cRLSign") &&
		     add_key_ids(c, k, NULL) && X509_sign(c, k, EVP_sha256()) > 0;
	}
	if (!ok) {
		EVP_PKEY_free(k);
		X509_free(c);
		return OTA_HOST_INTERNAL;
	}
	*key = k;
	*cert = c;
	return OTA_OK;
}

static EVP_PKEY *p256_from_raw(const uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES];
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *k = NULL;

	point[0] = 0x04;
	memcpy(point + 1, pub, OTA_P256_PUBKEY_BYTES);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point));
	params[2] = OSSL_PARAM_construct_end();
	if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(ctx);
	return k;
}

ota_status_t otimage_identity_cert_issue(EVP_PKEY *ca_key, X509 *ca_cert,
					 const uint8_t device_id[OTA_DEVICE_ID_BYTES],
					 const uint8_t identity_pub[OTA_P256_PUBKEY_BYTES],
					 X509 **out)
{
	/* "otattest identity " and the device id in hex: the CN the verifier parses. */
	char cn[sizeof(OTA_CERT_CN_IDENTITY) + 2 * OTA_DEVICE_ID_BYTES];
	EVP_PKEY *k;
	X509 *c;
	X509V3_CTX ctx;
	bool ok;

	*out = NULL;
	k = p256_from_raw(identity_pub);
	if (k == NULL)
		return OTA_SIG_BAD_PUBKEY;
	memcpy(cn, OTA_CERT_CN_IDENTITY, sizeof(OTA_CERT_CN_IDENTITY) - 1);
	otu_hex_encode(cn + sizeof(OTA_CERT_CN_IDENTITY) - 1, device_id, OTA_DEVICE_ID_BYTES);
	c = X509_new();
	ok = c && set_common(c) && set_name(X509_get_subject_name(c), cn) &&
	     X509_set_issuer_name(c, X509_get_subject_name(ca_cert)) == 1 &&
	     X509_set_pubkey(c, k) == 1;
	if (ok) {
		X509V3_set_ctx(&ctx, ca_cert, c, NULL, NULL, 0);
		/* pathlen 0: the identity key certifies end entities (the alias) only. */
		ok = add_ext(c, &ctx, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
		     add_ext(c, &ctx, NID_key_usage, "critical,keyCertSign") &&
		     add_key_ids(c, k, ca_cert) && X509_sign(c, ca_key, EVP_sha256()) > 0;
	}
	EVP_PKEY_free(k);
	if (!ok) {
		X509_free(c);
		return OTA_HOST_INTERNAL;
	}
	*out = c;
	return OTA_OK;
}

ota_status_t otimage_identity_cert_blob(X509 *cert, struct ota_identity_cert_blob *blob)
{
	unsigned char *p;
	int n = i2d_X509(cert, NULL);

	memset(blob, 0, sizeof(*blob));
	if (n <= 0)
		return OTA_HOST_INTERNAL;
	if ((unsigned)n > OTA_IDCERT_MAX_DER)
		return OTA_X509_BUFFER_FULL;
	p = blob->der;
	if (i2d_X509(cert, &p) != n)
		return OTA_HOST_INTERNAL;
	blob->magic = OTA_IDCERT_MAGIC;
	blob->der_length = (uint32_t)n;
	return OTA_OK;
}

ota_status_t otimage_write_pem_cert(const char *path, X509 *cert)
{
	FILE *f = fopen(path, "w");
	bool ok = f && PEM_write_X509(f, cert) == 1;

	if (f && fclose(f) != 0)
		ok = false;
	return ok ? OTA_OK : OTA_HOST_IO;
}

ota_status_t otimage_write_pem_key(const char *path, EVP_PKEY *key)
{
	FILE *f = fopen(path, "w");
	bool ok = f && PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL) == 1;

	if (f && fclose(f) != 0)
		ok = false;
	return ok ? OTA_OK : OTA_HOST_IO;
}

ota_status_t otimage_read_pem_cert(const char *path, X509 **cert)
{
	FILE *f = fopen(path, "r");

	*cert = NULL;
	if (f == NULL)
		return OTA_HOST_IO;
	*cert = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	return *cert ? OTA_OK : OTA_X509_MALFORMED;
}

ota_status_t otimage_read_pem_key(const char *path, EVP_PKEY **key)
{
	FILE *f = fopen(path, "r");

	*key = NULL;
	if (f == NULL)
		return OTA_HOST_IO;
	*key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	return *key ? OTA_OK : OTA_HOST_BAD_ARGUMENT;
}
