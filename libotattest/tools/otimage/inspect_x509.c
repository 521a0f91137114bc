// SPDX-License-Identifier: MIT
/*
 * inspect: X.509 certificates, DER or PEM. otimage writes two kinds (the
 * manufacturer CA from `otimage ca`, PEM; the device identity certificate
 * from `otimage ca-sign`, DER) and a device issues a
 * third (the alias certificate in its evidence). OpenSSL parses; this
 * describes what a person checking a provisioning run wants to see: the
 * names, whether it is a CA and how deep it may delegate, the key (also
 * by otattest key id), and for a device's certificates the device id and,
 * for an alias certificate, everything it certifies: the device state and
 * each booted stage's check, its signers by name where a key names file
 * names them.
 *
 * Nothing here verifies a signature: that needs a trust anchor, which is
 * otattest-verify's and `openssl verify`'s business.
 */
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <otattest/evidence.h>
#include <otattest/keys.h>
#include <otattest/verify.h>
#include <otu/keynames.h>

#include "inspect.h"

/* One name as an RFC 2253 string ("CN=...,O=otattest"). */
static void print_name(struct oti_out *o, const char *key, const X509_NAME *n)
{
	BIO *b = BIO_new(BIO_s_mem());
	char buf[512];
	int len;

	buf[0] = '\0';
	if (b && X509_NAME_print_ex(b, n, 0, XN_FLAG_RFC2253) >= 0) {
		len = BIO_read(b, buf, sizeof(buf) - 1);
		buf[len > 0 ? len : 0] = '\0';
	}
	BIO_free(b);
	oti_out_str(o, key, buf);
}

static void print_time(struct oti_out *o, const char *key, const ASN1_TIME *t)
{
	struct tm tm;
	char buf[32];

	if (!t || !ASN1_TIME_to_tm(t, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, sizeof(buf), "invalid");
	oti_out_str(o, key, buf);
}

static void print_key_usage(struct oti_out *o, X509 *c)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} bits[] = {
		{ KU_DIGITAL_SIGNATURE, "digitalSignature" }, { KU_NON_REPUDIATION, "nonRepudiation" },
		{ KU_KEY_ENCIPHERMENT, "keyEncipherment" },   { KU_DATA_ENCIPHERMENT, "dataEncipherment" },
		{ KU_KEY_AGREEMENT, "keyAgreement" },         { KU_KEY_CERT_SIGN, "keyCertSign" },
		{ KU_CRL_SIGN, "cRLSign" },                   { KU_ENCIPHER_ONLY, "encipherOnly" },
		{ KU_DECIPHER_ONLY, "decipherOnly" },
	};
	uint32_t ku = X509_get_key_usage(c);
	size_t i;

	oti_out_array(o, "key_usage");
	if (ku != UINT32_MAX) /* UINT32_MAX: no keyUsage extension */
		for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			if (ku & bits[i].bit)
				oti_out_str(o, NULL, bits[i].name);
	oti_out_array_end(o);
}

/* A P-256 key as otimage shows keys everywhere: X || Y and its key id. */
static void print_public_key(struct oti_out *o, X509 *c)
{
	EVP_PKEY *k = X509_get0_pubkey(c);
	uint8_t point[65], id[OTA_KEY_ID_BYTES];
	char group[32];
	size_t n = 0;

	if (k && EVP_PKEY_is_a(k, "EC") &&
	    EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
					   NULL) == 1 &&
	    strcmp(group, "prime256v1") == 0 &&
	    EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point,
					    sizeof(point), &n) == 1 &&
	    n == sizeof(point) && point[0] == 0x04) {
		oti_out_str(o, "key_algorithm", "ecdsa-p256");
		ota_key_id(point + 1, id);
		oti_out_hex(o, "key_id", id, sizeof(id));
		oti_out_hex(o, "ecdsa_public_key", point + 1, OTA_P256_PUBKEY_BYTES);
		return;
	}
	oti_out_str(o, "key_algorithm", k ? EVP_PKEY_get0_type_name(k) : "unknown");
}

/* "otattest identity <32 hex digits>": the device id, or false. */
static bool cn_device_id(const char *cn, const char *prefix, uint8_t id[OTA_DEVICE_ID_BYTES])
{
	size_t plen = strlen(prefix);

	return strncmp(cn, prefix, plen) == 0 && strlen(cn + plen) == 2u * OTA_DEVICE_ID_BYTES &&
	       oti_parse_hex(cn + plen, id, OTA_DEVICE_ID_BYTES) == OTA_OK;
}

/*
 * The update state DeviceState version 2 certifies (issue 28): as the
 * record's inspect names it; refused_slots lists each refused attempt's
 * stage and slot ("bl0-b"), or "none".
 */
static void print_update_state(struct oti_out *o, const struct ota_update_claims *u)
{
	char slots[64] = "";
	uint32_t bit;

	for (bit = 0; bit < OTA_STAGE_COUNT * OTA_SLOT_COUNT; bit++)
		if (u->refused_slots & (1u << bit))
			snprintf(slots + strlen(slots), sizeof(slots) - strlen(slots), "%s%s-%c",
				 slots[0] ? "," : "", ota_stage_name(bit / OTA_SLOT_COUNT + 1u),
				 'a' + (int)(bit % OTA_SLOT_COUNT));
	oti_out_str(o, "reset_reason", ota_reset_reason_name(u->reset_reason));
	oti_out_str(o, "update_state", u->state == OTA_UPDATE_CLAIM_TRIAL ? "trial" : "committed");
	oti_out_str(o, "primary_slot", u->primary_slot ? "b" : "a");
	oti_out_str(o, "booted_slot", u->booted_slot ? "b" : "a");
	oti_out_u64(o, "revocation_sequence", u->revocation_seq);
	oti_out_u64(o, "revocation_sequence_device", u->revocation_seq_device);
	oti_out_u64(o, "trial_boots", u->trial_boots);
	oti_out_str(o, "revert_reason", ota_revert_reason_name(u->revert_reason));
	if (u->revert_reason)
		oti_out_str(o, "reverted_slot", u->reverted_slot ? "b" : "a");
	oti_out_u64(o, "refused_attempts", u->refused_count);
	oti_out_str(o, "refused_slots", slots[0] ? slots : "none");
}

/* The device state the ROM's entry certifies (DeviceState, docs/evidence.md). */
static void print_device_state(struct oti_out *o, const struct ota_cert_device *dev)
{
	oti_out_begin(o, "device_state");
	oti_out_str(o, "lifecycle", ota_lifecycle_name(dev->lifecycle));
	oti_out_u64(o, "epoch", dev->epoch);
	oti_out_u64(o, "min_svn", dev->min_svn);
	oti_out_u64(o, "floor_rom_ext", dev->floor_rom_ext);
	oti_out_u64(o, "floor_bl0", dev->floor_bl0);
	oti_out_u64(o, "chain_max_svn", dev->chain_max_svn);
	oti_out_u64(o, "tag_key_version", dev->tag_key_version);
	oti_out_hex(o, "rom_identity", dev->rom_identity, sizeof(dev->rom_identity));
	oti_out_hexnum(o, "dice_flags", dev->flags);
	print_update_state(o, &dev->update);
	oti_out_end(o);
}

/*
 * One booted stage: SVN and measurement, and with results what its check
 * decided (StageResults), named as the boot record's inspect names them;
 * its signers in full and by name, or short hex (docs/keynames.md).
 */
static void print_stage(struct oti_out *o, const struct ota_cert_tcb *t, bool results)
{
	char shorthex[OTU_KEYID_SHORT_HEX + 1];
	uint32_t k;

	oti_out_begin(o, NULL);
	oti_out_str(o, "stage", ota_stage_name(t->stage));
	oti_out_u64(o, "svn", t->svn);
	oti_out_hex(o, "measurement", t->measurement, sizeof(t->measurement));
	if (results) {
		oti_out_str(o, "path", ota_path_name(t->path));
		oti_out_str(o, "path_reason", ota_path_reason_name(t->path_reason));
		oti_out_str(o, "scheme", ota_scheme_name(t->sig_scheme));
		oti_out_u64(o, "delegation_depth", t->depth);
		oti_out_u64(o, "tag_key_version", t->tag_key_version);
		oti_out_str(o, "usage_flags", oti_caps_str(t->usage_flags));
		oti_out_bool(o, "debug", t->usage_flags & OTA_CAP_DEBUG);
		oti_out_array(o, "key_ids");
		for (k = 0; k < t->key_id_count; k++)
			oti_out_hex(o, NULL, t->key_ids[k], OTA_KEY_ID_BYTES);
		oti_out_array_end(o);
		oti_out_array(o, "keys");
		for (k = 0; k < t->key_id_count; k++)
			oti_out_str(o, NULL,
				    otu_keynames_display(o->key_names, t->key_ids[k], shorthex,
							 sizeof(shorthex)));
		oti_out_array_end(o);
	}
	oti_out_end(o);
}

/*
 * An alias certificate: what ROM_EXT certified, read by the verifiers'
 * own parser (ota_alias_cert_info). One that names itself an alias but
 * whose TCB info does not parse is refused, saying whether it is another
 * profile's: shown as role "other" it would hide what it claims to be.
 */
static ota_status_t print_alias(struct oti_out *o, const uint8_t *der, size_t der_len,
				const uint8_t id[OTA_DEVICE_ID_BYTES], struct oti_diag *d)
{
	struct ota_alias_info info;
	uint32_t i;

	if (ota_alias_cert_info(der, der_len, &info) != OTA_OK) {
		if (info.other_version == 1 && info.other_is_device_state)
			return oti_diag_set(d, OTA_X509_MALFORMED, NULL, "x509.multi_tcb_info",
					    "DeviceState version 1, from firmware before the update "
					    "state was certified: otimage reads version %u",
					    OTA_TCB_INFO_VERSION);
		if (info.other_version == 1)
			return oti_diag_set(d, OTA_X509_MALFORMED, NULL, "x509.multi_tcb_info",
					    "StageResults version 1, from firmware before pathReason "
					    "and usageFlags: otimage reads version %u",
					    OTA_TCB_RESULTS_VERSION);
		if (info.other_version)
			return oti_diag_set(d, OTA_X509_MALFORMED, NULL, "x509.multi_tcb_info",
					    "DeviceState or StageResults version %u: otimage reads "
					    "DeviceState %u and StageResults %u",
					    info.other_version, OTA_TCB_INFO_VERSION,
					    OTA_TCB_RESULTS_VERSION);
		return oti_diag_set(d, OTA_X509_MALFORMED, NULL, "x509.multi_tcb_info",
				    "the alias certificate's TCB info does not have the shape "
				    "docs/evidence.md gives");
	}
	oti_out_str(o, "role", "alias");
	oti_out_hex(o, "device_id", id, OTA_DEVICE_ID_BYTES);
	if (info.has_issuer_device_id)
		oti_out_hex(o, "issuer_device_id", info.issuer_device_id,
			    sizeof(info.issuer_device_id));
	oti_out_bool(o, "certifies_results", info.certifies_results);
	if (info.certifies_results)
		print_device_state(o, &info.device);
	oti_out_array(o, "tcb");
	for (i = 0; i < info.tcb_count; i++)
		print_stage(o, &info.tcb[i], info.certifies_results);
	oti_out_array_end(o);
	return OTA_OK;
}

/* Which certificate of the evidence chain this is, by the names evidence.h fixes. */
static ota_status_t print_role(struct oti_out *o, X509 *c, const uint8_t *der, size_t der_len,
			       struct oti_diag *d)
{
	uint8_t id[OTA_DEVICE_ID_BYTES];
	char cn[128];

	cn[0] = '\0';
	if (X509_NAME_get_text_by_NID(X509_get_subject_name(c), NID_commonName, cn, sizeof(cn)) < 0)
		cn[0] = '\0';
	if (cn_device_id(cn, OTA_CERT_CN_IDENTITY, id)) {
		oti_out_str(o, "role", "device-identity");
		oti_out_hex(o, "device_id", id, sizeof(id));
		return OTA_OK;
	}
	if (cn_device_id(cn, OTA_CERT_CN_ALIAS, id))
		return print_alias(o, der, der_len, id, d);
	if (X509_check_ca(c) && X509_self_signed(c, 0) == 1) {
		oti_out_str(o, "role", "ca");
		return OTA_OK;
	}
	oti_out_str(o, "role", "other");
	return OTA_OK;
}

/* PEM: one CERTIFICATE block, no second one. DER: one certificate, no trailing bytes. */
static X509 *parse(const uint8_t *buf, size_t len, uint8_t **der, int *der_len)
{
	const unsigned char *p = buf;
	X509 *c = NULL;

	*der = NULL;
	if (len >= 11 && memcmp(buf, "-----BEGIN ", 11) == 0) {
		BIO *b = len <= (size_t)INT32_MAX ? BIO_new_mem_buf(buf, (int)len) : NULL;
		X509 *extra;

		c = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
		/* A bundle is not one certificate: say so rather than show the first. */
		extra = c ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
		if (extra) {
			X509_free(extra);
			X509_free(c);
			c = NULL;
		}
		BIO_free(b);
	} else if (len <= (size_t)INT32_MAX) {
		c = d2i_X509(NULL, &p, (long)len);
		if (c && p != buf + len) {
			X509_free(c);
			c = NULL;
		}
	}
	if (c) {
		*der_len = i2d_X509(c, der);
		if (*der_len <= 0) {
			X509_free(c);
			c = NULL;
		}
	}
	return c;
}

ota_status_t oti_inspect_x509(struct oti_out *o, const uint8_t *buf, size_t len,
			      struct oti_diag *d)
{
	const ASN1_OCTET_STRING *ski;
	const ASN1_INTEGER *serial;
	uint8_t *der = NULL;
	int der_len = 0;
	long pathlen;
	ota_status_t st;
	X509 *c;

	ERR_clear_error();
	c = parse(buf, len, &der, &der_len);
	if (!c)
		return oti_diag_set(d, OTA_X509_MALFORMED, NULL, "x509",
				    "not exactly one DER or PEM X.509 certificate");
	oti_out_u64(o, "version", (uint64_t)X509_get_version(c) + 1u);
	serial = X509_get0_serialNumber(c);
	oti_out_hex(o, "serial", serial->data, (size_t)serial->length);
	print_name(o, "subject", X509_get_subject_name(c));
	print_name(o, "issuer", X509_get_issuer_name(c));
	print_time(o, "not_before", X509_get0_notBefore(c));
	print_time(o, "not_after", X509_get0_notAfter(c));
	oti_out_bool(o, "ca", X509_check_ca(c) != 0);
	pathlen = X509_get_pathlen(c);
	if (pathlen >= 0)
		oti_out_u64(o, "path_length", (uint64_t)pathlen);
	print_key_usage(o, c);
	ski = X509_get0_subject_key_id(c);
	if (ski)
		oti_out_hex(o, "subject_key_id", ski->data, (size_t)ski->length);
	print_public_key(o, c);
	st = print_role(o, c, der, (size_t)der_len, d);
	OPENSSL_free(der);
	X509_free(c);
	return st;
}
