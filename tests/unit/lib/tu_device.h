/* SPDX-License-Identifier: MIT */
/*
 * A provisioned device for boot tests, built with otimage's C API (the
 * same code the otimage tool runs): keys, delegation certificates,
 * signed images, owner config, OTP and flash images, loaded into the
 * software HAL in memory.
 *
 * Keys are generated once per process and cached; call tu_keys_warm()
 * from main() (before check forks) so every test case reuses them. The
 * same goes for images that need SLH-DSA signatures (about 0.6 s each):
 * build them in main() or in an unchecked fixture.
 */
#ifndef OTATTEST_TU_DEVICE_H
#define OTATTEST_TU_DEVICE_H

#include "otimage.h"

enum tu_key_id {
	TU_CREATOR0, /* OTP creator key slot 0: signs ROM_EXT */
	TU_CREATOR1, /* OTP creator key slot 1 */
	TU_OWNER0,   /* owner config key 0 (ECDSA) */
	TU_OWNER1,   /* owner config key 1 (ECDSA) */
	TU_INTER,    /* intermediate delegate (ECDSA) */
	TU_LEAF,     /* leaf delegate (ECDSA) */
	TU_ROGUE,    /* an ECDSA key nobody trusts */
	TU_OWNER_H,  /* hybrid owner root key */
	TU_INTER_H,  /* hybrid intermediate */
	TU_LEAF_H,   /* hybrid leaf */
	TU_ROGUE_H,  /* a hybrid key nobody trusts */
	TU_KEY_COUNT,
};

/* Generated on first use and kept for the life of the process. */
const struct oti_key *tu_key(enum tu_key_id id);
/* Generate every key now (hybrid ones too when `hybrid`). */
void tu_keys_warm(bool hybrid);

/* Usage and constraints that allow everything. */
struct ota_usage tu_usage_all(void);
struct ota_constraints tu_constraints(uint32_t svn_min, uint32_t svn_max);

struct tu_blob {
	uint8_t *data; /* malloc'd; NULL: nothing (an erased slot) */
	size_t len;
};
void tu_blob_free(struct tu_blob *b);
struct tu_blob tu_blob_dup(const struct tu_blob *b);

/*
 * A certificate; `unchecked` skips the containment checks (refusal
 * fixtures). otimage's device checks never apply to fixtures: the boot
 * is what judges them (test_otimage_device.c compares the two).
 */
struct oti_cert tu_cert(enum tu_key_id parent, const struct oti_cert *parent_cert,
			enum tu_key_id delegate, uint32_t cert_type,
			const struct ota_constraints *c, bool unchecked);

struct tu_image_spec {
	uint32_t stage;           /* OTA_STAGE_ROM_EXT or OTA_STAGE_BL0 */
	uint32_t svn;
	uint32_t max_key_version;
	struct ota_usage usage;
	size_t payload_len;
	uint8_t payload_seed;     /* payload bytes are a function of this */
	bool salt;
	const char *version_string; /* NULL: none */
	enum tu_key_id signer;
	const struct oti_cert *chain;
	uint32_t chain_len;
	bool unchecked;
	/*
	 * Code for the core instead of the seeded bytes: the payload (code,
	 * payload_len bytes) and a LOAD extension (oti_payload_elf gives them).
	 */
	const uint8_t *code;
	bool has_load;
	uint32_t load_address, entry;
};
/*
 * ROM_EXT: signed by TU_CREATOR0. BL0: signed directly by TU_OWNER0.
 * max_key_version 16, usage all (tag boot claimed), 4 KiB payload.
 */
void tu_image_spec_init(struct tu_image_spec *s, uint32_t stage, uint32_t svn);
struct tu_blob tu_image(const struct tu_image_spec *s);
/*
 * A stage executable (an rv32 ELF executable of build/rv32/) signed as the
 * fixture signs that stage (tu_image_spec_init): its code as the payload
 * and a LOAD extension placing it at load (0: the ELF's own address), the
 * entry moved with it (oti_payload_elf).
 */
struct tu_blob tu_stage_image(const struct tu_blob *elf, uint32_t stage, uint32_t svn,
			      uint32_t load);
/*
 * BL0 built from an rv32 executable as tu_bl0 signs it (depth 0, 1 or 2,
 * hybrid: the _H keys, SVN 5), its code padded with zeros to pad_to bytes
 * (0: as built): a bigger image that still runs.
 */
struct tu_blob tu_bl0_stage(const struct tu_blob *elf, uint32_t depth, bool hybrid, uint32_t pad_to);
/* A whole file (an image, up to 1 MiB), or the test fails. */
struct tu_blob tu_read_blob(const char *path);
/*
 * d initialised with ROM_EXT A and BL0 A built from these ELFs
 * (tu_stage_image: ROM_EXT SVN 1, BL0 SVN 5), powered on, not booted.
 */
struct tu_device;
void tu_device_stages(struct tu_device *d, const struct tu_blob *rom_ext_elf,
		      const struct tu_blob *bl0_elf);
/*
 * A BL0 image of depth 0, 1 (OWNER0 -> LEAF) or 2 (OWNER0 -> INTER ->
 * LEAF), constraints [0, 255] and usage all; hybrid: the _H keys.
 */
struct tu_blob tu_bl0(uint32_t depth, uint32_t svn, bool hybrid);
/* s signed as tu_bl0 signs at that depth: its signer, and its chain in chain[]. */
void tu_bl0_chain(struct tu_image_spec *s, uint32_t depth, bool hybrid, struct oti_cert chain[2]);

/* A device to provision. */
struct tu_device {
	struct tu_blob slot[OTI_SLOTS]; /* owned by the device; NULL data: erased */

	enum tu_key_id owner_keys[OTA_OWNER_MAX_KEYS];
	uint32_t owner_key_lifecycle[OTA_OWNER_MAX_KEYS]; /* 0: all */
	bool owner_key_ecdsa_only[OTA_OWNER_MAX_KEYS]; /* a hybrid key provisioned as its P-256 half */
	uint32_t owner_key_count;
	uint32_t max_depth;
	uint32_t owner_flags;

	enum tu_key_id creator_keys[OTA_OTP_CREATOR_KEYS];
	uint32_t creator_key_lifecycle[OTA_OTP_CREATOR_KEYS]; /* 0: all */
	uint32_t creator_key_count;
	uint32_t lifecycle;
	uint32_t features;
	uint32_t chain_max_svn;
	uint32_t epoch;
	uint32_t otp_floor_rom_ext, otp_floor_bl0;
	bool creator_revoked[OTA_OTP_CREATOR_KEYS];
	bool owner_revoked[4];
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	uint8_t secret[32];

	uint32_t primary_slot;
	uint32_t tag_key_version;
	uint32_t bd_floor_rom_ext, bd_floor_bl0;

	uint32_t flash_size, rom_ext_slot_size, bl0_slot_size;
};

/*
 * Defaults: ROM_EXT A (svn 1), BL0 A (depth 1, svn 5), B slots erased;
 * owner keys OWNER0 and OWNER1, depth 2, direct boot allowed; creator
 * keys CREATOR0 and CREATOR1; DEV lifecycle; tag boot on; chain length
 * 128; boot data primary A, tag key version 0, no soft floors.
 */
void tu_device_init(struct tu_device *d);
void tu_device_free(struct tu_device *d);
/* Open the software HAL in memory, factory-program it and power on. */
void tu_device_power_on(const struct tu_device *d);
/* The default device (tu_device_init) powered on and cold booted: BL0 A runs. */
void tu_device_boot_default(struct tu_device *d);
/* The end of a test: d's images freed, the software HAL closed. */
void tu_device_close(struct tu_device *d);
/* Replace the contents of one slot in a running device's flash (erase + program). */
void tu_device_write_slot(enum oti_slot_index slot, const struct tu_blob *img);

/* Flash regions of the provisioned layout. */
const struct ota_flash_region *tu_region(uint32_t type);
uint32_t tu_slot_offset(enum oti_slot_index slot);
/* Flip bits in flash the way an attacker with a programmer would. */
void tu_flash_xor(uint32_t addr, uint8_t mask);

/* OTP counters, programmed through hal_otp_program (OR-only, as in the field). */
void tu_otp_raise_floor(uint32_t stage, uint32_t floor);
void tu_otp_revoke(bool owner, uint32_t index);
void tu_otp_bump_epoch(void);

/* Overwrite both boot data copies with bd, as the device would write it (MAC and seal here, counter as given; powers the device on). */
void tu_boot_data_write(const struct ota_boot_data *bd);
/* The boot data the device would use now. */
struct ota_boot_data tu_boot_data(void);
/* The newest valid tag table (all zero when none). */
struct ota_tag_table tu_tag_table(void);

/* The last record, copied; and the attempt for a stage/slot in it (NULL: none). */
const struct ota_record *tu_record(void);
/*
 * The attest binding the key manager folded in for the ROM_EXT the last
 * boot ran (boot_binding_attest of its root key): what ROM_EXT's identity
 * and chain-top keys hang off (swhal_derive_rom_ext_pubkey).
 */
void tu_rom_ext_attest(uint8_t out[32]);
const struct ota_stage_record *tu_attempt(uint32_t stage, uint32_t slot);
/*
 * Personalize the device after a boot, the way otimage provision does:
 * a test CA certifies the identity key the device derives (for the
 * ROM_EXT the last boot ran) and the certificate is written to its flash
 * region with the lab programmer. Returns the CA as a verifier's trust
 * anchor (ota_trust_free); the caller boots again to serve it.
 */
struct ota_trust;
struct ota_trust *tu_identity_provision(const struct tu_device *d);
/* The same, and the CA certificate as PEM (malloc'd, *ca_pem_len bytes) when ca_pem is not NULL. */
struct ota_trust *tu_identity_provision_pem(const struct tu_device *d, char **ca_pem,
					    size_t *ca_pem_len);
/* ROM_EXT A replaced by one signed by creator key k (SVN 1, as tu_image_spec_init signs it). */
void tu_rom_ext_signed_by(enum tu_key_id k);
/* The attempt that booted for a stage (NULL: none). */
const struct ota_stage_record *tu_booted(uint32_t stage);

/*
 * otimage's device check (oti_device_check) of an image against one root
 * key, nothing else known of the device: the verdict a signing pipeline
 * gets from `otimage inspect --root-key`.
 */
ota_status_t tu_verify(const uint8_t *img, size_t len, const struct ota_root_key *root);

/* SHA-256 of an image's signed region, computed here from the file bytes. */
void tu_measurement(const struct tu_blob *img, uint8_t out[OTA_SHA256_BYTES]);

#endif /* OTATTEST_TU_DEVICE_H */
