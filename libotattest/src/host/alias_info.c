// SPDX-License-Identifier: MIT
/*
 * Reading what the alias certificate certifies (verify.h): the device id
 * in its subject CN, the identity in its issuer CN, and the TCG DICE
 * MultiTcbInfo extension (OID 2.23.133.5.4.5) the firmware writes
 * (firmware/rom_ext/alias_cert.c; docs/evidence.md gives it byte for
 * byte). OpenSSL parses the certificate and finds the extension; its
 * contents are read here with a small bounded DER reader, strictly: the
 * shape the firmware writes, nothing else. The one older shape still
 * recognised - entries with model, svn, layer and fwids only - is read so
 * the verifier can say that such a certificate certifies too little.
 */
#include <string.h>

#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "otattest/verify.h"

#include "cert_read.h"
#include "der_read.h"

static bool der_is(const struct der *v, const char *s)
{
	return v->n == strlen(s) && memcmp(v->p, s, v->n) == 0;
}

static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

/* The fields of one DiceTcbInfo, in their order; absent ones are NULL/0. */
struct tcb_entry {
	struct der vendor, model, svn, layer, fwids, flags, vendor_info;
	bool has_vendor, has_svn, has_flags, has_vendor_info;
};

static bool parse_entry(struct der *list, struct tcb_entry *e)
{
	struct der info;
	bool has_model, has_layer, has_fwids;

	return der_next(list, 0x30, &info) &&
	       der_optional(&info, 0x80, &e->vendor, &e->has_vendor) &&
	       der_optional(&info, 0x81, &e->model, &has_model) && has_model &&
	       der_optional(&info, 0x83, &e->svn, &e->has_svn) &&
	       der_optional(&info, 0x84, &e->layer, &has_layer) && has_layer &&
	       der_optional(&info, 0xa6, &e->fwids, &has_fwids) && has_fwids &&
	       der_optional(&info, 0x87, &e->flags, &e->has_flags) &&
	       der_optional(&info, 0x88, &e->vendor_info, &e->has_vendor_info) && info.n == 0;
}

/* fwids: exactly one FWID, { sha256, 32 bytes }. */
static bool parse_fwids(struct der fwids, uint8_t digest_out[OTA_SHA256_BYTES])
{
	struct der fwid, oid, digest;

	if (!der_next(&fwids, 0x30, &fwid) || fwids.n != 0 || !der_next(&fwid, 0x06, &oid) ||
	    !der_next(&fwid, 0x04, &digest) || fwid.n != 0 || oid.n != sizeof(sha256_oid) ||
	    memcmp(oid.p, sha256_oid, sizeof(sha256_oid)) || digest.n != OTA_SHA256_BYTES)
		return false;
	memcpy(digest_out, digest.p, OTA_SHA256_BYTES);
	return true;
}

/* flags: a 32-bit BIT STRING (fixedWidth), no unused bits. */
static bool parse_flags(const struct der *f, uint32_t *out)
{
	if (f->n != 5 || f->p[0] != 0)
		return false;
	*out = (uint32_t)f->p[1] << 24 | (uint32_t)f->p[2] << 16 | (uint32_t)f->p[3] << 8 | f->p[4];
	return true;
}

/*
 * vendorInfo: SEQUENCE { version, n INTEGERs ...} with *rest what follows
 * them. Another version is noted in *other_version, so that a reader can
 * say which profile the certificate has rather than only that it is bad.
 */
static bool parse_vendor_info(const struct der *vi, uint32_t want_version, uint32_t *v, size_t n,
			      struct der *rest, uint32_t *other_version)
{
	struct der outer = *vi;
	uint32_t version;
	size_t i;

	if (!der_next(&outer, 0x30, rest) || outer.n != 0 || !der_next_uint(rest, &version))
		return false;
	if (version != want_version) {
		*other_version = version;
		return false;
	}
	for (i = 0; i < n; i++)
		if (!der_next_uint(rest, &v[i]))
			return false;
	return true;
}

/* The ROM's entry, first: vendor, model "rom", layer 0, fwids, flags, the device state. */
static bool parse_rom(const struct tcb_entry *e, struct ota_cert_device *dev,
		      uint32_t *other_version)
{
	uint32_t layer, v[18];
	struct ota_update_claims *u = &dev->update;
	struct der rest;

	if (!e->has_vendor || !der_is(&e->vendor, OTA_TCB_VENDOR) ||
	    !der_is(&e->model, OTA_TCB_MODEL_ROM) || e->has_svn || !der_uint(&e->layer, &layer) ||
	    layer != OTA_TCB_LAYER_ROM || !e->has_flags || !e->has_vendor_info ||
	    !parse_fwids(e->fwids, dev->rom_identity) || !parse_flags(&e->flags, &dev->flags) ||
	    !parse_vendor_info(&e->vendor_info, OTA_TCB_INFO_VERSION, v, 18, &rest, other_version) ||
	    rest.n != 0)
		return false;
	dev->lifecycle = v[0];
	dev->epoch = v[1];
	dev->min_svn = v[2];
	dev->floor_rom_ext = v[3];
	dev->floor_bl0 = v[4];
	dev->chain_max_svn = v[5];
	dev->tag_key_version = v[6];
	/* Version 2: the update state (evidence.h; pending is never certified). */
	memset(u, 0, sizeof(*u));
	u->reset_reason = v[7];
	u->state = v[8];
	u->primary_slot = v[9];
	u->booted_slot = v[10];
	u->revocation_seq = v[11];
	u->revocation_seq_device = v[12];
	u->trial_boots = v[13];
	u->revert_reason = v[14];
	u->reverted_slot = v[15];
	u->refused_count = v[16];
	u->refused_slots = v[17];
	if (u->reset_reason < OTA_RESET_COLD || u->reset_reason > OTA_RESET_UPDATE ||
	    u->state > OTA_UPDATE_CLAIM_TRIAL || u->primary_slot >= OTA_SLOT_COUNT ||
	    u->booted_slot >= OTA_SLOT_COUNT || u->revocation_seq > OTA_REVOCATION_SEQ_MAX ||
	    u->revocation_seq_device > OTA_REVOCATION_SEQ_MAX ||
	    u->trial_boots > OTA_TRIAL_MAX_BOOTS || u->revert_reason > OTA_REVERT_REASON_MAX ||
	    u->reverted_slot >= OTA_SLOT_COUNT || u->refused_count > OTA_RECORD_MAX_STAGES ||
	    u->refused_slots >= 1u << (OTA_STAGE_COUNT * OTA_SLOT_COUNT))
		return false;
	return dev->lifecycle < OTA_LC_COUNT && dev->flags == ota_dice_flags(dev->lifecycle);
}

/*
 * A stage's results (StageResults version 2): path, scheme, depth, tag key
 * version, path reason, usage flags, then depth + 1 key ids. Version 1,
 * without the reason and the flags, is refused: it would leave the DEBUG
 * flag the policy judges to the runtime's word.
 */
static bool parse_results(const struct der *vi, struct ota_cert_tcb *t, uint32_t *other_version)
{
	uint32_t v[6], k;
	struct der rest, id;

	if (!parse_vendor_info(vi, OTA_TCB_RESULTS_VERSION, v, 6, &rest, other_version))
		return false;
	t->path = v[0];
	t->sig_scheme = v[1];
	t->depth = v[2];
	t->tag_key_version = v[3];
	t->path_reason = v[4];
	t->usage_flags = v[5];
	if (t->path > OTA_PATH_MAX || t->sig_scheme > OTA_SCHEME_HYBRID ||
	    t->depth > OTA_MAX_DELEGATION_DEPTH || t->path_reason > OTA_REASON_MAX ||
	    (t->usage_flags & ~OTA_CAP_ALL))
		return false;
	t->key_id_count = t->depth + 1;
	for (k = 0; k < t->key_id_count; k++) {
		if (!der_next(&rest, 0x04, &id) || id.n != OTA_KEY_ID_BYTES)
			return false;
		memcpy(t->key_ids[k], id.p, OTA_KEY_ID_BYTES);
	}
	return rest.n == 0;
}

/*
 * A booted stage's entry: model = stage name, svn, layer = stage, fwids;
 * with results, also vendor, the device's flags and the results; an older
 * certificate has none of these three.
 */
static bool parse_stage(const struct tcb_entry *e, bool results, uint32_t flags,
			struct ota_cert_tcb *t, uint32_t *other_version)
{
	uint32_t f;

	if (!e->has_svn || !der_uint(&e->svn, &t->svn) || !der_uint(&e->layer, &t->stage) ||
	    t->stage < OTA_STAGE_ROM_EXT || t->stage > OTA_STAGE_BL0 ||
	    !der_is(&e->model, ota_stage_name(t->stage)) || !parse_fwids(e->fwids, t->measurement))
		return false;
	if (!results)
		return !e->has_vendor && !e->has_flags && !e->has_vendor_info;
	return e->has_vendor && der_is(&e->vendor, OTA_TCB_VENDOR) && e->has_flags &&
	       parse_flags(&e->flags, &f) && f == flags && e->has_vendor_info &&
	       parse_results(&e->vendor_info, t, other_version);
}

/* The extension's value: the ROM, then the booted stages in boot order. */
static bool parse_multi_tcb_info(struct der d, struct ota_alias_info *out)
{
	struct tcb_entry e;
	struct der list;

	if (!der_next(&d, 0x30, &list) || d.n != 0 || list.n == 0)
		return false;
	memset(&e, 0, sizeof(e));
	if (!parse_entry(&list, &e))
		return false;
	/* The profile is told by its first entry: the ROM's, or an older stage entry. */
	out->certifies_results = e.has_vendor;
	if (out->certifies_results && !parse_rom(&e, &out->device, &out->other_version)) {
		out->other_is_device_state = out->other_version != 0;
		return false;
	}
	if (!out->certifies_results) {
		if (!parse_stage(&e, false, 0, &out->tcb[0], &out->other_version))
			return false;
		out->tcb_count = 1;
	}
	while (list.n) {
		struct ota_cert_tcb *t = &out->tcb[out->tcb_count];

		if (out->tcb_count == OTA_STAGE_COUNT || !parse_entry(&list, &e) ||
		    !parse_stage(&e, out->certifies_results, out->device.flags, t,
				 &out->other_version))
			return false;
		/* Boot order: each stage once, ROM_EXT before BL0. */
		if (out->tcb_count && t->stage <= out->tcb[out->tcb_count - 1].stage)
			return false;
		out->tcb_count++;
	}
	return true;
}

ota_status_t ota_alias_cert_info(const uint8_t *der, size_t len, struct ota_alias_info *out)
{
	X509 *x = ota_cert_from_der(der, len);
	ota_status_t st;

	if (x == NULL) {
		memset(out, 0, sizeof(*out));
		return OTA_X509_MALFORMED;
	}
	st = ota_alias_cert_info_x509(x, out);
	X509_free(x);
	return st;
}

/* The MultiTcbInfo extension's value (NULL: none) read into out, which holds the device ids. */
static ota_status_t alias_tcb_info(const uint8_t *tcb, size_t tcb_len, bool ambiguous,
				   struct ota_alias_info *out)
{
	uint32_t other_version;
	bool device_state;

	/* Two MultiTcbInfo extensions: which would be meant? */
	if (!ambiguous && tcb == NULL)
		return OTA_OK; /* no TCB info: certifies nothing, the verifier decides */
	if (!ambiguous && parse_multi_tcb_info((struct der){ tcb, tcb_len }, out))
		return OTA_OK;
	/* Nothing of a certificate that does not parse, but which profile it had. */
	other_version = out->other_version;
	device_state = out->other_is_device_state;
	memset(out, 0, sizeof(*out));
	out->other_version = other_version;
	out->other_is_device_state = device_state;
	return OTA_X509_MALFORMED;
}

ota_status_t ota_alias_info_from_parts(const char *subject_cn, size_t subject_cn_len,
				       const char *issuer_cn, size_t issuer_cn_len,
				       const uint8_t *tcb, size_t tcb_len, struct ota_alias_info *out)
{
	memset(out, 0, sizeof(*out));
	out->has_device_id = subject_cn && ota_cert_cn_device_id(subject_cn, subject_cn_len,
								 OTA_CERT_CN_ALIAS, out->device_id);
	out->has_issuer_device_id =
		issuer_cn && ota_cert_cn_device_id(issuer_cn, issuer_cn_len, OTA_CERT_CN_IDENTITY,
						   out->issuer_device_id);
	return alias_tcb_info(tcb, tcb_len, false, out);
}

ota_status_t ota_alias_cert_info_x509(X509 *x, struct ota_alias_info *out)
{
	ASN1_OCTET_STRING *v = NULL;
	ASN1_OBJECT *obj;
	bool ambiguous = false;
	int idx;

	memset(out, 0, sizeof(*out));
	out->has_device_id =
		ota_cert_name_device_id(X509_get_subject_name(x), OTA_CERT_CN_ALIAS, out->device_id);
	out->has_issuer_device_id = ota_cert_name_device_id(
		X509_get_issuer_name(x), OTA_CERT_CN_IDENTITY, out->issuer_device_id);
	obj = OBJ_txt2obj("2.23.133.5.4.5", 1);
	idx = obj ? X509_get_ext_by_OBJ(x, obj, -1) : -1;
	if (idx >= 0 && X509_get_ext_by_OBJ(x, obj, idx) >= 0)
		ambiguous = true;
	else if (idx >= 0)
		v = X509_EXTENSION_get_data(X509_get_ext(x, idx));
	ASN1_OBJECT_free(obj);
	if (obj == NULL)
		ambiguous = true; /* the OID table failed: nothing can be said */
	return alias_tcb_info(v ? ASN1_STRING_get0_data(v) : NULL,
			      v ? (size_t)ASN1_STRING_length(v) : 0, ambiguous, out);
}
