/* SPDX-License-Identifier: MIT */
/*
 * libotimage: what the `otimage` tool does, as a C API the unit tests and
 * fixtures link against. Builds signed images with 0..2 delegates in
 * memory, issues delegation certificates, packs flash images, builds and
 * programs OTP images, builds owner configs, loads and saves keys.
 *
 * Every function returns an ota_status_t from otattest/status.h (OTA_OK on
 * success) and, where a file or a field is to blame, fills a struct
 * oti_diag so a caller can say "FILE: FIELD: message". Builders refuse
 * what the firmware would refuse, with the firmware's status codes (the
 * checks are the very functions in libotattest core); fixtures for
 * refusal tests pass OTI_UNCHECKED to get the bytes anyway.
 *
 * Memory: buffers returned through `uint8_t **out` are malloc'd and
 * belong to the caller (free()). Keys are released with oti_key_free().
 */
#ifndef OTATTEST_OTIMAGE_H
#define OTATTEST_OTIMAGE_H

#include <stdio.h>
#include <sys/types.h>

#include <openssl/evp.h>

#include <otattest/deleg.h>
#include <otattest/flash.h>
#include <otattest/keys.h>
#include <otattest/manifest.h>
#include <otattest/revocation.h>
#include <otattest/otp.h>
#include <otattest/record.h>
#include <otattest/stage_check.h>
#include <otattest/status.h>

/* ---- diagnostics -------------------------------------------------------- */

struct oti_diag {
	char file[256];   /* the input or output the failure is about, or "" */
	char field[96];   /* the field, extension or option to blame, or "" */
	char detail[192]; /* extra words (OpenSSL's reason, strerror), or "" */
};

void oti_diag_clear(struct oti_diag *d);
/* Any argument may be NULL to leave that part as it is. Returns st. */
ota_status_t oti_diag_set(struct oti_diag *d, ota_status_t st, const char *file,
			  const char *field, const char *detail_fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* One line: "otimage: FILE: FIELD: message: detail" (empty parts left out). */
void oti_diag_print(FILE *f, const struct oti_diag *d, ota_status_t st);
/* The exit code for a status: its class's code from status.h. */
int oti_exit_code(ota_status_t st);

/* ---- keys --------------------------------------------------------------- */

/*
 * A signing key: P-256 always; SLH-DSA-SHA2-128s as well when algorithm
 * is OTA_KEY_ALG_HYBRID. On disk a key is a PEM file (PKCS#8 private key
 * or SubjectPublicKeyInfo) and, for hybrid keys, an SLH-DSA key file at
 * the same path plus OTI_SPX_SUFFIX (struct oti_spx_keyfile).
 */
struct oti_key {
	EVP_PKEY *pkey;    /* P-256; holds the private key when has_private */
	bool has_private;
	uint32_t algorithm; /* OTA_KEY_ALG_ECDSA_P256 or OTA_KEY_ALG_HYBRID */
	uint8_t pub[OTA_P256_PUBKEY_BYTES]; /* X || Y */
	uint8_t key_id[OTA_KEY_ID_BYTES];   /* ota_key_id(pub) */
	uint8_t spx_pk[OTA_SLHDSA_PK_BYTES]; /* hybrid only */
	uint8_t spx_sk[OTA_SLHDSA_SK_BYTES]; /* hybrid with has_private only */
};

#define OTI_SPX_SUFFIX ".spx"

/* The SLH-DSA key file. 112 bytes, little-endian; see docs/formats.md. */
#define OTI_SPXKEY_MAGIC OTA_FOURCC('O', 'T', 'S', 'K')
#define OTI_SPXKEY_VERSION 1u
#define OTI_SPXKEY_ALG_SLHDSA_SHA2_128S OTA_FOURCC('S', 'L', 'H', 'S')
#define OTI_SPXKEY_KIND_SECRET OTA_FOURCC('S', 'E', 'C', 'R')
#define OTI_SPXKEY_KIND_PUBLIC OTA_FOURCC('P', 'U', 'B', 'L')

struct oti_spx_keyfile {
	uint32_t magic;     /* 0: OTI_SPXKEY_MAGIC */
	uint16_t version;   /* 4: OTI_SPXKEY_VERSION */
	uint16_t size;      /* 6: sizeof(struct oti_spx_keyfile) */
	uint32_t algorithm; /* 8: OTI_SPXKEY_ALG_SLHDSA_SHA2_128S */
	uint32_t kind;      /* 12: OTI_SPXKEY_KIND_* */
	/* 16: SK.seed || SK.prf || PK.seed || PK.root; zero in a public key file */
	uint8_t sk[OTA_SLHDSA_SK_BYTES];
	uint8_t pk[OTA_SLHDSA_PK_BYTES]; /* 80: PK.seed || PK.root */
};
OTA_STATIC_ASSERT(sizeof(struct oti_spx_keyfile) == 112, "oti_spx_keyfile layout");

/* Fresh key from OpenSSL's DRBG (EVP_PKEY_Q_keygen; RAND_priv_bytes for SLH-DSA seeds). */
ota_status_t oti_key_generate(uint32_t algorithm, struct oti_key *out, struct oti_diag *d);
/*
 * Load a private or public key from path (and path.spx when it exists).
 * need_private: TOOL_KEY_NOT_PRIVATE when the file holds a public key.
 */
ota_status_t oti_key_load(const char *path, bool need_private, struct oti_key *out,
			  struct oti_diag *d);
/* Parse key files already in memory (spx may be NULL for an ECDSA-only key). */
ota_status_t oti_key_parse(const uint8_t *pem, size_t pem_len, const uint8_t *spx,
			   size_t spx_len, struct oti_key *out, struct oti_diag *d);
/*
 * Save the private key to priv_path and/or the public part to pub_path
 * (either may be NULL), with the .spx files of a hybrid key, all in one
 * atomic set: either every file is written or none. Refuses to replace an
 * existing file unless force.
 */
ota_status_t oti_key_save(const struct oti_key *k, const char *priv_path, const char *pub_path,
			  bool force, struct oti_diag *d);
/* Serialize the key files in memory (PEM; and the SLH-DSA key file when hybrid). */
ota_status_t oti_key_encode(const struct oti_key *k, bool public_only, uint8_t **pem,
			    size_t *pem_len, struct oti_spx_keyfile *spx);
/* A public-only copy of k. */
ota_status_t oti_key_public(const struct oti_key *k, struct oti_key *out);
void oti_key_free(struct oti_key *k);
/* The key as a provisioned root key entry (OTP creator key, owner key). */
void oti_key_root_entry(const struct oti_key *k, uint32_t lifecycle_mask,
			struct ota_root_key *out);

/* Raw signatures: r || s over a SHA-256 digest; SLH-DSA over a message. */
ota_status_t oti_ecdsa_sign(const struct oti_key *k, const uint8_t digest[OTA_SHA256_BYTES],
			    uint8_t sig[OTA_P256_SIG_BYTES]);
/* OTA_OK, SIG_ECDSA_INVALID or SIG_BAD_PUBKEY. */
ota_status_t oti_ecdsa_verify(const uint8_t pub[OTA_P256_PUBKEY_BYTES],
			      const uint8_t digest[OTA_SHA256_BYTES],
			      const uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t oti_spx_sign(const struct oti_key *k, const uint8_t *msg, size_t len,
			  uint8_t sig[OTA_SLHDSA_SIG_BYTES]);

/* ---- delegation certificates -------------------------------------------- */

/*
 * A certificate as issued: the DLGC, and its DLGS when parent and
 * delegate are both hybrid. A certificate file holds the DLGC's 224 bytes
 * followed by the DLGS's 7936 when present: the very bytes that go into
 * an image's unsigned region.
 */
struct oti_cert {
	struct ota_dlgc dlgc;
	bool has_dlgs;
	struct ota_dlgs dlgs;
};

/* Skip the checks the firmware would apply (for refusal-test fixtures). */
#define OTI_UNCHECKED 0x1u

/*
 * Issue a certificate for delegate's public key, signed by parent. With
 * parent_cert NULL the parent is a root key; otherwise parent must be
 * parent_cert's delegate (TOOL_KEY_MISMATCH), parent_cert an
 * intermediate (DELEG_BAD_CHAIN_SHAPE) and the child contained in it
 * (DELEG_WIDER_*); a child of an intermediate must be a leaf. The link
 * is hybrid (a DLGS) exactly when the parent's SLH-DSA key is trusted - a
 * hybrid root, or a parent certificate with a DLGS certifying parent's
 * SLH-DSA key (TOOL_KEY_MISMATCH) - so a hybrid delegate needs such a
 * parent (TOOL_HYBRID_PARENT) and such a parent a hybrid delegate
 * (DELEG_CERT_SPX_MISSING); a leaf may not delegate to its hybrid
 * intermediate's own key (EXT_DUPLICATE, the device's parser refuses it).
 */
ota_status_t oti_cert_issue(const struct oti_key *parent, const struct oti_cert *parent_cert,
			    const struct oti_key *delegate, uint32_t cert_type,
			    const struct ota_constraints *c, uint32_t flags, struct oti_cert *out,
			    struct oti_diag *d);
/* A certificate file's bytes: checked with ota_dlgc_check / ota_dlgs_check. */
ota_status_t oti_cert_parse(const uint8_t *buf, size_t len, struct oti_cert *out,
			    struct oti_diag *d);
ota_status_t oti_cert_load(const char *path, struct oti_cert *out, struct oti_diag *d);
size_t oti_cert_encoded_len(const struct oti_cert *c);
/* Writes oti_cert_encoded_len(c) bytes. */
void oti_cert_encode(const struct oti_cert *c, uint8_t *out);

/* ---- the device check --------------------------------------------------- */

/*
 * The device an image is checked for (otimage --otp, --owner-config,
 * --root-key, --slot). Every part is optional: what is missing is taken
 * to let the image pass and named in the verdict (struct oti_verdict).
 */
struct oti_device {
	bool has_otp;            /* creator keys, lifecycle, device id, revocation, floors */
	struct ota_otp otp;
	bool has_owner;          /* BL0's root keys and rules */
	struct ota_owner_config owner;
	bool has_root;           /* the root key: --root-key, or a direct image's signer */
	struct ota_root_key root;
	bool has_slot;
	uint32_t slot;
};

#define OTI_NOT_APPLIED_MAX 12

/* What the device would decide, and on what. */
struct oti_verdict {
	ota_status_t status;      /* the device's: OTA_OK or its refusal */
	uint32_t stage, slot, lifecycle; /* what was checked (assumed ones included) */
	bool root_known;          /* the root key's public key was given */
	uint8_t root_key_id[OTA_KEY_ID_BYTES];
	bool hybrid;              /* every SLH-DSA part was required */
	bool signatures;          /* every signature was verified (a root key was given) */
	uint32_t cert_index;      /* the certificate a refusal is about, or OTA_MAX_DELEGATION_DEPTH */
	const char *not_applied[OTI_NOT_APPLIED_MAX]; /* device checks left out, and why */
	uint32_t not_applied_count;
};

/* Run the path-independent policy only: for an image not signed yet. */
#define OTI_CHECK_POLICY 0x1u

/*
 * Check an image as the device's slow path would, with the device's own
 * code (libotattest core, stage_check.h): the parser, the stage's trust
 * anchors built from dev, ota_policy_check and, unless OTI_CHECK_POLICY,
 * every signature (OpenSSL as the ECDSA verifier). Returns the device's
 * status (also in out->status) with d naming the field; docs/otimage.md
 * lists what is assumed when dev leaves a part out.
 */
ota_status_t oti_device_check(const struct oti_device *dev, const uint8_t *img, size_t len,
			      uint32_t flags, struct oti_verdict *out, struct oti_diag *d);
/*
 * Whether a device takes images under cert (issued by parent under
 * parent_cert, which may be NULL): the device checks images, so this
 * runs oti_device_check's policy (OTI_CHECK_POLICY) on the most
 * permissive image cert allows - never signed, never written: its
 * usage, the lowest SVN at or above the device's floor, the leaf of an
 * intermediate standing in as one more certificate with its constraints.
 */
ota_status_t oti_cert_device_check(const struct oti_device *dev, const struct oti_key *parent,
				   const struct oti_cert *parent_cert, const struct oti_cert *cert,
				   struct oti_verdict *out, struct oti_diag *d);
/* Load the files a device is described by; NULL paths are left out. */
ota_status_t oti_device_load(const char *otp_path, const char *owner_path, const char *root_path,
			     const char *slot, struct oti_device *out, struct oti_diag *d);

/* ---- images ------------------------------------------------------------- */

/* An extension a test wants in the image besides the ones otimage makes. */
struct oti_raw_ext {
	uint32_t type;
	uint32_t flags;     /* OTA_EXT_F_* */
	bool in_signed;     /* place in the signed (true) or unsigned region */
	const uint8_t *body; /* bytes after the 16-byte extension header */
	uint32_t body_len;
};

struct oti_image_params {
	uint32_t identifier;       /* OTA_ID_ROM_EXT or OTA_ID_BL0 */
	uint32_t security_version; /* <= OTA_SVN_LIMIT */
	uint32_t max_key_version;
	struct ota_usage usage;
	char version_string[OTA_VERSION_STRING_BYTES]; /* NUL padded; all zero: none */
	bool has_salt;
	uint8_t salt[32];
	bool has_load;                 /* a LOAD extension: the payload is code */
	struct {
		uint32_t load_address; /* where the payload's first byte runs */
		uint32_t entry;        /* the first instruction */
		uint32_t reserved[2];  /* zero */
	} load;
	const uint8_t *payload;
	size_t payload_len;
	const struct oti_raw_ext *extra; /* NULL or extra_count entries */
	uint32_t extra_count;
	uint32_t flags; /* OTI_UNCHECKED */
	const struct oti_device *device; /* checked for this device; NULL: nothing known */
	struct oti_verdict *verdict;     /* not NULL: the device check's verdict, on success */
};

/*
 * A payload file that is an executable for the device's core (an ELF32
 * RISC-V executable, like build/rv32/rom_ext.elf): its one segment with
 * file bytes becomes the payload (p->payload points into file) and its
 * address and entry point a LOAD extension. OTA_OK and *is_elf false for
 * any other file, which is packed as it is. OTA_TOOL_BAD_VALUE for an ELF
 * that is not such an executable (another machine or class, not ET_EXEC,
 * no or more than one segment with bytes, one whose memory size differs,
 * an entry point outside it).
 */
ota_status_t oti_payload_elf(const uint8_t *file, size_t len, struct oti_image_params *p,
			     bool *is_elf, struct oti_diag *d);

/*
 * Build and sign an image. chain holds chain_len (0..2) certificates
 * root-to-leaf; signer is the root key (chain_len 0) or the leaf's
 * delegate. Unless OTI_UNCHECKED the result passes oti_device_check for
 * p->device (the device's policy before anything is signed, its
 * signature checks after), a direct image's signer standing in for the
 * root key the device does not name. A hybrid signer adds the image's
 * SLH-DSA signature.
 */
ota_status_t oti_image_build(const struct oti_image_params *p, const struct oti_key *signer,
			     const struct oti_cert *chain, uint32_t chain_len, uint8_t **out,
			     size_t *out_len, struct oti_diag *d);
/* A field revocation command (otattest/revocation.h) to build. */
struct oti_revocation_params {
	uint32_t action; /* enum ota_revocation_action */
	uint32_t target;
	uint32_t value;
	uint32_t sequence;        /* 1..OTA_REVOCATION_SEQ_MAX */
	const uint8_t *device_id; /* OTA_DEVICE_ID_BYTES, or NULL: fleet-wide */
};
/*
 * Fill and sign a revocation command with signer (a creator or owner
 * root key). REVOKE_MALFORMED for fields no device takes,
 * REVOKE_SEQUENCE_EXHAUSTED for a sequence outside 1..256.
 */
ota_status_t oti_revocation_build(const struct oti_revocation_params *p,
				  const struct oti_key *signer, struct ota_revocation *out,
				  struct oti_diag *d);
/*
 * The same as a hybrid command (version 2, 8000 bytes): the ECDSA
 * signature and the SLH-DSA one over the same digest. TOOL_BAD_VALUE when
 * signer is not a hybrid key.
 */
ota_status_t oti_revocation_build_hybrid(const struct oti_revocation_params *p,
					 const struct oti_key *signer,
					 struct ota_revocation_hybrid *out, struct oti_diag *d);

/*
 * Re-sign an image in place after a test edited its bytes: recompute the
 * measurement, the ECDSA signature and, if present and signer is hybrid,
 * the SPXS signature. The manifest must still bound the signed region
 * (signed_end <= len); nothing else is checked.
 */
ota_status_t oti_image_resign(uint8_t *img, size_t len, const struct oti_key *signer);


/* ---- owner config ------------------------------------------------------- */

struct oti_owner_params {
	struct ota_root_key keys[OTA_OWNER_MAX_KEYS];
	uint32_t key_count;
	uint32_t max_delegation_depth;
	uint32_t flags; /* OTA_OWNER_F_* */
};
/* Built and checked with ota_owner_config_check. */
ota_status_t oti_owner_config_build(const struct oti_owner_params *p,
				    struct ota_owner_config *out, struct oti_diag *d);
/* Read an owner config file (exactly one struct) and check it. */
ota_status_t oti_owner_config_load(const char *path, struct ota_owner_config *out,
				   struct oti_diag *d);

/* ---- flash image -------------------------------------------------------- */

#define OTI_FLASH_DEFAULT_SIZE (1024u * 1024u)
#define OTI_ROM_EXT_SLOT_DEFAULT (128u * 1024u)
#define OTI_BL0_SLOT_DEFAULT (256u * 1024u)

/* Slot order in struct oti_flash_params. */
enum oti_slot_index { OTI_ROM_EXT_A, OTI_ROM_EXT_B, OTI_BL0_A, OTI_BL0_B, OTI_SLOTS };

struct oti_flash_params {
	uint32_t flash_size;        /* 0: OTI_FLASH_DEFAULT_SIZE */
	uint32_t rom_ext_slot_size; /* 0: OTI_ROM_EXT_SLOT_DEFAULT */
	uint32_t bl0_slot_size;     /* 0: OTI_BL0_SLOT_DEFAULT */
	const uint8_t *slot[OTI_SLOTS]; /* NULL: the slot stays erased (0xff) */
	size_t slot_len[OTI_SLOTS];
	const struct ota_owner_config *owner; /* NULL: region erased */
	const struct ota_identity_cert_blob *idcert; /* NULL: region erased */
	/* initial boot data */
	uint32_t primary_slot;
	uint32_t tag_key_version;
	uint32_t floor_rom_ext;
	uint32_t floor_bl0;
	uint32_t flags; /* OTI_UNCHECKED: place slot images without parsing them */
};

/*
 * The layout pack uses: page 0 layout; pages 1-6 boot data 0/1, tag table
 * 0/1, owner config, identity certificate; slots from 64 KiB up in the
 * order ROM_EXT A, ROM_EXT B, BL0 A, BL0 B.
 */
ota_status_t oti_flash_layout_default(uint32_t flash_size, uint32_t rom_ext_slot_size,
				      uint32_t bl0_slot_size, struct ota_flash_layout *out,
				      struct oti_diag *d);
/*
 * A whole flash image (flash_size bytes): layout, slots, both boot data
 * copies (sequence 0 and 1), two empty tag tables (0 and 1), owner config
 * and identity certificate; everything else 0xff. Slot images must parse
 * and carry their stage's identifier unless OTI_UNCHECKED.
 */
ota_status_t oti_flash_build(const struct oti_flash_params *p, uint8_t **out, size_t *out_len,
			     struct oti_diag *d);
/*
 * What pack requires of a slot image: it parses (ota_image_parse), its
 * identifier is the slot's stage, and the file is exactly the image.
 */
ota_status_t oti_slot_image_check(enum oti_slot_index slot, const uint8_t *img, size_t len,
				  struct oti_diag *d);
/* The identity certificate blob around a DER certificate. */
ota_status_t oti_idcert_blob(const uint8_t *der, size_t len, struct ota_identity_cert_blob *out,
			     struct oti_diag *d);

/* ---- OTP image ---------------------------------------------------------- */

struct oti_otp_params {
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	uint32_t lifecycle;     /* enum ota_lifecycle */
	uint32_t features;      /* OTA_OTP_F_* */
	uint32_t chain_max_svn; /* 1..OTA_SVN_LIMIT; 0: OTA_CHAIN_DEFAULT_MAX_SVN */
	uint8_t owner_config_digest[OTA_SHA256_BYTES];
	struct ota_root_key creator_keys[OTA_OTP_CREATOR_KEYS];
	uint32_t creator_key_count;
	uint8_t device_secret[32];
	uint32_t epoch;
	uint32_t floor_rom_ext;
	uint32_t floor_bl0;
	bool creator_key_revoked[OTA_OTP_CREATOR_KEYS];
	bool owner_key_revoked[4];
};

/* Build, seal both digests, and check with ota_otp_decode. */
ota_status_t oti_otp_build(const struct oti_otp_params *p, struct ota_otp *out,
			   struct oti_diag *d);
/*
 * Program counters of an existing image with OTP semantics: bits are only
 * ever set. Raising a floor below its current value is OTP_CLEARS_BITS;
 * to the same value, a no-op. The result is re-decoded before returning;
 * on failure *otp is unchanged.
 */
ota_status_t oti_otp_raise_floor(struct ota_otp *otp, uint32_t stage, uint32_t floor);
ota_status_t oti_otp_bump_epoch(struct ota_otp *otp, uint32_t *new_epoch);
/* owner false: creator key slot `index`; true: owner config key `index`. */
ota_status_t oti_otp_revoke(struct ota_otp *otp, bool owner, uint32_t index);
/*
 * Move the lifecycle out of test_unlocked to `lifecycle` (enum
 * ota_lifecycle: dev, prod or prod_end; lifecycle_transition, otp.h);
 * a no-op when it is there already, OTP_LIFECYCLE_TRANSITION otherwise.
 */
ota_status_t oti_otp_set_lifecycle(struct ota_otp *otp, uint32_t lifecycle);
/* Read an OTP image file (exactly one struct) and check it with ota_otp_decode. */
ota_status_t oti_otp_load(const char *path, struct ota_otp *out, struct oti_diag *d);
/* OTP_CLEARS_BITS if `next` clears any bit set in `prev`. */
ota_status_t oti_otp_program_check(const struct ota_otp *prev, const struct ota_otp *next);

/* ---- files -------------------------------------------------------------- */

/* Read a whole file of at most max bytes (TOOL_TOO_LARGE above), NUL after the end. */
ota_status_t oti_file_read(const char *path, size_t max, uint8_t **out, size_t *len,
			   struct oti_diag *d);

struct oti_output {
	const char *path;
	const void *data;
	size_t len;
	mode_t mode; /* 0600 for secrets, 0644 otherwise */
};
/*
 * Write every output to a temporary file in its target directory, fsync,
 * then rename each into place and sync the directory (otu_stage_file,
 * otu_stage_commit): a failure before the renames leaves no output behind
 * and no existing file changed. Refuses existing targets (TOOL_EXISTS)
 * unless force.
 */
ota_status_t oti_files_write(const struct oti_output *outs, size_t n, bool force,
			     struct oti_diag *d);

/* ---- values (command line and config files) ----------------------------- */

ota_status_t oti_parse_u32(const char *s, uint32_t max, uint32_t *out);
/* "a", "b", "a,b", "all" or a number. */
ota_status_t oti_parse_slot_mask(const char *s, uint32_t *out);
/* "dev,prod", "all", ... or a number. */
ota_status_t oti_parse_lifecycle_mask(const char *s, uint32_t *out);
ota_status_t oti_parse_lifecycle(const char *s, uint32_t *out);
/* "none", "tag-boot", "debug", "tag-boot,debug" or a number. */
ota_status_t oti_parse_caps(const char *s, uint32_t *out);
/* "any" or 32 hex digits (a device id). */
ota_status_t oti_parse_device(const char *s, struct ota_usage *u);
/* "rom_ext"/"rom-ext" or "bl0". */
ota_status_t oti_parse_stage(const char *s, uint32_t *stage);
/* Exactly n bytes of hex. */
ota_status_t oti_parse_hex(const char *s, uint8_t *out, size_t n);
/* "on"/"off", "yes"/"no", "true"/"false", "1"/"0". */
ota_status_t oti_parse_bool(const char *s, bool *out);

/* ---- inspect ------------------------------------------------------------ */

enum oti_file_kind {
	OTI_FILE_UNKNOWN,
	OTI_FILE_IMAGE,
	OTI_FILE_CERT,
	OTI_FILE_FLASH,
	OTI_FILE_OTP,
	OTI_FILE_OWNER_CONFIG,
	OTI_FILE_BOOT_DATA,
	OTI_FILE_TAG_TABLE,
	OTI_FILE_IDCERT,
	OTI_FILE_RECORD,
	OTI_FILE_KEY_PEM,
	OTI_FILE_KEY_SPX,
	OTI_FILE_X509, /* a DER or PEM X.509 certificate (CA, identity, alias) */
	OTI_FILE_REVOCATION, /* a field revocation command (revocation.h) */
	OTI_FILE_EVIDENCE, /* ATTEST's answer: a tagged COSE_Sign1 (evidence.h) */
};

enum oti_file_kind oti_file_detect(const uint8_t *buf, size_t len);
const char *oti_file_kind_name(enum oti_file_kind k);
/*
 * Describe a file, human-readable or as one JSON object, on out. Fails
 * (with the field to blame in d) when the file does not parse; nothing is
 * printed then. Never prints a device secret or a private key.
 */
ota_status_t oti_inspect(const char *path, const uint8_t *buf, size_t len, bool json,
			 FILE *out, struct oti_diag *d);
/*
 * The same, and for an image also oti_device_check for dev (NULL: nothing
 * known of the device), whose verdict the description ends with.
 */
ota_status_t oti_inspect_device(const char *path, const uint8_t *buf, size_t len, bool json,
				const struct oti_device *dev, FILE *out, struct oti_diag *d);
/*
 * The same, showing the key ids an alias certificate certifies by the
 * names in names (docs/keynames.md; NULL: every key as its short hex).
 */
struct otu_keynames;
ota_status_t oti_inspect_named(const char *path, const uint8_t *buf, size_t len, bool json,
			       const struct oti_device *dev, const struct otu_keynames *names,
			       FILE *out, struct oti_diag *d);

#endif /* OTATTEST_OTIMAGE_H */
