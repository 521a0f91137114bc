// SPDX-License-Identifier: MIT
/*
 * Which field a parser's status is about. Every parser status names one
 * rule, and most rules are about one field, so the status alone tells a
 * person where to look; extension and certificate statuses are completed
 * by the caller with the table index.
 */
#include <stddef.h>

#include "otimage_internal.h"

static const struct {
	ota_status_t st;
	const char *field;
} status_fields[] = {
	{ OTA_MANIFEST_TRUNCATED, "manifest" },
	{ OTA_MANIFEST_BAD_MAGIC, "manifest.magic" },
	{ OTA_MANIFEST_BAD_VERSION, "manifest.version" },
	{ OTA_MANIFEST_BAD_HEADER_SIZE, "manifest.header_size" },
	{ OTA_MANIFEST_BAD_LENGTH, "manifest.image_length" },
	{ OTA_MANIFEST_BAD_SIGNED_REGION, "manifest.signed_end" },
	{ OTA_MANIFEST_BAD_PAYLOAD, "manifest.payload_length" },
	{ OTA_MANIFEST_RESERVED_NONZERO, "manifest.reserved" },
	{ OTA_MANIFEST_BAD_VERSION_STRING, "manifest.version_string" },
	{ OTA_MANIFEST_UNKNOWN_FLAGS, "manifest.flags" },
	{ OTA_MANIFEST_WRONG_IDENTIFIER, "manifest.identifier" },
	{ OTA_MANIFEST_BAD_CONSTRAINTS, "manifest.usage" },
	{ OTA_SVN_ABOVE_MAX, "manifest.security_version" },
	{ OTA_EXT_TOO_MANY, "manifest.ext_count" },
	{ OTA_CERT_BAD_MAGIC, "dlgc.type" },
	{ OTA_CERT_BAD_VERSION, "dlgc.version" },
	{ OTA_CERT_BAD_SIZE, "dlgc.length" },
	{ OTA_CERT_BAD_TYPE, "dlgc.cert_type" },
	{ OTA_CERT_RESERVED_NONZERO, "dlgc.reserved" },
	{ OTA_CERT_BAD_CONSTRAINTS, "dlgc.constraints" },
	{ OTA_CERT_SPX_MISMATCH, "dlgs.delegate_key_id" },
	{ OTA_DELEG_BAD_CHAIN_SHAPE, "dlgc.cert_type" },
	{ OTA_DELEG_PARENT_MISMATCH, "dlgc.parent_key_id" },
	{ OTA_DELEG_WIDER_SVN_MIN, "constraints.svn_min" },
	{ OTA_DELEG_WIDER_SVN_MAX, "constraints.svn_max" },
	{ OTA_DELEG_WIDER_SLOTS, "constraints.slot_mask" },
	{ OTA_DELEG_WIDER_LIFECYCLE, "constraints.lifecycle_mask" },
	{ OTA_DELEG_WIDER_DEVICE, "constraints.device" },
	{ OTA_DELEG_WIDER_FLAGS, "constraints.flags" },
	{ OTA_IMAGE_SVN_BELOW_LEAF, "manifest.security_version" },
	{ OTA_IMAGE_SVN_ABOVE_LEAF, "manifest.security_version" },
	{ OTA_IMAGE_SLOTS_OUTSIDE_LEAF, "manifest.usage.slot_mask" },
	{ OTA_IMAGE_LIFECYCLE_OUTSIDE_LEAF, "manifest.usage.lifecycle_mask" },
	{ OTA_IMAGE_DEVICE_OUTSIDE_LEAF, "manifest.usage.device" },
	{ OTA_IMAGE_FLAGS_OUTSIDE_LEAF, "manifest.usage.flags" },
	{ OTA_DELEG_SIGNER_MISMATCH, "manifest.signer_key_id" },
	{ OTA_TAG_TABLE_BAD_MAGIC, "tag_table.magic" },
	{ OTA_TAG_TABLE_BAD_VERSION, "tag_table.version" },
	{ OTA_TAG_TABLE_BAD_SIZE, "tag_table.size" },
	{ OTA_TAG_TABLE_DIGEST_MISMATCH, "tag_table.digest" },
	{ OTA_TAG_TABLE_RESERVED_NONZERO, "tag_table.reserved" },
	{ OTA_TAG_TABLE_BAD_ENTRY, "tag_table.entry" },
	{ OTA_BOOT_DATA_BAD_MAGIC, "boot_data.magic" },
	{ OTA_BOOT_DATA_BAD_VERSION, "boot_data.version" },
	{ OTA_BOOT_DATA_BAD_SIZE, "boot_data.size" },
	{ OTA_BOOT_DATA_DIGEST_MISMATCH, "boot_data.digest" },
	{ OTA_BOOT_DATA_RESERVED_NONZERO, "boot_data.reserved" },
	{ OTA_BOOT_DATA_BAD_FIELD, "boot_data" },
	{ OTA_OTP_TRUNCATED, "otp" },
	{ OTA_OTP_BAD_MAGIC, "otp.magic" },
	{ OTA_OTP_BAD_VERSION, "otp.version" },
	{ OTA_OTP_BAD_SIZE, "otp.size" },
	{ OTA_OTP_DIGEST_MISMATCH, "otp.hw_cfg_digest" },
	{ OTA_OTP_BAD_LIFECYCLE, "otp.lifecycle" },
	{ OTA_OTP_LIFECYCLE_TRANSITION, "otp.lifecycle_transition" },
	{ OTA_OTP_BAD_KEY_SLOT, "otp.creator_keys" },
	{ OTA_OTP_RESERVED_NONZERO, "otp.reserved" },
	{ OTA_OTP_BAD_COUNTER, "otp.counters" },
	{ OTA_OTP_BAD_FEATURES, "otp.features" },
	{ OTA_OTP_BAD_FIELD, "otp.chain_max_svn" },
	{ OTA_OWNER_TRUNCATED, "owner_config" },
	{ OTA_OWNER_BAD_MAGIC, "owner_config.magic" },
	{ OTA_OWNER_BAD_VERSION, "owner_config.version" },
	{ OTA_OWNER_BAD_SIZE, "owner_config.size" },
	{ OTA_OWNER_BAD_DEPTH, "owner_config.max_delegation_depth" },
	{ OTA_OWNER_RESERVED_NONZERO, "owner_config.reserved" },
	{ OTA_OWNER_BAD_KEYS, "owner_config.keys" },
	{ OTA_OWNER_UNKNOWN_FLAGS, "owner_config.flags" },
	{ OTA_LAYOUT_TRUNCATED, "layout" },
	{ OTA_LAYOUT_BAD_MAGIC, "layout.magic" },
	{ OTA_LAYOUT_BAD_VERSION, "layout.version" },
	{ OTA_LAYOUT_BAD_SIZE, "layout.size" },
	{ OTA_LAYOUT_BAD_PAGE_SIZE, "layout.page_size" },
	{ OTA_LAYOUT_BAD_FLASH_SIZE, "layout.flash_size" },
	{ OTA_LAYOUT_REGION_OUT_OF_RANGE, "layout.region" },
	{ OTA_LAYOUT_REGION_OVERLAP, "layout.region" },
	{ OTA_LAYOUT_REGION_MISALIGNED, "layout.region" },
	{ OTA_LAYOUT_REGION_MISSING, "layout.region" },
	{ OTA_LAYOUT_LOCKS_SCATTERED, "layout.region" },
	{ OTA_LAYOUT_RESERVED_NONZERO, "layout.reserved" },
	{ OTA_IDCERT_BAD_MAGIC, "idcert.magic" },
	{ OTA_IDCERT_BAD_LENGTH, "idcert.der_length" },
	{ OTA_IDCERT_BAD_DER, "idcert.der" },
	{ OTA_IDCERT_RESERVED_NONZERO, "idcert.der" },
	{ OTA_RECORD_TRUNCATED, "record" },
	{ OTA_RECORD_BAD_MAGIC, "record.magic" },
	{ OTA_RECORD_BAD_VERSION, "record.version" },
	{ OTA_RECORD_BAD_LENGTH, "record.length" },
	{ OTA_RECORD_BAD_STAGE_COUNT, "record.stage_count" },
	{ OTA_RECORD_RESERVED_NONZERO, "record.reserved" },
	{ OTA_RECORD_BAD_FIELD, "record" },
	{ OTA_TOOL_SPXKEY_BAD_MAGIC, "spx_key.magic" },
	{ OTA_TOOL_SPXKEY_BAD_VERSION, "spx_key.version" },
	{ OTA_TOOL_SPXKEY_BAD_SIZE, "spx_key.size" },
	{ OTA_TOOL_SPXKEY_BAD_ALG, "spx_key.algorithm" },
	{ OTA_TOOL_SPXKEY_BAD_KIND, "spx_key.kind" },
	{ OTA_TOOL_SPXKEY_RESERVED_NONZERO, "spx_key.sk" },
	{ OTA_TOOL_SPXKEY_MISMATCH, "spx_key.pk" },
};

const char *oti_status_field(ota_status_t st)
{
	size_t i;

	for (i = 0; i < sizeof(status_fields) / sizeof(status_fields[0]); i++)
		if (status_fields[i].st == st)
			return status_fields[i].field;
	return NULL;
}

bool oti_status_is_ext(ota_status_t st)
{
	uint32_t mod = (st >> 8) & 0xffu;

	return st != OTA_OK && st != OTA_EXT_TOO_MANY &&
	       (mod == OTA_MOD_EXT || mod == OTA_MOD_CERT);
}
