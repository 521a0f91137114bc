// SPDX-License-Identifier: MIT
/*
 * The hal.h calls of the blocks not behind registers yet, for a stage
 * image on the emulated core: each is one service call (hal/svc.h), the
 * number in a7, the arguments in a0..a5, the result in a0. Linked into
 * rv32 images only; the host build gets these calls from qemu-model/chip.
 * A block's calls leave this file when its driver lands.
 */
#include "hal.h"
#include "hal/svc.h"

#define P(x) ((uint32_t)(uintptr_t)(x))

static inline uint32_t svc(uint32_t nr, uint32_t x0, uint32_t x1, uint32_t x2)
{
	register uint32_t a0 __asm__("a0") = x0;
	register uint32_t a1 __asm__("a1") = x1;
	register uint32_t a2 __asm__("a2") = x2;
	register uint32_t a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return a0;
}

ota_status_t hal_sha256_start(void)
{
	return svc(HAL_SVC_SHA256_START, 0, 0, 0);
}

ota_status_t hal_sha256_update(const void *data, uint32_t len)
{
	return svc(HAL_SVC_SHA256_UPDATE, P(data), len, 0);
}

ota_status_t hal_sha256_finish(uint8_t digest[OTA_SHA256_BYTES])
{
	return svc(HAL_SVC_SHA256_FINISH, P(digest), 0, 0);
}

ota_status_t hal_kmac_start(hal_key_t key, const uint8_t *custom, uint32_t custom_len)
{
	return svc(HAL_SVC_KMAC_START, key, P(custom), custom_len);
}

ota_status_t hal_kmac_update(const void *data, uint32_t len)
{
	return svc(HAL_SVC_KMAC_UPDATE, P(data), len, 0);
}

ota_status_t hal_kmac_finish(uint8_t *out, uint32_t out_len)
{
	return svc(HAL_SVC_KMAC_FINISH, P(out), out_len, 0);
}

ota_status_t hal_ecdsa_verify(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
			      const uint8_t digest[OTA_SHA256_BYTES],
			      const uint8_t sig[OTA_P256_SIG_BYTES])
{
	return svc(HAL_SVC_ECDSA_VERIFY, P(pubkey), P(digest), P(sig));
}

ota_status_t hal_ecdsa_sign(hal_key_t key, const uint8_t digest[OTA_SHA256_BYTES],
			    uint8_t sig[OTA_P256_SIG_BYTES])
{
	return svc(HAL_SVC_ECDSA_SIGN, key, P(digest), P(sig));
}

ota_status_t hal_ecdsa_pubkey(hal_key_t key, uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	return svc(HAL_SVC_ECDSA_PUBKEY, key, P(pubkey), 0);
}

ota_status_t hal_keymgr_advance(uint32_t state, const struct hal_keymgr_binding *binding)
{
	return svc(HAL_SVC_KEYMGR_ADVANCE, state, P(binding), 0);
}

ota_status_t hal_keymgr_set_predecessor(const uint8_t attest[OTA_SHA256_BYTES])
{
	return svc(HAL_SVC_KEYMGR_SET_PREDECESSOR, P(attest), 0, 0);
}

ota_status_t hal_keymgr_handover(struct ota_identity_handover *out)
{
	return svc(HAL_SVC_KEYMGR_HANDOVER, P(out), 0, 0);
}

uint32_t hal_keymgr_state(void)
{
	return svc(HAL_SVC_KEYMGR_STATE, 0, 0, 0);
}

hal_key_t hal_keymgr_cdi(uint32_t cdi)
{
	return svc(HAL_SVC_KEYMGR_CDI, cdi, 0, 0);
}

ota_status_t hal_keymgr_derive(hal_key_t parent, const char *label, const uint8_t *context,
			       uint32_t context_len, uint32_t key_version, uint32_t max_key_version,
			       uint32_t purpose, hal_key_t *out)
{
	struct hal_svc_derive d = {
		.parent = parent,
		.label = P(label),
		.context = P(context),
		.context_len = context_len,
		.key_version = key_version,
		.max_key_version = max_key_version,
		.purpose = purpose,
		.out = P(out),
	};

	return svc(HAL_SVC_KEYMGR_DERIVE, P(&d), 0, 0);
}

void hal_key_destroy(hal_key_t key)
{
	(void)svc(HAL_SVC_KEY_DESTROY, key, 0, 0);
}

ota_status_t hal_key_retain(hal_key_t key, uint32_t slot)
{
	return svc(HAL_SVC_KEY_RETAIN, key, slot, 0);
}

ota_status_t hal_key_retained(uint32_t slot, hal_key_t *out)
{
	return svc(HAL_SVC_KEY_RETAINED, slot, P(out), 0);
}

void hal_key_retained_clear(uint32_t slot)
{
	(void)svc(HAL_SVC_KEY_RETAINED_CLEAR, slot, 0, 0);
}

uint32_t hal_flash_size(void)
{
	return svc(HAL_SVC_FLASH_SIZE, 0, 0, 0);
}

uint32_t hal_flash_page_size(void)
{
	return svc(HAL_SVC_FLASH_PAGE_SIZE, 0, 0, 0);
}

ota_status_t hal_flash_read(uint32_t addr, void *buf, uint32_t len)
{
	return svc(HAL_SVC_FLASH_READ, addr, P(buf), len);
}

ota_status_t hal_flash_erase_page(uint32_t addr)
{
	return svc(HAL_SVC_FLASH_ERASE_PAGE, addr, 0, 0);
}

ota_status_t hal_flash_program(uint32_t addr, const void *buf, uint32_t len)
{
	return svc(HAL_SVC_FLASH_PROGRAM, addr, P(buf), len);
}

ota_status_t hal_flash_protect(uint32_t addr, uint32_t len)
{
	return svc(HAL_SVC_FLASH_PROTECT, addr, len, 0);
}

ota_status_t hal_flash_read_sha256(uint32_t addr, void *buf, uint32_t len)
{
	return svc(HAL_SVC_FLASH_READ_SHA256, addr, P(buf), len);
}

ota_status_t hal_otp_read(uint32_t offset, void *buf, uint32_t len)
{
	return svc(HAL_SVC_OTP_READ, offset, P(buf), len);
}

ota_status_t hal_otp_program(uint32_t offset, const void *buf, uint32_t len)
{
	return svc(HAL_SVC_OTP_PROGRAM, offset, P(buf), len);
}

ota_status_t hal_retention_read(uint32_t offset, void *buf, uint32_t len)
{
	return svc(HAL_SVC_RETENTION_READ, offset, P(buf), len);
}

ota_status_t hal_retention_write(uint32_t offset, const void *buf, uint32_t len)
{
	return svc(HAL_SVC_RETENTION_WRITE, offset, P(buf), len);
}

/* wfi's stand-in (hal/svc.h, HAL_SVC_WFI): the core stops until the board has a request. */
void hal_wait_for_interrupt(void)
{
	(void)svc(HAL_SVC_WFI, 0, 0, 0);
}
