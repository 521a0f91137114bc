/* SPDX-License-Identifier: MIT */
/*
 * Mailbox commands: their payloads and the one table that says, per
 * command, its number, its name, the exact length of its request and the
 * most its response may carry. The firmware checks request lengths
 * against it, the kernel driver sizes its response buffers and names
 * commands in its logs from it, the model names what it serves and bounds
 * what the firmware may answer with it, and the tests walk it. Nobody
 * writes a per-command list of their own (docs/mailbox.md).
 *
 * The transport (sequence numbers, doorbells, regions) is in shm.h, which
 * includes this header. All fields are little-endian; the numbers and the
 * layouts are wire ABI: never renumber, never resize, only append.
 */
#ifndef OTATTEST_MAILBOX_H
#define OTATTEST_MAILBOX_H

#include "common.h"
#include "flash.h" /* OTA_IDCERT_MAX_DER: what SET_IDENTITY_CERT carries */
#include "record.h"
#include "revocation.h" /* REVOKE carries struct ota_revocation */
#include "status.h"

/* ---- evidence size limit ------------------------------------------------ */

/* Largest claims set (four stage maps with full chains), with headroom. */
#define OTA_CLAIMS_MAX_BYTES 1536u
/*
 * Each certificate in a chain: the alias certificate the firmware issues and
 * the identity certificate from flash (OTA_IDCERT_MAX_DER, 1024, no larger).
 * The alias certificate is the larger one: its MultiTcbInfo certifies the
 * device state and, per booted stage, the results of the check with up to
 * three 32-byte key ids (docs/evidence.md). Its largest form - both stages
 * at delegation depth 2, every number at its widest - is 1090 bytes at most
 * (its ECDSA signature takes 70 to 72; tests/unit/test_alias_cert.c builds
 * it); 1280 leaves about a sixth for the profile to grow. It was 1024
 * while the alias certificate certified measurements only (660 bytes).
 */
#define OTA_CERT_MAX_DER 1280u
/*
 * Evidence (a COSE_Sign1, evidence.h) is never larger than this, and the
 * layers hold it to this one number: the model bounds what the firmware
 * may answer ATTEST with (through the command table below), the kernel
 * allocates this much for the answer, refuses a longer one and so never
 * builds a bigger netlink EVIDENCE attribute.
 *
 * What bounds it is what the firmware puts in: a claims set of at most
 * OTA_CLAIMS_MAX_BYTES (the buffer it encodes into), an x5chain of the
 * alias and the identity certificate of at most OTA_CERT_MAX_DER each,
 * and the COSE framing - tag, array, protected header, the unprotected
 * map around the x5chain, the byte-string heads and the 64-byte
 * signature - which comes to 85 bytes at these sizes; 256 leaves room.
 * tests/unit/test_mbox_table.c encodes the extremes: the largest record's
 * claims (997 bytes) and a full claims buffer with two full certificates
 * (4181 bytes). Real evidence is about 2 KB (the largest alias
 * certificate, 1090 bytes, and an identity certificate of about 500).
 *
 * It must fit the shared-memory response area: the smallest response
 * region a driver accepts (shm.h) is derived from the command table
 * below, ATTEST's row included, so every layout that validates can carry
 * any evidence. The default region (48 KiB) is much larger on purpose:
 * the region bounds what a device may write at all, this limit what
 * evidence may be, and a layer that holds evidence sizes by the limit.
 */
#define OTA_EVIDENCE_MAX_BYTES (OTA_CLAIMS_MAX_BYTES + 2u * OTA_CERT_MAX_DER + 256u)

/* ---- request and response payloads -------------------------------------- */

#define OTA_NONCE_MIN 16u
#define OTA_NONCE_MAX 64u

/* 72 bytes. Exactly this length; bytes past nonce_len are zero. */
struct ota_req_attest {
	uint32_t nonce_len; /* OTA_NONCE_MIN..OTA_NONCE_MAX */
	uint32_t reserved;
	uint8_t nonce[OTA_NONCE_MAX];
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_attest) == 72, "ota_req_attest layout");

/*
 * Sign a caller message with the stable key of SVN `svn` (<= min SVN since
 * cold boot). The device signs SHA-256("OTATTEST-STABLE-SIGN-V1" || svn as
 * u32 LE || message), so these signatures can never be mistaken for
 * evidence or certificates. 72 bytes.
 */
struct ota_req_stable_sign {
	uint32_t svn;
	uint32_t msg_len; /* OTA_NONCE_MIN..OTA_NONCE_MAX */
	uint8_t msg[OTA_NONCE_MAX];
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_stable_sign) == 72, "ota_req_stable_sign layout");
#define OTA_STABLE_SIGN_DOMAIN "OTATTEST-STABLE-SIGN-V1"

/* 136 bytes. */
struct ota_resp_stable_sign {
	uint32_t svn;
	uint32_t reserved;
	uint8_t signature[OTA_P256_SIG_BYTES]; /* r || s */
	uint8_t pubkey[OTA_P256_PUBKEY_BYTES]; /* X || Y */
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_stable_sign) == 136, "ota_resp_stable_sign layout");

/*
 * Certificates, leaf first: the evidence (alias) key's certificate, then
 * the device identity certificate. Each entry is a u32 length followed by
 * that many DER bytes, padded with zeros to a multiple of 4.
 */
struct ota_resp_certs {
	uint32_t count; /* 1..OTA_CERTS_MAX */
	uint32_t reserved;
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_certs) == 8, "ota_resp_certs layout");
#define OTA_CERTS_MAX 4u
/* The most a certificate list can take: OTA_CERTS_MAX entries of the largest size. */
#define OTA_CERTS_RESP_MAX \
	((uint32_t)sizeof(struct ota_resp_certs) + OTA_CERTS_MAX * (4u + OTA_CERT_MAX_DER))

/* 8 bytes. */
struct ota_req_rotate {
	uint32_t flags; /* zero */
	uint32_t reserved;
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_rotate) == 8, "ota_req_rotate layout");

/* 16 bytes. */
struct ota_resp_rotate {
	uint32_t old_key_version;
	uint32_t new_key_version;
	uint32_t stages_retagged;
	uint32_t reserved;
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_rotate) == 16, "ota_resp_rotate layout");

#define OTA_UPDATE_SLOT_OTHER 0xffffffffu /* the BL0 slot that is not running */

/* 8 bytes. */
struct ota_req_update {
	uint32_t slot; /* OTA_SLOT_A, OTA_SLOT_B or OTA_UPDATE_SLOT_OTHER */
	uint32_t reserved;
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_update) == 8, "ota_req_update layout");

/* 16 bytes. */
struct ota_resp_reset {
	uint32_t boot_status;  /* status of the boot the reset performed */
	uint32_t generation;   /* record generation after the reset */
	uint32_t booted_slot;  /* BL0 slot now running */
	uint32_t reserved;
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_reset) == 16, "ota_resp_reset layout");

/*
 * Personalization (docs/mailbox.md): the device's PKCS#10 request for its
 * identity key, and the certificate the manufacturer CA issued for it.
 * The request is DER of about 300 bytes (a name, a P-256 key, an ECDSA
 * signature); OTA_IDENTITY_CSR_MAX_DER leaves room.
 */
#define OTA_IDENTITY_CSR_MAX_DER 512u
/*
 * The certificate goes to the identity certificate region in flash, so it
 * is bounded by the blob there (flash.h: OTA_IDCERT_MAX_DER, 1024 bytes;
 * within OTA_CERT_MAX_DER, so it fits the evidence's x5chain). 1032
 * bytes; exactly this length, bytes past der_length zero.
 */
struct ota_req_set_identity_cert {
	uint32_t der_length; /* 1..OTA_IDCERT_MAX_DER */
	uint32_t reserved;
	uint8_t der[OTA_IDCERT_MAX_DER];
};
OTA_STATIC_ASSERT(OTA_IDCERT_MAX_DER <= OTA_CERT_MAX_DER,
		  "an identity certificate fits a chain's certificate bound");
OTA_STATIC_ASSERT(sizeof(struct ota_req_set_identity_cert) == 1032,
		  "ota_req_set_identity_cert layout");

/*
 * Installing an image (docs/mailbox.md "Updates"): INSTALL_BEGIN opens a
 * session for one stage's slot that is not running, INSTALL_CHUNK streams
 * the image in order into the device's RAM, INSTALL_FINISH checks the
 * whole image with the boot's own stage check and only then writes the
 * slot (or, in a dry run, writes nothing and answers whether this device
 * would accept the image and why not). Nothing reaches flash before the
 * image passed, so a refused install leaves flash as it was.
 */
#define OTA_INSTALL_F_DRY_RUN 0x1u /* check only: CheckImage, flash never written */
#define OTA_INSTALL_F_ALL 0x1u
/* A chunk's payload: fits the default request region (8 KiB) with room. */
#define OTA_INSTALL_CHUNK_MAX 4096u

/* 16 bytes. */
struct ota_req_install_begin {
	uint32_t stage;  /* OTA_STAGE_ROM_EXT or OTA_STAGE_BL0 */
	uint32_t slot;   /* OTA_SLOT_A, OTA_SLOT_B or OTA_UPDATE_SLOT_OTHER (the one not running) */
	uint32_t length; /* the whole image: sizeof(struct ota_manifest)..the slot and RAM bound */
	uint32_t flags;  /* OTA_INSTALL_F_* */
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_install_begin) == 16, "ota_req_install_begin layout");

/* 4104 bytes. Exactly this length; bytes past length zero. */
struct ota_req_install_chunk {
	uint32_t offset; /* == bytes received so far: chunks come in order, once */
	uint32_t length; /* 1..OTA_INSTALL_CHUNK_MAX, offset + length <= image length */
	uint8_t data[OTA_INSTALL_CHUNK_MAX];
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_install_chunk) == 8 + OTA_INSTALL_CHUNK_MAX,
		  "ota_req_install_chunk layout");

/* 8 bytes. */
struct ota_req_install_finish {
	uint32_t flags;    /* zero: none defined */
	uint32_t reserved; /* zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_install_finish) == 8, "ota_req_install_finish layout");

/* INSTALL_BEGIN and INSTALL_CHUNK answer where the session stands. 16 bytes. */
struct ota_resp_install {
	uint32_t stage;
	uint32_t slot;     /* the slot resolved (never OTA_UPDATE_SLOT_OTHER) */
	uint32_t received; /* bytes so far */
	uint32_t length;   /* bytes announced */
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_install) == 16, "ota_resp_install layout");

#define OTA_INSTALL_RESULT_F_DRY_RUN 0x1u /* checked only, nothing written */
#define OTA_INSTALL_RESULT_F_WRITTEN 0x2u /* the slot now holds the image, read back and checked */

/* INSTALL_FINISH on success: what was checked (and written). 72 bytes. */
struct ota_resp_install_finish {
	uint32_t stage;            /* 0 */
	uint32_t slot;             /* 4 */
	uint32_t length;           /* 8 */
	uint32_t security_version; /* 12: from the verified manifest */
	uint32_t flags;            /* 16: OTA_INSTALL_RESULT_F_* */
	uint32_t reserved;         /* 20: zero */
	uint8_t measurement[OTA_SHA256_BYTES];    /* 24 */
	char version[OTA_VERSION_STRING_BYTES]; /* 56: the manifest's version string, NUL padded */
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_install_finish) == 72, "ota_resp_install_finish layout");

/*
 * The boot services (OpenTitan's ROM_EXT boot services, in miniature):
 * COMMIT, RATCHET and REVOKE change state only ROM_EXT may write (boot
 * data, OTP). The runtime checks the request, leaves it in retention RAM
 * and resets (warm); ROM_EXT checks it again as hostile input after it
 * verified the running BL0 and applies it, and the runtime that boots
 * answers with the outcome.
 */
/* 8 bytes. */
struct ota_req_commit {
	uint32_t slot;     /* the BL0 slot running now: it becomes the primary */
	uint32_t reserved; /* zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_commit) == 8, "ota_req_commit layout");

/* 8 bytes. */
/*
 * RATCHET never leaves the stage without a bootable fallback: ROM_EXT
 * refuses a floor the image in the stage's other slot would not pass
 * (RATCHET_NO_FALLBACK), unless the request carries OTA_RATCHET_F_FORCE.
 */
#define OTA_RATCHET_F_FORCE 0x1u
#define OTA_RATCHET_F_ALL 0x1u
struct ota_req_ratchet {
	uint32_t stage; /* OTA_STAGE_ROM_EXT or OTA_STAGE_BL0 */
	uint32_t floor; /* new boot data floor, <= the SVN of that stage's running image */
	uint32_t flags; /* OTA_RATCHET_F_*; another bit is MBOX_BAD_FIELD */
};
OTA_STATIC_ASSERT(sizeof(struct ota_req_ratchet) == 12, "ota_req_ratchet layout");

/* COMMIT, RATCHET and REVOKE: the state after the boot that served them. 32 bytes. */
struct ota_resp_boot_svc {
	uint32_t boot_status;         /* 0: status of the boot the reset performed */
	uint32_t generation;          /* 4: record generation after it */
	uint32_t booted_slot;         /* 8: BL0 slot running */
	uint32_t primary_slot;        /* 12: BL0 primary slot (boot data) */
	uint32_t floor_rom_ext;       /* 16: effective floors */
	uint32_t floor_bl0;           /* 20 */
	uint32_t revocation_sequence; /* 24: highest revocation sequence applied (OTP) */
	uint32_t reserved;            /* 28: zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_boot_svc) == 32, "ota_resp_boot_svc layout");

/*
 * GET_INFO: what the runtime that answers says about itself - the
 * version string compiled into BL0's code (not the manifest's, which the
 * record carries: this one changes only when other code runs). 32 bytes.
 */
struct ota_resp_info {
	char runtime_version[OTA_VERSION_STRING_BYTES]; /* 0: NUL padded, printable ASCII */
	uint32_t reserved[4];                            /* zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_resp_info) == OTA_VERSION_STRING_BYTES + 16u,
		  "ota_resp_info layout");

/* ---- the command table -------------------------------------------------- */

/* Flags column. */
#define OTA_MBOX_F_RESETS 0x1u /* served by resetting the device: the boot after answers */
/*
 * Personalization: served only in the manufacturing lifecycle state
 * (TEST_UNLOCKED; RUNTIME_NOT_MANUFACTURING otherwise). The factory
 * station talks to the device directly; a host driver or daemon in the
 * field has no reason to offer these and must not pass them through.
 */
#define OTA_MBOX_F_FACTORY 0x2u

/*
 * Lane column: does the command read the device or change it? The driver
 * queues CHANGE commands in its privileged lane, ahead of waiting readers,
 * and otattestd sends them from its own; both read it from this table
 * (docs/mailbox.md "Lanes"). Who may send a command is the driver's and
 * the daemon's business (docs/kernel-abi.md "Permissions"), not a column.
 */
#define OTA_MBOX_LANE_READ 0u   /* evidence, signatures, certificates, the record */
#define OTA_MBOX_LANE_CHANGE 1u /* what the device boots, its tags, flash, fuses, its state */

/*
 * Columns: name (OTA_CMD_<name>), number, name for logs and tools,
 * request payload length (exact), largest response payload, OTA_MBOX_F_*,
 * lane (OTA_MBOX_LANE_*). docs/mailbox.md describes each command's
 * payloads and refusals.
 */
#define OTA_MBOX_COMMAND_LIST(X)                                                                   \
	X(GET_RECORD, 1, "get-record", 0u, (uint32_t)OTA_RECORD_MAX_BYTES, 0u, OTA_MBOX_LANE_READ)  \
	X(ATTEST, 2, "attest", (uint32_t)sizeof(struct ota_req_attest), OTA_EVIDENCE_MAX_BYTES, 0u,  \
	  OTA_MBOX_LANE_READ)                                                                       \
	X(STABLE_SIGN, 3, "stable-sign", (uint32_t)sizeof(struct ota_req_stable_sign),              \
	  (uint32_t)sizeof(struct ota_resp_stable_sign), 0u, OTA_MBOX_LANE_READ)                    \
	X(GET_CERTS, 4, "get-certs", 0u, OTA_CERTS_RESP_MAX, 0u, OTA_MBOX_LANE_READ)                \
	X(ROTATE_TAGS, 5, "rotate-tags", (uint32_t)sizeof(struct ota_req_rotate),                   \
	  (uint32_t)sizeof(struct ota_resp_rotate), OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)         \
	X(UPDATE_RESET, 6, "update-reset", (uint32_t)sizeof(struct ota_req_update),                 \
	  (uint32_t)sizeof(struct ota_resp_reset), OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)          \
	X(WARM_RESET, 7, "warm-reset", 0u, (uint32_t)sizeof(struct ota_resp_reset),                 \
	  OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)                                                   \
	X(GET_IDENTITY_CSR, 8, "get-identity-csr", 0u, OTA_IDENTITY_CSR_MAX_DER,                    \
	  OTA_MBOX_F_FACTORY, OTA_MBOX_LANE_READ)                                                    \
	X(SET_IDENTITY_CERT, 9, "set-identity-cert",                                                \
	  (uint32_t)sizeof(struct ota_req_set_identity_cert), 0u, OTA_MBOX_F_FACTORY,                \
	  OTA_MBOX_LANE_CHANGE)                                                                      \
	X(INSTALL_BEGIN, 10, "install-begin", (uint32_t)sizeof(struct ota_req_install_begin),        \
	  (uint32_t)sizeof(struct ota_resp_install), 0u, OTA_MBOX_LANE_CHANGE)                       \
	X(INSTALL_CHUNK, 11, "install-chunk", (uint32_t)sizeof(struct ota_req_install_chunk),        \
	  (uint32_t)sizeof(struct ota_resp_install), 0u, OTA_MBOX_LANE_CHANGE)                       \
	X(INSTALL_FINISH, 12, "install-finish", (uint32_t)sizeof(struct ota_req_install_finish),     \
	  (uint32_t)sizeof(struct ota_resp_install_finish), 0u, OTA_MBOX_LANE_CHANGE)                \
	X(COMMIT, 13, "commit", (uint32_t)sizeof(struct ota_req_commit),                             \
	  (uint32_t)sizeof(struct ota_resp_boot_svc), OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)       \
	X(RATCHET, 14, "ratchet", (uint32_t)sizeof(struct ota_req_ratchet),                          \
	  (uint32_t)sizeof(struct ota_resp_boot_svc), OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)       \
	X(REVOKE, 15, "revoke", (uint32_t)sizeof(struct ota_revocation),                             \
	  (uint32_t)sizeof(struct ota_resp_boot_svc), OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)       \
	X(GET_INFO, 16, "get-info", 0u, (uint32_t)sizeof(struct ota_resp_info), 0u,                  \
	  OTA_MBOX_LANE_READ)                                                                        \
	X(REVOKE_HYBRID, 17, "revoke-hybrid", (uint32_t)sizeof(struct ota_revocation_hybrid),        \
	  (uint32_t)sizeof(struct ota_resp_boot_svc), OTA_MBOX_F_RESETS, OTA_MBOX_LANE_CHANGE)

enum ota_command {
#define OTA_X_MBOX_ENUM(name, num, str, req, resp, flags, lane) OTA_CMD_##name = num,
	OTA_MBOX_COMMAND_LIST(OTA_X_MBOX_ENUM)
#undef OTA_X_MBOX_ENUM
};

/* One per row; the numbers run 1..OTA_CMD_MAX without a gap (asserted below). */
enum ota_command_row {
#define OTA_X_MBOX_ROW(name, num, str, req, resp, flags, lane) OTA_CMD_ROW_##name,
	OTA_MBOX_COMMAND_LIST(OTA_X_MBOX_ROW)
#undef OTA_X_MBOX_ROW
	OTA_CMD_ROWS
};
#define OTA_CMD_MAX ((uint32_t)OTA_CMD_ROWS)

/*
 * Every row: a number in 1..OTA_CMD_MAX (with the lookup table's
 * designated initialisers refusing a repeat, that makes them dense) and
 * lengths in whole little-endian words.
 */
#define OTA_X_MBOX_CHECK(name, num, str, req, resp, flags, lane)                                   \
	OTA_STATIC_ASSERT((num) >= 1 && (num) <= OTA_CMD_ROWS, #name ": number out of range"); \
	OTA_STATIC_ASSERT((req) % 4u == 0 && (resp) % 4u == 0, #name ": lengths in words"); \
	OTA_STATIC_ASSERT((lane) == OTA_MBOX_LANE_READ || (lane) == OTA_MBOX_LANE_CHANGE,       \
			  #name ": a lane");                                                      \
	OTA_STATIC_ASSERT(!((flags) & OTA_MBOX_F_RESETS) || (lane) == OTA_MBOX_LANE_CHANGE,      \
			  #name ": a reset changes the device");
OTA_MBOX_COMMAND_LIST(OTA_X_MBOX_CHECK)
#undef OTA_X_MBOX_CHECK

/* The largest request and response any command has (sizeof a union of byte arrays). */
union ota_mbox_request_bound {
#define OTA_X_MBOX_REQ(name, num, str, req, resp, flags, lane) uint8_t name[(req) ? (req) : 1u];
	OTA_MBOX_COMMAND_LIST(OTA_X_MBOX_REQ)
#undef OTA_X_MBOX_REQ
};
union ota_mbox_response_bound {
#define OTA_X_MBOX_RESP(name, num, str, req, resp, flags, lane) uint8_t name[(resp) ? (resp) : 1u];
	OTA_MBOX_COMMAND_LIST(OTA_X_MBOX_RESP)
#undef OTA_X_MBOX_RESP
};
#define OTA_MBOX_REQUEST_MAX_ANY ((uint32_t)sizeof(union ota_mbox_request_bound))
#define OTA_MBOX_RESPONSE_MAX_ANY ((uint32_t)sizeof(union ota_mbox_response_bound))

/* One row of the table, for code that looks a command up at run time. */
struct ota_mbox_command_desc {
	const char *name;      /* "get-record" */
	uint32_t request_len;  /* the request payload is exactly this long */
	uint32_t response_max; /* a response payload is at most this long */
	uint32_t flags;        /* OTA_MBOX_F_* */
	uint32_t lane;         /* OTA_MBOX_LANE_* */
};

/* The row for a command number, or NULL when the number is not a command. */
static inline const struct ota_mbox_command_desc *ota_mbox_command(uint32_t command)
{
	static const struct ota_mbox_command_desc rows[OTA_CMD_MAX + 1u] = {
#define OTA_X_MBOX_DESC(name, num, str, req, resp, flags, lane) [num] = { str, req, resp, flags, lane },
		OTA_MBOX_COMMAND_LIST(OTA_X_MBOX_DESC)
#undef OTA_X_MBOX_DESC
	};

	if (command > OTA_CMD_MAX || !rows[command].name)
		return (const struct ota_mbox_command_desc *)0;
	return &rows[command];
}

/* The command's lane; a number that is not a command is CHANGE (never ahead of nothing). */
static inline uint32_t ota_mbox_command_lane(uint32_t command)
{
	const struct ota_mbox_command_desc *d = ota_mbox_command(command);

	return d ? d->lane : OTA_MBOX_LANE_CHANGE;
}

/* Name for logs ("attest"), or "unknown" for a number that is not a command. */
static inline const char *ota_mbox_command_name(uint32_t command)
{
	const struct ota_mbox_command_desc *d = ota_mbox_command(command);

	return d ? d->name : "unknown";
}

#endif /* OTATTEST_MAILBOX_H */
