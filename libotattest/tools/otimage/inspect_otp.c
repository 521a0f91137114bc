// SPDX-License-Identifier: MIT
/* inspect: OTP images, boot records and key files. Secrets are never printed. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "inspect.h"
#include "otimage_keys.h"

ota_status_t oti_inspect_otp(struct oti_out *o, const uint8_t *buf, size_t len,
			     struct oti_diag *d)
{
	struct ota_otp otp;
	struct ota_otp_info info;
	uint32_t i;
	ota_status_t st;

	OTA_TRY(oti_inspect_exact(buf, len, &otp, sizeof(otp), OTA_OTP_TRUNCATED, OTA_OTP_BAD_SIZE,
				  "otp", d));
	st = ota_otp_decode(&otp, &info);
	if (st != OTA_OK) {
		OPENSSL_cleanse(&otp, sizeof(otp));
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	}
	oti_out_hex(o, "device_id", info.device_id, sizeof(info.device_id));
	oti_out_str(o, "lifecycle", ota_lifecycle_name(info.lifecycle));
	/* HW_CFG's state; lifecycle differs once the device left manufacturing. */
	oti_out_str(o, "lifecycle_provisioned",
		    ota_otp_lifecycle_index(otp.lifecycle, &i) ? ota_lifecycle_name(i) : "?");
	oti_out_bool(o, "tag_boot", info.features & OTA_OTP_F_TAG_BOOT);
	oti_out_u64(o, "chain_max_svn", info.chain_max_svn);
	oti_out_u64(o, "epoch", info.epoch);
	oti_out_u64(o, "floor_rom_ext", info.floor_rom_ext);
	oti_out_u64(o, "floor_bl0", info.floor_bl0);
	oti_out_hex(o, "owner_config_digest", info.owner_config_digest,
		    sizeof(info.owner_config_digest));
	/* Only whether the secret partition is intact: never its contents. */
	oti_out_bool(o, "secret_digest_ok", ota_otp_secret_check(&otp) == OTA_OK);
	oti_out_array(o, "creator_keys");
	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++) {
		if (ota_root_key_empty(&info.creator_keys[i]))
			continue;
		oti_out_begin(o, NULL);
		oti_out_u64(o, "slot", i);
		oti_print_root_key(o, &info.creator_keys[i]);
		oti_out_bool(o, "revoked", info.creator_key_revoked[i]);
		oti_out_end(o);
	}
	oti_out_array_end(o);
	oti_out_array(o, "owner_keys_revoked");
	for (i = 0; i < 4; i++)
		if (info.owner_key_revoked[i])
			oti_out_u64(o, NULL, i);
	oti_out_array_end(o);
	OPENSSL_cleanse(&otp, sizeof(otp));
	return OTA_OK;
}

ota_status_t oti_inspect_record(struct oti_out *o, const uint8_t *buf, size_t len,
				struct oti_diag *d)
{
	struct ota_record r;
	uint32_t i, k;
	ota_status_t st;

	if (len > sizeof(r))
		return oti_diag_set(d, OTA_RECORD_BAD_LENGTH, NULL, "record.length",
				    "%zu bytes, at most %zu", len, sizeof(r));
	memset(&r, 0, sizeof(r));
	memcpy(&r, buf, len);
	st = ota_record_validate(&r, (uint32_t)len);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	oti_out_u64(o, "generation", r.hdr.generation);
	oti_out_str(o, "reset_reason", ota_reset_reason_name(r.hdr.reset_reason));
	oti_out_str(o, "lifecycle", ota_lifecycle_name(r.hdr.lifecycle));
	oti_out_hex(o, "device_id", r.hdr.device_id, sizeof(r.hdr.device_id));
	oti_out_u64(o, "epoch", r.hdr.epoch);
	oti_out_u64(o, "min_svn", r.hdr.min_svn);
	oti_out_u64(o, "floor_rom_ext", r.hdr.floor_rom_ext);
	oti_out_u64(o, "floor_bl0", r.hdr.floor_bl0);
	oti_out_bool(o, "tag_boot_enabled", r.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED);
	oti_out_u64(o, "tag_key_version", r.hdr.tag_key_version);
	oti_print_status(o, "boot_status", r.hdr.boot_status);
	oti_out_u64(o, "boot_data_counter", r.hdr.boot_data_counter);
	oti_out_u64(o, "chain_max_svn", r.hdr.chain_max_svn);
	oti_out_hex(o, "rom_identity", r.hdr.rom_identity, sizeof(r.hdr.rom_identity));
	oti_out_u64(o, "boot_time_ns", r.hdr.boot_time_ns);
	oti_out_array(o, "stages");
	for (i = 0; i < r.hdr.stage_count; i++) {
		const struct ota_stage_record *s = &r.stage[i];

		oti_out_begin(o, NULL);
		oti_out_str(o, "stage", ota_stage_name(s->stage));
		oti_out_str(o, "slot", s->slot == OTA_SLOT_A ? "a" : "b");
		oti_print_status(o, "status", s->status);
		oti_out_str(o, "path", ota_path_name(s->path));
		oti_out_str(o, "scheme", ota_scheme_name(s->sig_scheme));
		oti_out_u64(o, "delegation_depth", s->delegation_depth);
		oti_out_u64(o, "security_version", s->security_version);
		oti_out_u64(o, "tag_key_version", s->tag_key_version);
		oti_out_hex(o, "measurement", s->measurement, sizeof(s->measurement));
		oti_out_array(o, "key_ids");
		for (k = 0; k <= s->delegation_depth; k++)
			oti_out_hex(o, NULL, s->key_ids[k], OTA_KEY_ID_BYTES);
		oti_out_array_end(o);
		oti_print_constraints(o, "effective", &s->effective);
		oti_out_bool(o, "booted", s->flags & OTA_STAGE_F_BOOTED);
		oti_out_bool(o, "fallback", s->flags & OTA_STAGE_F_FALLBACK);
		oti_out_str(o, "path_reason", ota_path_reason_name(s->path_reason));
		oti_out_bool(o, "debug", s->effective.usage.flags & OTA_CAP_DEBUG);
		oti_out_u64(o, "verify_time_ns", s->verify_time_ns);
		oti_out_u64(o, "verify_cycles", s->verify_cycles);
		oti_out_end(o);
	}
	oti_out_array_end(o);
	return OTA_OK;
}

static void print_key(struct oti_out *o, const struct oti_key *k)
{
	oti_out_str(o, "algorithm", k->algorithm == OTA_KEY_ALG_HYBRID ? "hybrid" : "ecdsa-p256");
	oti_out_bool(o, "private", k->has_private);
	oti_out_hex(o, "key_id", k->key_id, sizeof(k->key_id));
	oti_out_hex(o, "ecdsa_public_key", k->pub, sizeof(k->pub));
	if (k->algorithm == OTA_KEY_ALG_HYBRID)
		oti_out_hex(o, "slhdsa_public_key", k->spx_pk, sizeof(k->spx_pk));
}

ota_status_t oti_inspect_key(struct oti_out *o, const char *path, const uint8_t *buf, size_t len,
			     struct oti_diag *d)
{
	struct oti_key k;
	ota_status_t st;

	/* Loaded from the path when there is one, so KEY.spx is seen too. */
	if (path) {
		uint8_t *file;
		size_t flen;

		st = oti_file_read(path, OTI_MAX_SMALL_FILE, &file, &flen, d);
		if (st == OTA_OK) {
			bool same = flen == len && memcmp(file, buf, len) == 0;

			OPENSSL_cleanse(file, flen);
			free(file);
			if (same)
				st = oti_key_load(path, false, &k, d);
			else
				st = oti_key_parse(buf, len, NULL, 0, &k, d);
		}
	} else {
		st = oti_key_parse(buf, len, NULL, 0, &k, d);
	}
	if (st != OTA_OK)
		return st;
	print_key(o, &k);
	oti_key_free(&k);
	return OTA_OK;
}

ota_status_t oti_inspect_spx_key(struct oti_out *o, const uint8_t *buf, size_t len,
				 struct oti_diag *d)
{
	struct oti_key k;
	bool secret;
	ota_status_t st;

	memset(&k, 0, sizeof(k));
	st = oti_spx_parse(buf, len, &k, &secret);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	oti_out_str(o, "algorithm", "slh-dsa-sha2-128s");
	oti_out_str(o, "kind", secret ? "secret" : "public");
	oti_out_hex(o, "slhdsa_public_key", k.spx_pk, sizeof(k.spx_pk));
	OPENSSL_cleanse(&k, sizeof(k));
	return OTA_OK;
}
