/* SPDX-License-Identifier: MIT */
/*
 * Status codes: the one list of every reason something in otattest can
 * fail, shared by the firmware, the kernel driver, the daemon and the
 * tools. A firmware status travels unchanged through the mailbox; the
 * kernel driver turns it into a netlink error whose errno is its class's
 * and whose extack message is its message (genl.h); each side maps it
 * through its class to an errno (kernel), a D-Bus error name (daemon) and
 * an exit code (CLI), so one table decides what a failure means everywhere.
 *
 * Encoding: bits 23..16 class, 15..8 module, 7..0 index. OTA_OK is 0x739,
 * not zero, so that a zeroed or uninitialised status never reads as
 * success (the same hardening OpenTitan's silicon_creator uses); every
 * check compares against OTA_OK explicitly.
 *
 * Values are ABI: never renumber, only append. A module owns its block.
 */
#ifndef OTATTEST_STATUS_H
#define OTATTEST_STATUS_H

#include "types.h"

typedef uint32_t ota_status_t;

#define OTA_OK ((ota_status_t)0x739u)

/*
 * Failure classes. Columns: name, number, errno, D-Bus error suffix
 * (org.otattest.BootAttest1.Error.<suffix>), CLI exit code.
 */
#define OTA_CLASS_LIST(X)                                                    \
	X(OK, 0x00, 0, "Ok", 0)                                              \
	X(INVALID_ARGUMENT, 0x01, EINVAL, "InvalidArgument", 10)             \
	X(MALFORMED, 0x02, EBADMSG, "Malformed", 11)                         \
	X(VERIFICATION, 0x03, EKEYREJECTED, "VerificationFailed", 12)        \
	X(POLICY, 0x04, EACCES, "PolicyViolation", 13)                       \
	X(ROLLBACK, 0x05, EKEYEXPIRED, "Rollback", 14)                       \
	X(REVOKED, 0x06, EKEYREVOKED, "KeyRevoked", 15)                      \
	X(NOT_FOUND, 0x07, ENODEV, "NoSuchDevice", 16)                       \
	X(BUSY, 0x08, EBUSY, "Busy", 17)                                     \
	X(TIMEOUT, 0x09, ETIMEDOUT, "Timeout", 18)                           \
	X(UNAVAILABLE, 0x0a, ENXIO, "DeviceUnavailable", 19)                 \
	X(PERMISSION, 0x0b, EPERM, "AccessDenied", 20)                       \
	X(LIMIT, 0x0c, ERANGE, "LimitExceeded", 21)                          \
	X(IO, 0x0d, EIO, "IOError", 22)                                      \
	X(PROTOCOL, 0x0e, EPROTO, "ProtocolError", 23)                       \
	X(INTERNAL, 0x0f, EREMOTEIO, "InternalError", 24)

enum ota_status_class {
#define OTA_X_CLASS_ENUM(name, num, err, dbus, exitc) OTA_CLASS_##name = num,
	OTA_CLASS_LIST(OTA_X_CLASS_ENUM)
#undef OTA_X_CLASS_ENUM
};

/* Exit codes a CLI uses outside the class table. */
#define OTA_EXIT_VERDICT_FAILED 1 /* otattest-verify: evidence checked, policy not met */
#define OTA_EXIT_USAGE 2          /* bad command line */

#define OTA_MOD_MANIFEST 0x01u
#define OTA_MOD_EXT 0x02u
#define OTA_MOD_CERT 0x03u
#define OTA_MOD_DELEG 0x04u
#define OTA_MOD_SIG 0x05u
#define OTA_MOD_TAG 0x06u
#define OTA_MOD_BOOTDATA 0x07u
#define OTA_MOD_OTP 0x08u
#define OTA_MOD_OWNER 0x09u
#define OTA_MOD_LAYOUT 0x0au
#define OTA_MOD_POLICY 0x0bu
#define OTA_MOD_HAL 0x0cu
#define OTA_MOD_CHAIN 0x0du
#define OTA_MOD_RECORD 0x0eu
#define OTA_MOD_MBOX 0x0fu
#define OTA_MOD_CBOR 0x10u
#define OTA_MOD_SLHDSA 0x11u
#define OTA_MOD_X509 0x12u
#define OTA_MOD_RUNTIME 0x13u
#define OTA_MOD_VERIFY 0x14u
#define OTA_MOD_HOST 0x15u
#define OTA_MOD_SHM 0x16u
#define OTA_MOD_DRIVER 0x17u
#define OTA_MOD_IDCERT 0x18u
#define OTA_MOD_TOOL 0x19u
#define OTA_MOD_MODEL 0x1au
#define OTA_MOD_UPDATE 0x1bu
#define OTA_MOD_REVOKE 0x1cu
#define OTA_MOD_CORIM 0x1du /* 0x1b, 0x1c: updates and revocation */

#define OTA_ST(cls, mod, idx)                                                \
	((ota_status_t)(((uint32_t)OTA_CLASS_##cls << 16) |                  \
			((uint32_t)OTA_MOD_##mod << 8) | (uint32_t)(idx)))

/* Columns: name, class, module, index, message a person can act on. */
#define OTA_STATUS_LIST(X)                                                                         \
	/* image manifest */                                                                       \
	X(MANIFEST_TRUNCATED, MALFORMED, MANIFEST, 1, "image is shorter than its manifest header") \
	X(MANIFEST_BAD_MAGIC, MALFORMED, MANIFEST, 2, "manifest magic is not 'OTAM'")              \
	X(MANIFEST_BAD_VERSION, MALFORMED, MANIFEST, 3, "manifest format version is not supported") \
	X(MANIFEST_BAD_HEADER_SIZE, MALFORMED, MANIFEST, 4, "manifest header size field is wrong") \
	X(MANIFEST_BAD_LENGTH, MALFORMED, MANIFEST, 5, "image length field disagrees with the image or its slot") \
	X(MANIFEST_BAD_SIGNED_REGION, MALFORMED, MANIFEST, 6, "signed region is out of range")     \
	X(MANIFEST_BAD_PAYLOAD, MALFORMED, MANIFEST, 7, "payload range lies outside the signed region") \
	X(MANIFEST_RESERVED_NONZERO, MALFORMED, MANIFEST, 8, "a reserved manifest field is not zero") \
	X(MANIFEST_UNKNOWN_FLAGS, MALFORMED, MANIFEST, 9, "manifest sets flags this version does not know") \
	X(MANIFEST_WRONG_IDENTIFIER, POLICY, MANIFEST, 10, "image identifier does not match the boot stage") \
	X(MANIFEST_BAD_CONSTRAINTS, MALFORMED, MANIFEST, 11, "manifest usage constraints are inconsistent") \
	X(MANIFEST_BAD_VERSION_STRING, MALFORMED, MANIFEST, 12, "manifest version string is not printable ASCII followed by NUL padding") \
	/* manifest extensions */                                                                  \
	X(EXT_TOO_MANY, MALFORMED, EXT, 1, "extension table has more entries than allowed")        \
	X(EXT_BAD_RANGE, MALFORMED, EXT, 2, "an extension lies outside the image")                 \
	X(EXT_OVERLAP, MALFORMED, EXT, 3, "two extensions overlap")                                \
	X(EXT_UNKNOWN_CRITICAL, MALFORMED, EXT, 4, "an unknown critical extension is present")     \
	X(EXT_DUPLICATE, MALFORMED, EXT, 5, "an extension that may appear once appears twice")     \
	X(EXT_WRONG_REGION, MALFORMED, EXT, 6, "an extension sits in the wrong (signed/unsigned) region") \
	X(EXT_BAD_HEADER, MALFORMED, EXT, 7, "an extension header is inconsistent with its table entry") \
	X(EXT_RESERVED_NONZERO, MALFORMED, EXT, 8, "a reserved extension field is not zero")       \
	X(EXT_UNCOVERED_BYTES, MALFORMED, EXT, 9, "unsigned region holds bytes no extension accounts for") \
	X(EXT_TOO_MANY_CERTS, MALFORMED, EXT, 10, "more than two delegation certificates or SLH-DSA companions") \
	X(EXT_SPXS_SIGNER_MISMATCH, MALFORMED, EXT, 11, "image SLH-DSA signature names a signer other than the manifest's") \
	X(EXT_NO_SUCH_CERT, INVALID_ARGUMENT, EXT, 12, "no delegation certificate with this index") \
	X(EXT_BAD_LOAD, MALFORMED, EXT, 13, "LOAD's address or entry point is misaligned or outside the payload") \
	/* delegation certificates */                                                              \
	X(CERT_BAD_MAGIC, MALFORMED, CERT, 1, "delegation certificate magic is wrong")             \
	X(CERT_BAD_VERSION, MALFORMED, CERT, 2, "delegation certificate version is not supported") \
	X(CERT_BAD_SIZE, MALFORMED, CERT, 3, "delegation certificate size is wrong")               \
	X(CERT_BAD_TYPE, MALFORMED, CERT, 4, "delegation certificate type is neither intermediate nor leaf") \
	X(CERT_RESERVED_NONZERO, MALFORMED, CERT, 5, "a reserved certificate field is not zero")   \
	X(CERT_BAD_CONSTRAINTS, MALFORMED, CERT, 6, "certificate constraints are inconsistent (empty range or mask)") \
	X(CERT_SPX_MISMATCH, MALFORMED, CERT, 7, "SLH-DSA companion does not belong to its certificate") \
	/* delegation chain and containment */                                                    \
	X(DELEG_DEPTH_EXCEEDED, POLICY, DELEG, 1, "delegation chain is deeper than the owner config allows") \
	X(DELEG_DIRECT_BOOT_FORBIDDEN, POLICY, DELEG, 2, "owner config forbids images signed directly by a root key") \
	X(DELEG_BAD_CHAIN_SHAPE, MALFORMED, DELEG, 3, "certificates are not ordered root-to-leaf with the right types") \
	X(DELEG_PARENT_MISMATCH, VERIFICATION, DELEG, 4, "certificate names a parent key that is not the previous link") \
	X(DELEG_CERT_SIG_INVALID, VERIFICATION, DELEG, 5, "delegation certificate ECDSA signature is invalid") \
	X(DELEG_CERT_SPX_INVALID, VERIFICATION, DELEG, 6, "delegation certificate SLH-DSA signature is invalid") \
	X(DELEG_CERT_SPX_MISSING, POLICY, DELEG, 7, "hybrid is required but a certificate has no SLH-DSA companion") \
	X(DELEG_WIDER_SVN_MIN, POLICY, DELEG, 8, "child certificate lowers its parent's minimum SVN") \
	X(DELEG_WIDER_SVN_MAX, POLICY, DELEG, 9, "child certificate raises its parent's maximum SVN") \
	X(DELEG_WIDER_SLOTS, POLICY, DELEG, 10, "child certificate allows slots its parent does not") \
	X(DELEG_WIDER_LIFECYCLE, POLICY, DELEG, 11, "child certificate allows lifecycle states its parent does not") \
	X(DELEG_WIDER_DEVICE, POLICY, DELEG, 12, "child certificate drops or changes its parent's device binding") \
	X(DELEG_WIDER_FLAGS, POLICY, DELEG, 13, "child certificate grants flags its parent does not") \
	X(IMAGE_SVN_BELOW_LEAF, POLICY, DELEG, 14, "image SVN is below the leaf certificate's minimum") \
	X(IMAGE_SVN_ABOVE_LEAF, POLICY, DELEG, 15, "image SVN is above the leaf certificate's maximum") \
	X(IMAGE_SLOTS_OUTSIDE_LEAF, POLICY, DELEG, 16, "image allows slots the leaf certificate does not") \
	X(IMAGE_LIFECYCLE_OUTSIDE_LEAF, POLICY, DELEG, 17, "image allows lifecycle states the leaf certificate does not") \
	X(IMAGE_DEVICE_OUTSIDE_LEAF, POLICY, DELEG, 18, "image device binding is outside the leaf certificate's") \
	X(IMAGE_FLAGS_OUTSIDE_LEAF, POLICY, DELEG, 19, "image claims flags the leaf certificate does not grant") \
	X(DELEG_SIGNER_MISMATCH, VERIFICATION, DELEG, 20, "image signer key is not the end of its delegation chain") \
	X(DELEG_REVOKED_BY_FLOOR, ROLLBACK, DELEG, 21, "anti-rollback floor is above a delegate's SVN ceiling: delegate revoked") \
	/* image signatures */                                                                     \
	X(SIG_ECDSA_INVALID, VERIFICATION, SIG, 1, "image ECDSA P-256 signature is invalid")       \
	X(SIG_SPX_MISSING, POLICY, SIG, 2, "hybrid is required but the image has no SLH-DSA signature") \
	X(SIG_SPX_INVALID, VERIFICATION, SIG, 3, "image SLH-DSA signature is invalid")             \
	X(SIG_SPX_KEY_MISSING, POLICY, SIG, 4, "hybrid is required but the signing key has no SLH-DSA public key") \
	X(SIG_BAD_PUBKEY, MALFORMED, SIG, 5, "public key is not a valid P-256 point")              \
	/* tags and the tag table */                                                               \
	X(TAG_MISMATCH, VERIFICATION, TAG, 1, "boot tag does not match the image")                 \
	X(TAG_ABSENT, NOT_FOUND, TAG, 2, "no boot tag for this slot")                              \
	X(TAG_TABLE_CORRUPT, MALFORMED, TAG, 3, "neither tag table copy is intact")                \
	X(TAG_KEY_VERSION_EXHAUSTED, LIMIT, TAG, 4, "tag key version would exceed an image's maximum key version") \
	X(TAG_BOOT_DISABLED, POLICY, TAG, 5, "tag boot is disabled in OTP")                        \
	X(TAG_TABLE_BAD_MAGIC, MALFORMED, TAG, 6, "tag table magic is wrong")                      \
	X(TAG_TABLE_BAD_VERSION, MALFORMED, TAG, 7, "tag table version is not supported")          \
	X(TAG_TABLE_RESERVED_NONZERO, MALFORMED, TAG, 8, "a reserved tag table field is not zero")  \
	X(TAG_TABLE_DIGEST_MISMATCH, MALFORMED, TAG, 9, "tag table integrity digest does not match") \
	X(TAG_TABLE_BAD_SIZE, MALFORMED, TAG, 10, "tag table size field is wrong")                  \
	X(TAG_TABLE_BAD_ENTRY, MALFORMED, TAG, 11, "a tag table entry has an unknown state or sits at the wrong index") \
	X(TAG_KEY_VERSION_OTP_FULL, LIMIT, TAG, 12, "the OTP tag key version thermometer has no room for another rotation") \
	/* boot data */                                                                            \
	X(BOOT_DATA_BAD_MAGIC, MALFORMED, BOOTDATA, 1, "boot data magic is wrong")                 \
	X(BOOT_DATA_BAD_VERSION, MALFORMED, BOOTDATA, 2, "boot data version is not supported")     \
	X(BOOT_DATA_DIGEST_MISMATCH, MALFORMED, BOOTDATA, 3, "boot data integrity digest does not match") \
	X(BOOT_DATA_RESERVED_NONZERO, MALFORMED, BOOTDATA, 4, "a reserved boot data field is not zero") \
	X(BOOT_DATA_BAD_FIELD, MALFORMED, BOOTDATA, 5, "a boot data field holds an out-of-range value") \
	X(BOOT_DATA_CORRUPT, MALFORMED, BOOTDATA, 6, "neither boot data copy is intact")           \
	X(BOOT_DATA_BAD_SIZE, MALFORMED, BOOTDATA, 7, "boot data size field is wrong")              \
	X(BOOT_DATA_MAC_MISMATCH, VERIFICATION, BOOTDATA, 8, "boot data is not authenticated by this device's key") \
	X(BOOT_DATA_ROLLED_BACK, VERIFICATION, BOOTDATA, 9, "boot data is older than the counter OTP anchors") \
	X(BOOT_DATA_COUNTER_EXHAUSTED, LIMIT, BOOTDATA, 10, "the OTP anchor has no room for another boot data write") \
	/* OTP image */                                                                            \
	X(OTP_TRUNCATED, MALFORMED, OTP, 1, "OTP image is shorter than its layout")                \
	X(OTP_BAD_MAGIC, MALFORMED, OTP, 2, "OTP magic is wrong")                                  \
	X(OTP_BAD_VERSION, MALFORMED, OTP, 3, "OTP layout version is not supported")               \
	X(OTP_DIGEST_MISMATCH, MALFORMED, OTP, 4, "an OTP partition digest does not match")         \
	X(OTP_BAD_LIFECYCLE, MALFORMED, OTP, 5, "OTP lifecycle state is not a valid encoding")     \
	X(OTP_BAD_KEY_SLOT, MALFORMED, OTP, 6, "an OTP root key slot has an invalid state or algorithm") \
	X(OTP_RESERVED_NONZERO, MALFORMED, OTP, 7, "a reserved OTP field is not zero")             \
	X(OTP_BAD_COUNTER, MALFORMED, OTP, 8, "an OTP counter is not a valid thermometer code")    \
	X(OTP_CLEARS_BITS, INVALID_ARGUMENT, OTP, 9, "OTP programming may only set bits, never clear them") \
	X(OTP_BAD_FEATURES, MALFORMED, OTP, 10, "OTP feature word sets unknown bits")               \
	X(OTP_BAD_SIZE, MALFORMED, OTP, 11, "OTP size field is wrong")                              \
	X(OTP_BAD_FIELD, MALFORMED, OTP, 12, "an OTP field holds an out-of-range value")            \
	X(OTP_LIFECYCLE_TRANSITION, INVALID_ARGUMENT, OTP, 13, "the lifecycle leaves only test_unlocked, once, for dev, prod or prod_end") \
	/* owner config */                                                                         \
	X(OWNER_TRUNCATED, MALFORMED, OWNER, 1, "owner config is shorter than its layout")         \
	X(OWNER_BAD_MAGIC, MALFORMED, OWNER, 2, "owner config magic is wrong")                     \
	X(OWNER_BAD_VERSION, MALFORMED, OWNER, 3, "owner config version is not supported")         \
	X(OWNER_DIGEST_MISMATCH, VERIFICATION, OWNER, 4, "owner config does not match the digest provisioned in OTP") \
	X(OWNER_BAD_DEPTH, MALFORMED, OWNER, 5, "owner config maximum delegation depth is above 2") \
	X(OWNER_RESERVED_NONZERO, MALFORMED, OWNER, 6, "a reserved owner config field is not zero") \
	X(OWNER_BAD_KEYS, MALFORMED, OWNER, 7, "owner config key count or key entry is invalid")   \
	X(OWNER_UNKNOWN_FLAGS, MALFORMED, OWNER, 8, "owner config sets flags this version does not know") \
	X(OWNER_BAD_SIZE, MALFORMED, OWNER, 9, "owner config size field is wrong")                  \
	/* flash layout */                                                                         \
	X(LAYOUT_TRUNCATED, MALFORMED, LAYOUT, 1, "flash image is shorter than its layout header")  \
	X(LAYOUT_BAD_MAGIC, MALFORMED, LAYOUT, 2, "flash layout magic is wrong")                   \
	X(LAYOUT_BAD_VERSION, MALFORMED, LAYOUT, 3, "flash layout version is not supported")       \
	X(LAYOUT_REGION_OUT_OF_RANGE, MALFORMED, LAYOUT, 4, "a flash region lies outside the flash") \
	X(LAYOUT_REGION_OVERLAP, MALFORMED, LAYOUT, 5, "two flash regions overlap")                \
	X(LAYOUT_REGION_MISALIGNED, MALFORMED, LAYOUT, 6, "a flash region is not page aligned")    \
	X(LAYOUT_REGION_MISSING, MALFORMED, LAYOUT, 7, "a required flash region is missing or repeated") \
	X(LAYOUT_RESERVED_NONZERO, MALFORMED, LAYOUT, 8, "a reserved flash layout field is not zero") \
	X(LAYOUT_BAD_PAGE_SIZE, MALFORMED, LAYOUT, 9, "flash page size is not supported")          \
	X(LAYOUT_BAD_SIZE, MALFORMED, LAYOUT, 10, "flash layout size field is wrong")               \
	X(LAYOUT_BAD_FLASH_SIZE, MALFORMED, LAYOUT, 11, "layout flash size is not a page multiple or exceeds the device") \
	X(LAYOUT_LOCKS_SCATTERED, MALFORMED, LAYOUT, 12, "the regions locked at hand-off need more flash protection ranges than the device has") \
	/* policy checks common to both paths */                                                   \
	X(SVN_BELOW_FLOOR, ROLLBACK, POLICY, 1, "image security version is below the anti-rollback floor") \
	X(LIFECYCLE_NOT_ALLOWED, POLICY, POLICY, 2, "image may not run in the device's lifecycle state") \
	X(SLOT_NOT_ALLOWED, POLICY, POLICY, 3, "image may not run from this slot")                 \
	X(DEVICE_NOT_ALLOWED, POLICY, POLICY, 4, "image is bound to another device")               \
	X(ROOT_KEY_REVOKED, REVOKED, POLICY, 5, "the root key that signed the image is revoked")   \
	X(ROOT_KEY_LIFECYCLE, POLICY, POLICY, 6, "the root key is not valid in the device's lifecycle state") \
	X(ROOT_KEY_UNKNOWN, VERIFICATION, POLICY, 7, "no provisioned root key matches the image or chain") \
	X(NO_BOOTABLE_SLOT, UNAVAILABLE, POLICY, 8, "no slot holds an image that passes every check") \
	X(SVN_ABOVE_MAX, LIMIT, POLICY, 9, "security version is above the supported maximum")      \
	X(SLOT_EMPTY, NOT_FOUND, POLICY, 10, "the slot holds no image")                            \
	X(IMAGE_TOO_LARGE, LIMIT, POLICY, 11, "image is larger than the boot stage's RAM buffer")   \
	/* HAL */                                                                                  \
	X(HAL_FLASH_WRITE_FAILED, IO, HAL, 1, "flash program or erase failed")                     \
	X(HAL_FLASH_BAD_ADDRESS, INTERNAL, HAL, 2, "flash access outside the device or not page aligned") \
	X(HAL_FLASH_NOT_ERASED, IO, HAL, 3, "flash program over bits that are not erased")         \
	X(HAL_KEYMGR_VERSION, LIMIT, HAL, 4, "key version is above the stage's maximum key version") \
	X(HAL_KEY_SLOTS_FULL, INTERNAL, HAL, 5, "no free key slot in the key manager")             \
	X(HAL_BAD_HANDLE, INTERNAL, HAL, 6, "key handle is invalid or of the wrong kind")          \
	X(HAL_CRYPTO_FAILED, INTERNAL, HAL, 7, "a crypto engine operation failed")                 \
	X(HAL_OTP_WRITE_FAILED, IO, HAL, 8, "OTP program failed")                                  \
	X(HAL_BAD_ARGUMENT, INTERNAL, HAL, 9, "a HAL call was given an invalid argument")          \
	X(HAL_RETENTION_INVALID, MALFORMED, HAL, 10, "retention RAM contents are not valid")       \
	X(HAL_OTP_LOCKED, PERMISSION, HAL, 11, "OTP partition is locked: only the counters can be programmed") \
	X(HAL_KEYMGR_STATE, PERMISSION, HAL, 12, "the key manager's state does not allow this operation") \
	X(HAL_POWER_LOST, UNAVAILABLE, HAL, 13, "the device lost power")                           \
	X(HAL_ENGINE_IDLE, INTERNAL, HAL, 14, "crypto engine update or finish without a started operation") \
	X(HAL_OTP_SECRET, PERMISSION, HAL, 15, "the OTP secret partition is readable only by the key manager") \
	X(HAL_KEY_PURPOSE, PERMISSION, HAL, 16, "the key's purpose is not this engine's")               \
	X(HAL_RETENTION_LOCKED, PERMISSION, HAL, 17, "the retention data vault is locked until the next reset") \
	X(HAL_FLASH_LOCKED, PERMISSION, HAL, 18, "flash region is write-protected until the next reset") \
	X(HAL_OTP_COUNTERS_LOCKED, PERMISSION, HAL, 19, "OTP counters are locked until the next reset (only the boot stages program them)") \
	X(HAL_BUS_ERROR, INTERNAL, HAL, 20, "a register access outside every block, register and window, or not one aligned word") \
	X(HAL_WDOG_LOCKED, PERMISSION, HAL, 21, "the watchdog's configuration is locked until the next reset") \
	X(HAL_KEYMGR_NO_PREDECESSOR, NOT_FOUND, HAL, 22, "no predecessor binding was set before the key manager entered ROM_EXT: no old identity to hand over from") \
	/* SVN key chain */                                                                        \
	X(CHAIN_SVN_ABOVE_MIN, POLICY, CHAIN, 1, "key for an SVN above min-SVN-since-cold-boot is refused") \
	X(CHAIN_SVN_ABOVE_MAX, INVALID_ARGUMENT, CHAIN, 2, "SVN is above the key chain's maximum") \
	X(CHAIN_NOT_READY, UNAVAILABLE, CHAIN, 3, "the SVN key chain has not been established")    \
	/* boot record */                                                                          \
	X(RECORD_TRUNCATED, MALFORMED, RECORD, 1, "boot record is shorter than its header")        \
	X(RECORD_BAD_MAGIC, MALFORMED, RECORD, 2, "boot record magic is wrong")                    \
	X(RECORD_BAD_VERSION, MALFORMED, RECORD, 3, "boot record version is not supported")        \
	X(RECORD_BAD_LENGTH, MALFORMED, RECORD, 4, "boot record length field is inconsistent")     \
	X(RECORD_BAD_STAGE_COUNT, MALFORMED, RECORD, 5, "boot record stage count is out of range") \
	X(RECORD_RESERVED_NONZERO, MALFORMED, RECORD, 6, "a reserved boot record field is not zero") \
	X(RECORD_BAD_FIELD, MALFORMED, RECORD, 7, "a boot record field holds an out-of-range value") \
	X(RECORD_TORN, BUSY, RECORD, 8, "boot record changed while being read")                    \
	/* mailbox */                                                                              \
	X(MBOX_UNKNOWN_COMMAND, INVALID_ARGUMENT, MBOX, 1, "the device does not know this command") \
	X(MBOX_BAD_LENGTH, INVALID_ARGUMENT, MBOX, 2, "request length is wrong for the command")   \
	X(MBOX_BAD_SEQUENCE, PROTOCOL, MBOX, 3, "request sequence number is not the expected one") \
	X(MBOX_BUSY, BUSY, MBOX, 4, "the device is already serving a request")                     \
	X(MBOX_NONCE_LENGTH, INVALID_ARGUMENT, MBOX, 5, "nonce must be 16 to 64 bytes")            \
	X(MBOX_RESPONSE_TOO_LARGE, INTERNAL, MBOX, 6, "response does not fit the mailbox")          \
	X(MBOX_NOT_READY, UNAVAILABLE, MBOX, 7, "the device did not boot a runtime that serves requests") \
	X(MBOX_RESERVED_NONZERO, INVALID_ARGUMENT, MBOX, 8, "a reserved request field is not zero") \
	X(MBOX_MESSAGE_LENGTH, INVALID_ARGUMENT, MBOX, 9, "message to sign must be 16 to 64 bytes") \
	X(MBOX_BAD_FIELD, INVALID_ARGUMENT, MBOX, 10, "a request field holds an out-of-range value") \
	X(MBOX_CERT_LENGTH, INVALID_ARGUMENT, MBOX, 11, "certificate must be 1 to 1024 bytes of DER") \
	/* CBOR and COSE */                                                                        \
	X(CBOR_TRUNCATED, MALFORMED, CBOR, 1, "CBOR item runs past the end of the input")          \
	X(CBOR_TRAILING, MALFORMED, CBOR, 2, "bytes follow the CBOR item")                         \
	X(CBOR_INDEFINITE, MALFORMED, CBOR, 3, "indefinite-length CBOR item")                      \
	X(CBOR_DUPLICATE_KEY, MALFORMED, CBOR, 4, "duplicate key in a CBOR map")                   \
	X(CBOR_OVERSIZE, MALFORMED, CBOR, 5, "CBOR item is larger than allowed")                   \
	X(CBOR_TYPE, MALFORMED, CBOR, 6, "CBOR item has the wrong type")                           \
	X(CBOR_NONCANONICAL, MALFORMED, CBOR, 7, "CBOR integer or length is not in its shortest form") \
	X(CBOR_DEPTH, MALFORMED, CBOR, 8, "CBOR nesting is too deep")                              \
	X(CBOR_BUFFER_FULL, INTERNAL, CBOR, 9, "CBOR output buffer is full")                       \
	X(COSE_BAD_HEADER, MALFORMED, CBOR, 10, "COSE_Sign1 header is malformed")                  \
	X(COSE_BAD_ALG, MALFORMED, CBOR, 11, "COSE_Sign1 algorithm is not ES256")                  \
	X(COSE_SIG_INVALID, VERIFICATION, CBOR, 12, "COSE_Sign1 signature is invalid")             \
	X(CBOR_UNSUPPORTED, MALFORMED, CBOR, 13, "CBOR item type is not supported here")           \
	X(CBOR_BAD_UTF8, MALFORMED, CBOR, 14, "CBOR text string is not valid UTF-8")             \
	/* SLH-DSA */                                                                              \
	X(SLHDSA_BAD_LENGTH, INVALID_ARGUMENT, SLHDSA, 1, "SLH-DSA key or signature has the wrong length") \
	X(SLHDSA_INVALID, VERIFICATION, SLHDSA, 2, "SLH-DSA signature is invalid")                 \
	/* X.509 */                                                                                \
	X(X509_BUFFER_FULL, INTERNAL, X509, 1, "certificate does not fit its buffer")              \
	X(X509_MALFORMED, MALFORMED, X509, 2, "certificate is malformed")                          \
	X(X509_CRL_UNSUPPORTED, MALFORMED, X509, 3, "the CRL has a scope this verifier does not implement (delta, issuing distribution point, freshest CRL, indirect entries)") \
	/* runtime */                                                                              \
	X(RUNTIME_UPDATE_REJECTED, VERIFICATION, RUNTIME, 1, "the updated image failed verification; the running image was kept") \
	X(RUNTIME_NO_CERTS, NOT_FOUND, RUNTIME, 2, "no device identity certificate is provisioned") \
	X(RUNTIME_IDCERT_MISMATCH, VERIFICATION, RUNTIME, 3, "the identity certificate in flash does not certify this device's identity key") \
	X(RUNTIME_NOT_MANUFACTURING, POLICY, RUNTIME, 4, "served only in the manufacturing lifecycle state (TEST_UNLOCKED)") \
	X(RUNTIME_IDCERT_NOT_OURS, VERIFICATION, RUNTIME, 5, "the certificate does not certify this device's identity key") \
	/* verifier verdicts */                                                                    \
	X(VERIFY_NONCE_MISMATCH, VERIFICATION, VERIFY, 1, "evidence nonce is not the expected one") \
	X(VERIFY_CHAIN_UNTRUSTED, VERIFICATION, VERIFY, 2, "certificate chain does not lead to the trusted CA") \
	X(VERIFY_SIGNATURE_INVALID, VERIFICATION, VERIFY, 3, "evidence signature is invalid")      \
	X(VERIFY_SVN_BELOW_POLICY, POLICY, VERIFY, 4, "a stage's SVN is below the policy minimum") \
	X(VERIFY_ROOT_KEY_NOT_ALLOWED, POLICY, VERIFY, 5, "a stage was signed under a root key the policy does not allow") \
	X(VERIFY_DEPTH_EXCEEDED, POLICY, VERIFY, 6, "a stage's delegation is deeper than the policy allows") \
	X(VERIFY_TAG_PATH_FORBIDDEN, POLICY, VERIFY, 7, "a stage booted on the tag path and the policy forbids it") \
	X(VERIFY_HYBRID_MISSING, POLICY, VERIFY, 8, "a stage lacks the hybrid signature the policy requires") \
	X(VERIFY_EPOCH_BELOW_POLICY, POLICY, VERIFY, 9, "identity epoch is below the policy minimum") \
	X(VERIFY_CLAIMS_INVALID, MALFORMED, VERIFY, 10, "evidence claims are missing or malformed") \
	X(VERIFY_POLICY_MALFORMED, INVALID_ARGUMENT, VERIFY, 11, "the policy file is malformed")   \
	X(VERIFY_STAGE_REFUSED, POLICY, VERIFY, 12, "a stage in the evidence was refused by the device") \
	X(VERIFY_RECORD_MISMATCH, VERIFICATION, VERIFY, 13, "evidence claims disagree with the boot record digest") \
	X(VERIFY_DEVICE_MISMATCH, VERIFICATION, VERIFY, 14, "the evidence's device id is not the device its certificate names") \
	X(VERIFY_TCB_MISMATCH, VERIFICATION, VERIFY, 15, "evidence claims disagree with the measurements certified in the alias certificate") \
	X(VERIFY_IDENTITY_MISMATCH, VERIFICATION, VERIFY, 16, "the alias certificate names another device than the identity certificate that issued it") \
	X(VERIFY_NOT_CERTIFIED, VERIFICATION, VERIFY, 17, "the alias certificate does not certify the stage results and device state (firmware from before they were certified)") \
	X(VERIFY_RESULT_MISMATCH, VERIFICATION, VERIFY, 18, "a stage's verification results in the claims disagree with the alias certificate") \
	X(VERIFY_STATE_MISMATCH, VERIFICATION, VERIFY, 19, "the device state in the claims disagrees with the alias certificate") \
	X(VERIFY_LIFECYCLE_NOT_ALLOWED, POLICY, VERIFY, 20, "the device's lifecycle state is not one the policy allows") \
	X(VERIFY_DELEGATE_DENIED, REVOKED, VERIFY, 21, "a stage was signed through a delegate key the policy denies") \
	X(VERIFY_IDENTITY_REVOKED, REVOKED, VERIFY, 22, "the device's identity certificate is revoked by its CA's CRL") \
	X(VERIFY_REFERENCE_MISMATCH, POLICY, VERIFY, 23, "a stage's measurement is not one the reference values (CoRIM) list") \
	X(VERIFY_DEBUG_IMAGE, POLICY, VERIFY, 24, "a stage runs an image whose usage allows debug features, which the policy refuses") \
	X(VERIFY_NOT_COMMITTED, POLICY, VERIFY, 25, "BL0 runs an update on trial, not the committed primary slot, and the policy requires committed") \
	X(VERIFY_TRIAL_REVERTED, POLICY, VERIFY, 26, "a trial was reverted since the last cold boot or update reset, which the policy does not allow") \
	X(VERIFY_REVOCATION_BELOW_POLICY, POLICY, VERIFY, 27, "the device has not applied the fleet-wide revocations the policy requires") \
	X(VERIFY_HANDOVER_MALFORMED, MALFORMED, VERIFY, 28, "an identity hand-over is malformed (magic, size, reserved bytes, or its version step is not one up)") \
	X(VERIFY_HANDOVER_GAP, VERIFICATION, VERIFY, 29, "the identity hand-overs do not lead from the certified identity to the key that issued the alias certificate") \
	X(VERIFY_HANDOVER_FORGED, VERIFICATION, VERIFY, 30, "an identity hand-over is not signed by the identity key it hands over from") \
	X(VERIFY_HANDOVER_OUT_OF_ORDER, VERIFICATION, VERIFY, 31, "identity hand-overs are replayed or out of order: each must start at the version the one before ended") \
	/* reference values as CoRIM (corim.h): a CoRIM file the verifier cannot use */         \
	X(CORIM_MALFORMED, MALFORMED, CORIM, 1, "the CoRIM is malformed or outside otattest's CoRIM profile") \
	X(CORIM_SIG_INVALID, VERIFICATION, CORIM, 2, "the CoRIM's signature does not verify with the key named for it") \
	X(CORIM_TOO_MANY, LIMIT, CORIM, 3, "the CoRIMs list more reference values than the verifier holds") \
	/* host side: driver, daemon, tools */                                                    \
	X(HOST_TIMEOUT, TIMEOUT, HOST, 1, "the device did not answer in time")                     \
	X(HOST_NO_DEVICE, NOT_FOUND, HOST, 2, "no such otattest device")                           \
	X(HOST_DEVICE_GONE, UNAVAILABLE, HOST, 3, "the device went away")                          \
	X(HOST_PROTOCOL, PROTOCOL, HOST, 4, "the device answered with something that is not a valid response") \
	X(HOST_PERMISSION, PERMISSION, HOST, 5, "the caller is not allowed to do this")            \
	X(HOST_RATE_LIMITED, BUSY, HOST, 6, "too many requests from this client; retry later")     \
	X(HOST_QUEUE_FULL, BUSY, HOST, 7, "too many requests queued for this client")              \
	X(HOST_IO, IO, HOST, 8, "reading or writing a file failed")                                \
	X(HOST_BAD_ARGUMENT, INVALID_ARGUMENT, HOST, 9, "an argument is out of range")             \
	X(HOST_INTERNAL, INTERNAL, HOST, 10, "an internal error occurred")                         \
	X(HOST_INTERRUPTED, BUSY, HOST, 11, "the caller was killed while waiting; a request already sent is still finished by the device") \
	/* shared memory (driver's view of the device) */                                          \
	X(SHM_BAD_MAGIC, PROTOCOL, SHM, 1, "shared memory info block magic is wrong")              \
	X(SHM_BAD_VERSION, PROTOCOL, SHM, 2, "shared memory ABI version is not supported")         \
	X(SHM_BAD_LAYOUT, PROTOCOL, SHM, 3, "shared memory regions are out of range or overlap")   \
	X(SHM_BAD_STATE, PROTOCOL, SHM, 4, "device state is not a known value")                    \
	/* kernel driver (kernel/) */                                                              \
	X(DRIVER_NO_RECORD, UNAVAILABLE, DRIVER, 1, "the device has not exported a boot record yet") \
	X(DRIVER_UNKNOWN_STATUS, PROTOCOL, DRIVER, 2, "the device returned an unknown status")     \
	X(DRIVER_RESPONSE_OVERSIZE, PROTOCOL, DRIVER, 3, "the device's response is longer than its region or the command allows") \
	X(DRIVER_RECORD_OVERSIZE, MALFORMED, DRIVER, 4, "the boot record is longer than its shared memory region") \
	X(DRIVER_LAYOUT_CHANGED, PROTOCOL, DRIVER, 5, "the device moved its shared memory regions while bound; rebind the driver") \
	X(DRIVER_DEVICE_OFF, UNAVAILABLE, DRIVER, 6, "the device is powered off")                   \
	X(DRIVER_INFO_TORN, BUSY, DRIVER, 7, "the info block kept changing while being read")       \
	X(DRIVER_UNRESPONSIVE, UNAVAILABLE, DRIVER, 8, "the device is not answering; the request was refused without waiting") \
	/* retired: the doorbell peer is fixed by the ABI (OTA_SHM_DEVICE_PEER_ID); kept, never reused */ \
	X(DRIVER_PEER_CHANGED, PROTOCOL, DRIVER, 9, "the device changed its doorbell peer id while bound; rebind the driver") \
	/* identity certificate blob in flash */                                                    \
	X(IDCERT_BAD_MAGIC, MALFORMED, IDCERT, 1, "identity certificate blob magic is wrong (region erased?)") \
	X(IDCERT_BAD_LENGTH, MALFORMED, IDCERT, 2, "identity certificate DER length is zero or too large") \
	X(IDCERT_BAD_DER, MALFORMED, IDCERT, 3, "identity certificate is not one DER SEQUENCE of its stated length") \
	X(IDCERT_RESERVED_NONZERO, MALFORMED, IDCERT, 4, "bytes after the identity certificate DER are not zero") \
	/* otimage: keys, config files, command-line values */                                      \
	X(TOOL_KEY_MALFORMED, MALFORMED, TOOL, 1, "key file is not a PEM private or public key")    \
	X(TOOL_KEY_NOT_P256, MALFORMED, TOOL, 2, "key is not an ECDSA P-256 key")                   \
	X(TOOL_KEY_ENCRYPTED, INVALID_ARGUMENT, TOOL, 3, "encrypted private keys are not supported") \
	X(TOOL_KEY_NOT_PRIVATE, INVALID_ARGUMENT, TOOL, 4, "a private key is needed but the file holds a public key") \
	X(TOOL_SPXKEY_BAD_MAGIC, MALFORMED, TOOL, 5, "SLH-DSA key file magic is wrong")             \
	X(TOOL_SPXKEY_BAD_VERSION, MALFORMED, TOOL, 6, "SLH-DSA key file version is not supported") \
	X(TOOL_SPXKEY_BAD_SIZE, MALFORMED, TOOL, 7, "SLH-DSA key file has the wrong length")        \
	X(TOOL_SPXKEY_BAD_ALG, MALFORMED, TOOL, 8, "SLH-DSA key file names an unsupported algorithm") \
	X(TOOL_SPXKEY_BAD_KIND, MALFORMED, TOOL, 9, "SLH-DSA key file is neither a secret nor a public key") \
	X(TOOL_SPXKEY_RESERVED_NONZERO, MALFORMED, TOOL, 10, "a reserved SLH-DSA key file field is not zero") \
	X(TOOL_SPXKEY_MISMATCH, MALFORMED, TOOL, 11, "SLH-DSA public key does not match its secret key") \
	X(TOOL_KEY_MISMATCH, INVALID_ARGUMENT, TOOL, 12, "key does not match the certificate it is used with") \
	X(TOOL_HYBRID_PARENT, INVALID_ARGUMENT, TOOL, 13, "a hybrid delegate needs a hybrid parent key") \
	X(TOOL_CONFIG_SYNTAX, INVALID_ARGUMENT, TOOL, 14, "config line is not 'key = value'")       \
	X(TOOL_CONFIG_UNKNOWN_KEY, INVALID_ARGUMENT, TOOL, 15, "config file sets a key otimage does not know") \
	X(TOOL_BAD_VALUE, INVALID_ARGUMENT, TOOL, 16, "value is malformed or out of range")         \
	X(TOOL_TOO_LARGE, LIMIT, TOOL, 17, "input is too large for its file type or its flash slot") \
	X(TOOL_UNKNOWN_FILE, MALFORMED, TOOL, 18, "file is not in any format otimage knows")        \
	X(TOOL_CRYPTO, INTERNAL, TOOL, 19, "a cryptographic library call failed")                   \
	X(TOOL_EXISTS, INVALID_ARGUMENT, TOOL, 20, "output file exists (use --force to replace it)") \
	X(TOOL_TOO_MANY_KEYS, LIMIT, TOOL, 21, "more keys than the format holds")            \
	X(TOOL_CONFIG_DUPLICATE_KEY, INVALID_ARGUMENT, TOOL, 22, "config file sets a key twice") \
	X(TOOL_CSR_MALFORMED, MALFORMED, TOOL, 23, "file is not a DER PKCS#10 certificate request") \
	X(TOOL_CSR_SIGNATURE, VERIFICATION, TOOL, 24, "the request's signature does not verify under the key it names") \
	X(TOOL_CSR_SUBJECT, POLICY, TOOL, 25, "the request's subject is not an otattest device identity") \
	/* the device model (qemu-model/board): its control socket and ivshmem server */          \
	X(MODEL_IMAGE_TOO_LARGE, LIMIT, MODEL, 1, "image file is larger than its flash slot")       \
	X(MODEL_NO_GUEST, UNAVAILABLE, MODEL, 2, "no guest is connected to the model")              \
	X(MODEL_GUEST_REFUSED, BUSY, MODEL, 3, "the model refused the guest: another guest is connected") \
	X(MODEL_DEVICE_REFUSED, BUSY, MODEL, 4, "the model's server refused the device: another device is connected") \
	X(MODEL_NO_SERVER, UNAVAILABLE, MODEL, 5, "no model server at the device socket, or it went away") \
	X(MODEL_NO_TAG, INVALID_ARGUMENT, MODEL, 6, "the tag table the device uses holds no tag for that slot: boot it once first") \
	/* updates: install, commit, ratchet (firmware/runtime/install*.c, boot services) */      \
	X(INSTALL_NOT_STARTED, INVALID_ARGUMENT, UPDATE, 1, "no install is open: INSTALL_BEGIN first") \
	X(INSTALL_RUNNING_SLOT, POLICY, UPDATE, 2, "the device never writes the slot it is running from") \
	X(INSTALL_BAD_LENGTH, INVALID_ARGUMENT, UPDATE, 3, "image length is shorter than a manifest header") \
	X(INSTALL_BAD_OFFSET, PROTOCOL, UPDATE, 4, "chunk offset is not where the image continues") \
	X(INSTALL_OVERRUN, INVALID_ARGUMENT, UPDATE, 5, "chunk runs past the image length given at INSTALL_BEGIN") \
	X(INSTALL_CHUNK_LENGTH, INVALID_ARGUMENT, UPDATE, 6, "chunk must be 1 to 4096 bytes") \
	X(INSTALL_INCOMPLETE, INVALID_ARGUMENT, UPDATE, 7, "the image has not been received whole") \
	X(INSTALL_ABORTED, BUSY, UPDATE, 8, "the install was interrupted (another check used the image buffer, or a reset); start again") \
	X(COMMIT_NOT_RUNNING, POLICY, UPDATE, 9, "only the BL0 slot that is running can be committed") \
	X(RATCHET_ABOVE_RUNNING, POLICY, UPDATE, 10, "the floor would be above the running image's SVN") \
	X(BOOT_SVC_NOT_SERVED, INTERNAL, UPDATE, 11, "the boot after the reset did not serve the request") \
	X(TRIAL_BOOTS_USED, POLICY, UPDATE, 12, "the slot's trial used up its boots: the primary slot runs again (commit sooner, or update-reset from the primary to start a new trial)") \
	X(RATCHET_NO_FALLBACK, POLICY, UPDATE, 13, "the ratchet would leave the stage no bootable fallback slot: install the new image into the other slot first, or force it") \
	/* field revocation commands (revocation.h) */                                            \
	X(REVOKE_MALFORMED, MALFORMED, REVOKE, 1, "revocation command header, action or target is malformed") \
	X(REVOKE_UNKNOWN_SIGNER, VERIFICATION, REVOKE, 2, "no provisioned, unrevoked root key of this device signed the revocation") \
	X(REVOKE_SIG_INVALID, VERIFICATION, REVOKE, 3, "revocation signature is invalid") \
	X(REVOKE_WRONG_DEVICE, POLICY, REVOKE, 4, "the revocation is bound to another device") \
	X(REVOKE_REPLAYED, ROLLBACK, REVOKE, 5, "the revocation's sequence number is not above the last one this device applied in its series (fleet-wide or device-bound)") \
	X(REVOKE_NOT_AUTHORIZED, POLICY, REVOKE, 6, "an owner key may order only BL0 floors and owner key revocations") \
	X(REVOKE_FLOOR_ABOVE_RUNNING, POLICY, REVOKE, 7, "the floor would be above the running image's SVN") \
	X(REVOKE_KEY_IN_USE, POLICY, REVOKE, 8, "the key admitted a running stage: revoking it would leave nothing bootable") \
	X(REVOKE_NOT_RAISED, INVALID_ARGUMENT, REVOKE, 9, "the floor or epoch is not above the device's, or the key is already revoked") \
	X(REVOKE_SEQUENCE_EXHAUSTED, LIMIT, REVOKE, 10, "the sequence number is above what the device can record (256)") \
	X(REVOKE_HYBRID_REQUIRED, POLICY, REVOKE, 11, "the signer's key is hybrid or the owner config requires SLH-DSA: an ECDSA-only revocation is refused") \
	X(REVOKE_SPX_INVALID, VERIFICATION, REVOKE, 12, "the revocation's SLH-DSA signature is invalid, or its signer has no SLH-DSA key") \
	X(REVOKE_NO_STAGING, POLICY, REVOKE, 13, "this device's flash layout has no revocation staging region for a hybrid command")

enum ota_status {
#define OTA_X_STATUS_ENUM(name, cls, mod, idx, msg) OTA_##name = OTA_ST(cls, mod, idx),
	OTA_STATUS_LIST(OTA_X_STATUS_ENUM)
#undef OTA_X_STATUS_ENUM
};

static inline uint32_t ota_status_class(ota_status_t s)
{
	return s == OTA_OK ? (uint32_t)OTA_CLASS_OK : (s >> 16) & 0xffu;
}

/*
 * Message for a status, or NULL when the value is not one of ours (a
 * device that lies must not be able to pick a message by chance).
 */
static inline const char *ota_status_message(ota_status_t s)
{
	switch (s) {
	case OTA_OK:
		return "success";
#define OTA_X_STATUS_MSG(name, cls, mod, idx, msg) \
	case OTA_##name:                            \
		return msg;
		OTA_STATUS_LIST(OTA_X_STATUS_MSG)
#undef OTA_X_STATUS_MSG
	}
	return (const char *)0;
}

/* Symbolic name ("SIG_ECDSA_INVALID"), or NULL for an unknown value. */
static inline const char *ota_status_name(ota_status_t s)
{
	switch (s) {
	case OTA_OK:
		return "OK";
#define OTA_X_STATUS_NAME(name, cls, mod, idx, msg) \
	case OTA_##name:                             \
		return #name;
		OTA_STATUS_LIST(OTA_X_STATUS_NAME)
#undef OTA_X_STATUS_NAME
	}
	return (const char *)0;
}

/* Hardened success test: only the exact OK value passes. */
#define OTA_IS_OK(s) ((s) == OTA_OK)

/* Propagate a failure: evaluate once, return it unless it is OTA_OK. */
#define OTA_TRY(expr)                          \
	do {                                   \
		ota_status_t ota_try_s_ = (expr); \
		if (ota_try_s_ != OTA_OK)      \
			return ota_try_s_;     \
	} while (0)

/*
 * Class-to-errno/D-Bus/exit-code mapping. errno values come from the
 * including environment (the kernel's or libc's), so freestanding firmware
 * builds, which define OTA_FREESTANDING, do not see these helpers.
 */
#ifndef OTA_FREESTANDING
#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

/* Positive errno for a class; unknown classes are a protocol error. */
static inline int ota_class_errno(uint32_t cls)
{
	switch (cls) {
#define OTA_X_CLASS_ERRNO(name, num, err, dbus, exitc) \
	case num:                                     \
		return err;
		OTA_CLASS_LIST(OTA_X_CLASS_ERRNO)
#undef OTA_X_CLASS_ERRNO
	}
	return EPROTO;
}

static inline int ota_status_errno(ota_status_t s)
{
	if (!ota_status_message(s))
		return EPROTO;
	return ota_class_errno(ota_status_class(s));
}

/* "InvalidArgument" etc.; unknown classes map to "ProtocolError". */
static inline const char *ota_class_dbus_suffix(uint32_t cls)
{
	switch (cls) {
#define OTA_X_CLASS_DBUS(name, num, err, dbus, exitc) \
	case num:                                    \
		return dbus;
		OTA_CLASS_LIST(OTA_X_CLASS_DBUS)
#undef OTA_X_CLASS_DBUS
	}
	return "ProtocolError";
}

static inline int ota_class_exit_code(uint32_t cls)
{
	switch (cls) {
#define OTA_X_CLASS_EXIT(name, num, err, dbus, exitc) \
	case num:                                    \
		return exitc;
		OTA_CLASS_LIST(OTA_X_CLASS_EXIT)
#undef OTA_X_CLASS_EXIT
	}
	return 23;
}
#endif /* !OTA_FREESTANDING */

#endif /* OTATTEST_STATUS_H */
