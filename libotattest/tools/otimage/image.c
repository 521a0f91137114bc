// SPDX-License-Identifier: MIT
/*
 * Building and signing boot images:
 *
 *   manifest | payload | signed extensions (SALT, extras)
 *            | unsigned extensions (DLGC[, DLGS] per certificate, extras, SPXS)
 *
 * The image is checked with the device's own code (oti_device_check):
 * its policy before anything is signed, so a slow SLH-DSA signature is
 * never spent on an image the device would refuse, and its signature
 * checks once it is signed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/sha256.h>

#include "otimage.h"
#include "otimage_internal.h"

const char *oti_ext_field(const struct ota_manifest *m, uint32_t index, char *buf, size_t n)
{
	char fourcc[5];

	if (index >= m->ext_count || index >= OTA_MANIFEST_MAX_EXT) {
		snprintf(buf, n, "manifest.ext");
		return buf;
	}
	snprintf(buf, n, "manifest.ext[%u] (%s)", (unsigned int)index,
		 oti_fourcc(m->ext[index].type, fourcc));
	return buf;
}

ota_status_t oti_image_parse_diag(const struct ota_image_view *v, ota_status_t st,
				  const char *file, struct oti_diag *d)
{
	const char *field = oti_status_field(st);
	char buf[96];

	if (oti_status_is_ext(st) && (v->bad_ext < OTA_MANIFEST_MAX_EXT || !field))
		field = oti_ext_field(&v->manifest, v->bad_ext, buf, sizeof(buf));
	return oti_diag_set(d, st, file, field, NULL);
}

struct ext_plan {
	uint32_t type;
	uint32_t flags;
	bool in_signed;
	const uint8_t *bytes; /* whole extension (header included), or NULL */
	const uint8_t *body;  /* body after a header otimage writes */
	uint32_t len;         /* whole extension */
};

static void measure(const uint8_t *img, uint32_t signed_end, uint8_t out[OTA_SHA256_BYTES])
{
	ota_sha256(img + OTA_MANIFEST_SIGNED_START, signed_end - OTA_MANIFEST_SIGNED_START, out);
}

/* Where the SPXS signature goes, or NULL; only through a sane table entry. */
static uint8_t *spxs_slot(uint8_t *img, size_t len, const struct ota_manifest *m)
{
	uint32_t i;

	for (i = 0; i < m->ext_count && i < OTA_MANIFEST_MAX_EXT; i++) {
		const struct ota_ext_entry *e = &m->ext[i];

		if (e->type == OTA_EXT_SPXS && e->length == sizeof(struct ota_spxs) &&
		    ota_range_ok(e->offset, e->length, (uint32_t)len))
			return img + e->offset + offsetof(struct ota_spxs, signature);
	}
	return NULL;
}

static ota_status_t sign_image(uint8_t *img, size_t len, const struct oti_key *signer)
{
	struct ota_manifest m;
	uint8_t digest[OTA_SHA256_BYTES], *spx;

	if (len < sizeof(m) || len > UINT32_MAX)
		return OTA_MANIFEST_TRUNCATED;
	memcpy(&m, img, sizeof(m));
	if (m.signed_end < OTA_MANIFEST_SIGNED_START || m.signed_end > len)
		return OTA_MANIFEST_BAD_SIGNED_REGION;
	measure(img, m.signed_end, digest);
	OTA_TRY(oti_ecdsa_sign(signer, digest, img));
	spx = spxs_slot(img, len, &m);
	if (spx && signer->algorithm == OTA_KEY_ALG_HYBRID)
		OTA_TRY(oti_spx_sign(signer, digest, sizeof(digest), spx));
	return OTA_OK;
}

ota_status_t oti_image_resign(uint8_t *img, size_t len, const struct oti_key *signer)
{
	return sign_image(img, len, signer);
}

/* The extensions in table order: signed ones first, then unsigned ones. */
static ota_status_t plan_extensions(const struct oti_image_params *p, bool hybrid,
				    const struct oti_cert *chain, uint32_t chain_len,
				    struct ext_plan *plan, uint32_t *count, struct oti_diag *d)
{
	uint32_t n = 0, i, pass;

	if (p->extra_count > OTA_MANIFEST_MAX_EXT || (p->extra_count && !p->extra))
		return oti_diag_set(d, OTA_EXT_TOO_MANY, NULL, "extensions", NULL);
#define ADD(...)                                                                          \
	do {                                                                              \
		if (n >= OTA_MANIFEST_MAX_EXT)                                            \
			return oti_diag_set(d, OTA_EXT_TOO_MANY, NULL, "extensions",      \
					    "at most %u", OTA_MANIFEST_MAX_EXT);          \
		plan[n++] = (struct ext_plan){ __VA_ARGS__ };                             \
	} while (0)

	if (p->has_salt)
		ADD(.type = OTA_EXT_SALT, .flags = OTA_EXT_F_CRITICAL, .in_signed = true,
		    .body = p->salt, .len = sizeof(struct ota_ext_salt));
	if (p->has_load)
		ADD(.type = OTA_EXT_LOAD, .flags = OTA_EXT_F_CRITICAL, .in_signed = true,
		    .body = (const uint8_t *)&p->load, .len = sizeof(struct ota_ext_load));
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < p->extra_count; i++) {
			const struct oti_raw_ext *x = &p->extra[i];

			if (x->in_signed != (pass == 0))
				continue;
			if (x->body_len > OTI_MAX_PAYLOAD)
				return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, "extensions", NULL);
			ADD(.type = x->type, .flags = x->flags, .in_signed = x->in_signed,
			    .body = x->body, .len = (uint32_t)sizeof(struct ota_ext_header) + x->body_len);
		}
		if (pass == 1)
			break;
		for (i = 0; i < chain_len; i++) {
			ADD(.type = OTA_EXT_DLGC, .flags = OTA_EXT_F_CRITICAL,
			    .bytes = (const uint8_t *)&chain[i].dlgc, .len = sizeof(chain[i].dlgc));
			if (chain[i].has_dlgs)
				ADD(.type = OTA_EXT_DLGS, .flags = OTA_EXT_F_CRITICAL,
				    .bytes = (const uint8_t *)&chain[i].dlgs,
				    .len = sizeof(chain[i].dlgs));
		}
	}
	if (hybrid)
		ADD(.type = OTA_EXT_SPXS, .flags = OTA_EXT_F_CRITICAL, .len = sizeof(struct ota_spxs));
#undef ADD
	*count = n;
	return OTA_OK;
}

static void write_extension(uint8_t *img, uint32_t off, const struct ext_plan *x,
			    const uint8_t signer_id[OTA_KEY_ID_BYTES])
{
	struct ota_ext_header h = { .type = x->type, .version = OTA_EXT_VERSION, .length = x->len };

	if (x->bytes) {
		memcpy(img + off, x->bytes, x->len);
		return;
	}
	memcpy(img + off, &h, sizeof(h));
	if (x->type == OTA_EXT_SPXS) /* the signature itself comes last */
		memcpy(img + off + sizeof(h), signer_id, OTA_KEY_ID_BYTES);
	else if (x->body)
		memcpy(img + off + sizeof(h), x->body, x->len - sizeof(h));
}

/*
 * oti_device_check on the image being built, for p->device. A direct
 * image's signer is its root key when the device names none; refusals
 * about what sign was given point at the option that gave it.
 */
static ota_status_t build_check(const struct oti_image_params *p, const struct oti_key *signer,
				uint32_t chain_len, const uint8_t *img, size_t len, uint32_t flags,
				struct oti_diag *d)
{
	struct oti_device dev;
	struct oti_verdict v;
	bool keys_named;
	ota_status_t st;

	if (p->device)
		dev = *p->device;
	else
		memset(&dev, 0, sizeof(dev));
	keys_named = dev.has_root || (p->identifier == OTA_ID_ROM_EXT ? dev.has_otp : dev.has_owner);
	if (chain_len == 0 && !keys_named) {
		oti_key_root_entry(signer, OTA_LC_MASK_ALL, &dev.root);
		dev.has_root = true;
	}
	st = oti_device_check(&dev, img, len, flags, &v, d);
	if (st == OTA_OK && p->verdict && !(flags & OTI_CHECK_POLICY))
		*p->verdict = v;
	switch (st) {
	case OTA_DELEG_SIGNER_MISMATCH:
		return oti_diag_set(d, st, NULL, "--key",
				    "the signing key must be the leaf certificate's delegate");
	case OTA_DELEG_CERT_SIG_INVALID:
	case OTA_DELEG_CERT_SPX_INVALID:
	case OTA_DELEG_CERT_SPX_MISSING:
	case OTA_DELEG_DEPTH_EXCEEDED:
	case OTA_DELEG_REVOKED_BY_FLOOR:
		if (v.cert_index < chain_len) {
			char why[sizeof(d->detail)];

			snprintf(why, sizeof(why), "%s", d ? d->detail : "");
			return oti_diag_set(d, st, NULL, "--cert", "certificate %u%s%s",
					    v.cert_index + 1, why[0] ? ": " : "", why);
		}
		break;
	}
	return st;
}

ota_status_t oti_image_layout(const struct oti_image_params *p,
			      const uint8_t signer_id[OTA_KEY_ID_BYTES], bool hybrid,
			      const struct oti_cert *chain, uint32_t chain_len, uint8_t **out,
			      size_t *out_len, struct oti_diag *d)
{
	struct ext_plan plan[OTA_MANIFEST_MAX_EXT];
	struct ota_manifest m;
	uint64_t total;
	uint32_t count = 0, i, off;
	uint8_t *img;
	ota_status_t st;

	*out = NULL;
	*out_len = 0;
	if (chain_len > OTA_MAX_DELEGATION_DEPTH)
		return oti_diag_set(d, OTA_DELEG_BAD_CHAIN_SHAPE, NULL, "--cert",
				    "at most %u certificates", OTA_MAX_DELEGATION_DEPTH);
	if (p->payload_len > OTI_MAX_PAYLOAD)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, "--payload", NULL);
	st = plan_extensions(p, hybrid, chain, chain_len, plan, &count, d);
	if (st != OTA_OK)
		return st;

	memset(&m, 0, sizeof(m));
	m.magic = OTA_MANIFEST_MAGIC;
	m.version = OTA_MANIFEST_VERSION;
	m.header_size = sizeof(m);
	m.identifier = p->identifier;
	m.payload_offset = sizeof(m);
	m.payload_length = (uint32_t)p->payload_len;
	m.security_version = p->security_version;
	m.max_key_version = p->max_key_version;
	memcpy(m.signer_key_id, signer_id, sizeof(m.signer_key_id));
	m.usage = p->usage;
	if (!ota_version_string_ok(p->version_string))
		return oti_diag_set(d, OTA_MANIFEST_BAD_VERSION_STRING, NULL, "--version-string",
				    "printable ASCII, at most %u characters", OTA_VERSION_STRING_BYTES);
	memcpy(m.version_string, p->version_string, sizeof(m.version_string));
	m.ext_count = count;

	total = sizeof(m) + p->payload_len;
	for (i = 0; i < count; i++) {
		m.ext[i] = (struct ota_ext_entry){ plan[i].type, (uint32_t)total, plan[i].len,
						   plan[i].flags };
		total += plan[i].len;
	}
	if (total > OTI_MAX_IMAGE)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, "image", NULL);
	/* The signed region ends after the last signed extension (or the payload). */
	m.signed_end = (uint32_t)(sizeof(m) + p->payload_len);
	for (i = 0; i < count && plan[i].in_signed; i++)
		m.signed_end += plan[i].len;
	m.image_length = (uint32_t)total;

	img = calloc(1, (size_t)total);
	if (!img)
		return oti_diag_set(d, OTA_HOST_INTERNAL, NULL, NULL, "out of memory");
	memcpy(img, &m, sizeof(m));
	if (p->payload_len)
		memcpy(img + sizeof(m), p->payload, p->payload_len);
	for (i = 0, off = (uint32_t)(sizeof(m) + p->payload_len); i < count; off += plan[i].len, i++)
		write_extension(img, off, &plan[i], signer_id);
	*out = img;
	*out_len = (size_t)total;
	return OTA_OK;
}

ota_status_t oti_image_build(const struct oti_image_params *p, const struct oti_key *signer,
			     const struct oti_cert *chain, uint32_t chain_len, uint8_t **out,
			     size_t *out_len, struct oti_diag *d)
{
	uint8_t *img;
	size_t total;
	ota_status_t st;

	*out = NULL;
	*out_len = 0;
	if (!signer->has_private)
		return oti_diag_set(d, OTA_TOOL_KEY_NOT_PRIVATE, NULL, "--key", NULL);
	st = oti_image_layout(p, signer->key_id, signer->algorithm == OTA_KEY_ALG_HYBRID, chain,
			      chain_len, &img, &total, d);
	if (st != OTA_OK)
		return st;

	/* The device's policy before any signature is spent, its signature checks after. */
	if (!(p->flags & OTI_UNCHECKED)) {
		st = build_check(p, signer, chain_len, img, total, OTI_CHECK_POLICY, d);
		if (st != OTA_OK)
			goto fail;
	}

	st = sign_image(img, total, signer);
	if (st != OTA_OK) {
		oti_diag_set(d, st, NULL, "--key", NULL);
		goto fail;
	}
	if (!(p->flags & OTI_UNCHECKED)) {
		st = build_check(p, signer, chain_len, img, total, 0, d);
		if (st != OTA_OK)
			goto fail;
	}
	*out = img;
	*out_len = total;
	return OTA_OK;
fail:
	free(img);
	return st;
}
