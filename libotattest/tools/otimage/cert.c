// SPDX-License-Identifier: MIT
/*
 * Issuing delegation certificates. The checks before signing are the
 * firmware's own (ota_constraints_valid, ota_constraints_contained, the
 * chain shape and the hybrid rules of its delegation verifier), so
 * otimage cannot issue a certificate a device would refuse for what it
 * is, and says so with the device's status code. Whether a device takes
 * it is oti_cert_device_check's (cert_check.c).
 */
#include <stdlib.h>
#include <string.h>

#include "otimage.h"
#include "otimage_internal.h"

/*
 * The SLH-DSA half of a chain, as the device walks it (ota_deleg_verify,
 * ota_policy_check): a parent's SLH-DSA key is trusted when it is a
 * hybrid root key, or when its own certificate carries a DLGS; under a
 * hybrid root every certificate needs one, and a DLGS under a parent with
 * no trusted SLH-DSA key is invalid. So a link is hybrid exactly when its
 * parent's SLH-DSA key is trusted.
 */
static ota_status_t hybrid_checks(const struct oti_key *parent, const struct oti_cert *parent_cert,
				  const struct oti_key *delegate, struct oti_diag *d)
{
	bool trusted = parent_cert ? parent_cert->has_dlgs : parent->algorithm == OTA_KEY_ALG_HYBRID;

	if (parent_cert && parent_cert->has_dlgs &&
	    (parent->algorithm != OTA_KEY_ALG_HYBRID ||
	     memcmp(parent->spx_pk, parent_cert->dlgs.delegate_spx_pubkey, sizeof(parent->spx_pk)) != 0))
		return oti_diag_set(d, OTA_TOOL_KEY_MISMATCH, NULL, "--parent-key",
				    "not the SLH-DSA key the parent certificate certifies");
	if (delegate->algorithm == OTA_KEY_ALG_HYBRID && !trusted)
		return oti_diag_set(d, OTA_TOOL_HYBRID_PARENT, NULL, "--parent-key",
				    parent_cert ? "the parent certificate certifies no SLH-DSA key"
						: NULL);
	if (delegate->algorithm != OTA_KEY_ALG_HYBRID && trusted)
		return oti_diag_set(d, OTA_DELEG_CERT_SPX_MISSING, NULL, "--delegate-pub",
				    "under a hybrid root every delegate is hybrid");
	/*
	 * A leaf delegating to its intermediate's own key: the image would hold
	 * two DLGS naming one key, which the device's parser refuses.
	 */
	if (parent_cert && trusted && memcmp(delegate->key_id, parent->key_id, OTA_KEY_ID_BYTES) == 0)
		return oti_diag_set(d, OTA_EXT_DUPLICATE, NULL, "--delegate-pub",
				    "the parent's own key: an image cannot carry both its SLH-DSA companions");
	return OTA_OK;
}

static ota_status_t issue_checks(const struct oti_key *parent, const struct oti_cert *parent_cert,
				 const struct oti_key *delegate, uint32_t cert_type,
				 const struct ota_constraints *c, struct oti_diag *d)
{
	uint8_t id[OTA_KEY_ID_BYTES];
	ota_status_t st;

	if (cert_type != OTA_CERT_INTERMEDIATE && cert_type != OTA_CERT_LEAF)
		return oti_diag_set(d, OTA_CERT_BAD_TYPE, NULL, "--type", NULL);
	if (!ota_constraints_valid(c))
		return oti_diag_set(d, OTA_CERT_BAD_CONSTRAINTS, NULL, "constraints",
				    "empty SVN range or mask, or a device id with 'any'");
	if (parent_cert) {
		ota_key_id(parent_cert->dlgc.delegate_pubkey, id);
		if (memcmp(id, parent->key_id, sizeof(id)) != 0)
			return oti_diag_set(d, OTA_TOOL_KEY_MISMATCH, NULL, "--parent-key",
					    "not the delegate key of the parent certificate");
		if (parent_cert->dlgc.cert_type != OTA_CERT_INTERMEDIATE)
			return oti_diag_set(d, OTA_DELEG_BAD_CHAIN_SHAPE, NULL, "--parent-cert",
					    "a leaf certificate cannot delegate further");
		if (cert_type != OTA_CERT_LEAF)
			return oti_diag_set(d, OTA_DELEG_BAD_CHAIN_SHAPE, NULL, "--type",
					    "below an intermediate only a leaf may follow");
	}
	OTA_TRY(hybrid_checks(parent, parent_cert, delegate, d));
	if (!parent_cert)
		return OTA_OK;
	st = ota_constraints_contained(&parent_cert->dlgc.constraints, c);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	return OTA_OK;
}

ota_status_t oti_cert_issue(const struct oti_key *parent, const struct oti_cert *parent_cert,
			    const struct oti_key *delegate, uint32_t cert_type,
			    const struct ota_constraints *c, uint32_t flags, struct oti_cert *out,
			    struct oti_diag *d)
{
	uint8_t digest[OTA_SHA256_BYTES], msg[OTA_DLGS_MSG_BYTES];
	struct ota_dlgc *g = &out->dlgc;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (!parent->has_private)
		return oti_diag_set(d, OTA_TOOL_KEY_NOT_PRIVATE, NULL, "--parent-key", NULL);
	if (!(flags & OTI_UNCHECKED)) {
		st = issue_checks(parent, parent_cert, delegate, cert_type, c, d);
		if (st != OTA_OK)
			return st;
	}

	g->hdr.type = OTA_EXT_DLGC;
	g->hdr.version = OTA_EXT_VERSION;
	g->hdr.length = sizeof(*g);
	g->cert_type = cert_type;
	memcpy(g->parent_key_id, parent->key_id, sizeof(g->parent_key_id));
	memcpy(g->delegate_pubkey, delegate->pub, sizeof(g->delegate_pubkey));
	g->constraints = *c;
	ota_dlgc_digest(g, digest);
	st = oti_ecdsa_sign(parent, digest, g->signature);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, "--parent-key", NULL);

	/* The SLH-DSA half exists only when both ends of the link have one. */
	if (parent->algorithm == OTA_KEY_ALG_HYBRID && delegate->algorithm == OTA_KEY_ALG_HYBRID) {
		struct ota_dlgs *s = &out->dlgs;

		s->hdr.type = OTA_EXT_DLGS;
		s->hdr.version = OTA_EXT_VERSION;
		s->hdr.length = sizeof(*s);
		memcpy(s->delegate_key_id, delegate->key_id, sizeof(s->delegate_key_id));
		memcpy(s->delegate_spx_pubkey, delegate->spx_pk, sizeof(s->delegate_spx_pubkey));
		ota_dlgs_message(g, delegate->spx_pk, msg);
		st = oti_spx_sign(parent, msg, sizeof(msg), s->signature);
		if (st != OTA_OK)
			return oti_diag_set(d, st, NULL, "--parent-key", NULL);
		out->has_dlgs = true;
	}
	return OTA_OK;
}

ota_status_t oti_cert_parse(const uint8_t *buf, size_t len, struct oti_cert *out,
			    struct oti_diag *d)
{
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(out->dlgc))
		return oti_diag_set(d, OTA_CERT_BAD_SIZE, NULL, "dlgc", "%zu bytes, need %zu", len,
				    sizeof(out->dlgc));
	memcpy(&out->dlgc, buf, sizeof(out->dlgc));
	st = ota_dlgc_check(&out->dlgc);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	if (len == sizeof(out->dlgc))
		return OTA_OK;
	if (len != sizeof(out->dlgc) + sizeof(out->dlgs))
		return oti_diag_set(d, OTA_CERT_BAD_SIZE, NULL, "dlgs",
				    "%zu bytes after the DLGC, a DLGS is %zu",
				    len - sizeof(out->dlgc), sizeof(out->dlgs));
	st = ota_dlgs_check(&out->dlgc, buf + sizeof(out->dlgc), sizeof(out->dlgs));
	if (st != OTA_OK) {
		const char *f = oti_status_field(st);

		/* The same statuses name DLGC fields above; here they are the DLGS's. */
		return oti_diag_set(d, st, NULL,
				    st == OTA_CERT_SPX_MISMATCH ? f : "dlgs", NULL);
	}
	memcpy(&out->dlgs, buf + sizeof(out->dlgc), sizeof(out->dlgs));
	out->has_dlgs = true;
	return OTA_OK;
}

ota_status_t oti_cert_load(const char *path, struct oti_cert *out, struct oti_diag *d)
{
	uint8_t *buf;
	size_t len;
	ota_status_t st;

	st = oti_file_read(path, sizeof(struct ota_dlgc) + sizeof(struct ota_dlgs), &buf, &len, d);
	if (st == OTA_TOOL_TOO_LARGE)
		return oti_diag_set(d, OTA_CERT_BAD_SIZE, path, "dlgs", "file too long");
	if (st != OTA_OK)
		return st;
	st = oti_cert_parse(buf, len, out, d);
	free(buf);
	if (st != OTA_OK)
		oti_diag_set(d, st, path, NULL, NULL);
	return st;
}

size_t oti_cert_encoded_len(const struct oti_cert *c)
{
	return sizeof(c->dlgc) + (c->has_dlgs ? sizeof(c->dlgs) : 0);
}

void oti_cert_encode(const struct oti_cert *c, uint8_t *out)
{
	memcpy(out, &c->dlgc, sizeof(c->dlgc));
	if (c->has_dlgs)
		memcpy(out + sizeof(c->dlgc), &c->dlgs, sizeof(c->dlgs));
}
