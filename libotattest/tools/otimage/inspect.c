// SPDX-License-Identifier: MIT
/*
 * otimage inspect: recognise a file by its magic and describe it. The
 * description is rendered into memory first and printed only when the
 * whole file checked out, so a failure prints one error line and nothing
 * else.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect.h"
#include "otimage_internal.h"

static uint32_t magic_at(const uint8_t *buf, size_t len, size_t off)
{
	uint32_t v = 0;

	if (len >= off + 4)
		memcpy(&v, buf + off, 4);
	return v;
}

/*
 * What a DER certificate looks like from outside: a SEQUENCE with a
 * minimal long-form length (every certificate is longer than 127 bytes).
 * Truncated or padded ones count too, so the X.509 parser can say what is
 * wrong with them; random bytes rarely start this way.
 */
static bool der_certificate_like(const uint8_t *buf, size_t len)
{
	size_t k;

	if (len < 4 || buf[0] != 0x30 || buf[1] < 0x81 || buf[1] > 0x83)
		return false;
	k = buf[1] & 0x7fu;
	return buf[2] != 0 && (k > 1 || buf[2] >= 0x80);
}

enum oti_file_kind oti_file_detect(const uint8_t *buf, size_t len)
{
	static const struct {
		uint32_t magic;
		enum oti_file_kind kind;
	} at0[] = {
		{ OTA_EXT_DLGC, OTI_FILE_CERT },
		{ OTA_FLASH_LAYOUT_MAGIC, OTI_FILE_FLASH },
		{ OTA_OTP_MAGIC, OTI_FILE_OTP },
		{ OTA_OWNER_MAGIC, OTI_FILE_OWNER_CONFIG },
		{ OTA_BOOT_DATA_MAGIC, OTI_FILE_BOOT_DATA },
		{ OTA_TAG_TABLE_MAGIC, OTI_FILE_TAG_TABLE },
		{ OTA_IDCERT_MAGIC, OTI_FILE_IDCERT },
		{ OTA_RECORD_MAGIC, OTI_FILE_RECORD },
		{ OTA_REVOCATION_MAGIC, OTI_FILE_REVOCATION },
		{ OTI_SPXKEY_MAGIC, OTI_FILE_KEY_SPX },
	};
	uint32_t m0 = magic_at(buf, len, 0);
	size_t i;

	/* An image starts with its signature; its magic follows at 64. */
	if (magic_at(buf, len, OTA_MANIFEST_SIGNED_START) == OTA_MANIFEST_MAGIC)
		return OTI_FILE_IMAGE;
	for (i = 0; i < sizeof(at0) / sizeof(at0[0]); i++)
		if (m0 == at0[i].magic)
			return at0[i].kind;
	/* Evidence: CBOR tag 18 (COSE_Sign1) around an array of four. */
	if (len >= 2 && buf[0] == 0xd2 && buf[1] == 0x84)
		return OTI_FILE_EVIDENCE;
	if (len >= 27 && memcmp(buf, "-----BEGIN CERTIFICATE-----", 27) == 0)
		return OTI_FILE_X509;
	if (len >= 10 && memcmp(buf, "-----BEGIN", 10) == 0)
		return OTI_FILE_KEY_PEM;
	if (der_certificate_like(buf, len))
		return OTI_FILE_X509;
	return OTI_FILE_UNKNOWN;
}

const char *oti_file_kind_name(enum oti_file_kind k)
{
	switch (k) {
	case OTI_FILE_IMAGE: return "image";
	case OTI_FILE_CERT: return "certificate";
	case OTI_FILE_FLASH: return "flash";
	case OTI_FILE_OTP: return "otp";
	case OTI_FILE_OWNER_CONFIG: return "owner-config";
	case OTI_FILE_BOOT_DATA: return "boot-data";
	case OTI_FILE_TAG_TABLE: return "tag-table";
	case OTI_FILE_IDCERT: return "identity-cert";
	case OTI_FILE_RECORD: return "boot-record";
	case OTI_FILE_KEY_PEM: return "key";
	case OTI_FILE_KEY_SPX: return "slhdsa-key";
	case OTI_FILE_X509: return "x509-certificate";
	case OTI_FILE_REVOCATION: return "revocation";
	case OTI_FILE_EVIDENCE: return "evidence";
	case OTI_FILE_UNKNOWN: break;
	}
	return "unknown";
}

/* A fixed-size record file: exactly sizeof(T) bytes, copied out aligned. */
ota_status_t oti_inspect_exact(const uint8_t *buf, size_t len, void *out, size_t size,
			       ota_status_t truncated, ota_status_t bad_size, const char *field,
			       struct oti_diag *d)
{
	if (len != size)
		return oti_diag_set(d, len < size ? truncated : bad_size, NULL, field,
				    "%zu bytes, expected %zu", len, size);
	memcpy(out, buf, size);
	return OTA_OK;
}

ota_status_t oti_inspect_named(const char *path, const uint8_t *buf, size_t len, bool json,
			       const struct oti_device *dev, const struct otu_keynames *names,
			       FILE *out, struct oti_diag *d)
{
	enum oti_file_kind kind = oti_file_detect(buf, len);
	struct oti_out o;
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem;
	ota_status_t st;

	if (kind == OTI_FILE_UNKNOWN)
		return oti_diag_set(d, OTA_TOOL_UNKNOWN_FILE, path, NULL, NULL);
	if (dev && kind != OTI_FILE_IMAGE)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, path, NULL,
				    "only images are checked for a device, this is a %s",
				    oti_file_kind_name(kind));
	mem = open_memstream(&text, &text_len);
	if (!mem)
		return oti_diag_set(d, OTA_HOST_INTERNAL, path, NULL, "out of memory");
	oti_out_init(&o, mem, json);
	o.key_names = names;
	oti_out_str(&o, "file", path ? path : "");
	oti_out_str(&o, "format", oti_file_kind_name(kind));
	switch (kind) {
	case OTI_FILE_IMAGE: st = oti_inspect_image(&o, buf, len, dev, d); break;
	case OTI_FILE_CERT: st = oti_inspect_cert(&o, buf, len, d); break;
	case OTI_FILE_FLASH: st = oti_inspect_flash(&o, buf, len, d); break;
	case OTI_FILE_OTP: st = oti_inspect_otp(&o, buf, len, d); break;
	case OTI_FILE_OWNER_CONFIG: st = oti_inspect_owner(&o, buf, len, d); break;
	case OTI_FILE_BOOT_DATA: st = oti_inspect_boot_data(&o, buf, len, d); break;
	case OTI_FILE_TAG_TABLE: st = oti_inspect_tag_table(&o, buf, len, d); break;
	case OTI_FILE_IDCERT: st = oti_inspect_idcert(&o, buf, len, d); break;
	case OTI_FILE_RECORD: st = oti_inspect_record(&o, buf, len, d); break;
	case OTI_FILE_KEY_PEM: st = oti_inspect_key(&o, path, buf, len, d); break;
	case OTI_FILE_KEY_SPX: st = oti_inspect_spx_key(&o, buf, len, d); break;
	case OTI_FILE_X509: st = oti_inspect_x509(&o, buf, len, d); break;
	case OTI_FILE_REVOCATION: st = oti_inspect_revocation(&o, buf, len, d); break;
	case OTI_FILE_EVIDENCE: st = oti_inspect_evidence(&o, buf, len, d); break;
	default: st = OTA_TOOL_UNKNOWN_FILE; break;
	}
	oti_out_finish(&o);
	fclose(mem);
	if (st == OTA_OK)
		fwrite(text, 1, text_len, out);
	else if (!d->file[0])
		oti_diag_set(d, st, path, NULL, NULL);
	free(text);
	return st;
}

ota_status_t oti_inspect_device(const char *path, const uint8_t *buf, size_t len, bool json,
				const struct oti_device *dev, FILE *out, struct oti_diag *d)
{
	return oti_inspect_named(path, buf, len, json, dev, NULL, out, d);
}

ota_status_t oti_inspect(const char *path, const uint8_t *buf, size_t len, bool json,
			 FILE *out, struct oti_diag *d)
{
	return oti_inspect_named(path, buf, len, json, NULL, NULL, out, d);
}
