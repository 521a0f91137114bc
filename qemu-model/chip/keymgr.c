// SPDX-License-Identifier: MIT
/*
 * The key manager: key slots held in two XOR shares, handles with a
 * generation and a purpose, the one-way state machine with its two
 * secrets per state (hal.h), and the retained vault.
 *
 * A handle is (generation << 8) | (slot + 1). Every allocation and every
 * wipe bumps the slot's generation, so a handle outlives neither a
 * destroy nor a reset: a stale handle is refused, never reused by
 * accident. Key bytes exist in the clear only on the stack of one
 * operation (wiped afterwards); at rest a key is share[0] ^ share[1],
 * and both shares are re-randomised every time the key is used.
 */
#include <string.h>

#include <otattest/evidence.h>
#include <otattest/handover.h>
#include <otattest/otp.h>

#include "swhal_priv.h"

#define GEN_MASK 0xffffffu

static void store(struct swhal_key *k, uint32_t purpose, const uint8_t clear[SWHAL_KEY_BYTES])
{
	uint8_t mask[SWHAL_KEY_BYTES];
	uint32_t i;

	swhal_random(mask, sizeof(mask));
	for (i = 0; i < SWHAL_KEY_BYTES; i++) {
		k->share[0][i] = mask[i];
		k->share[1][i] = clear[i] ^ mask[i];
	}
	k->purpose = purpose;
	swhal_wipe(mask, sizeof(mask));
}

/* Recombine into out, then move both shares by a fresh mask. */
static void reveal(struct swhal_key *k, uint8_t out[SWHAL_KEY_BYTES])
{
	uint8_t mask[SWHAL_KEY_BYTES];
	uint32_t i;

	swhal_random(mask, sizeof(mask));
	for (i = 0; i < SWHAL_KEY_BYTES; i++) {
		out[i] = k->share[0][i] ^ k->share[1][i];
		k->share[0][i] ^= mask[i];
		k->share[1][i] ^= mask[i];
	}
	swhal_wipe(mask, sizeof(mask));
}

static void bump(struct swhal_key *k)
{
	k->generation = (k->generation + 1u) & GEN_MASK;
	if (k->generation == 0)
		k->generation = 1;
}

static void wipe(struct swhal_key *k)
{
	swhal_wipe(k->share, sizeof(k->share));
	k->purpose = 0;
	bump(k);
}

static hal_key_t handle_of(uint32_t index)
{
	return (swhal_dev.keys[index].generation << 8) | (index + 1u);
}

static struct swhal_key *lookup(hal_key_t h)
{
	uint32_t index = (h & 0xffu) - 1u;
	struct swhal_key *k;

	if (h == HAL_KEY_INVALID || index >= SWHAL_WORKING_KEYS)
		return NULL;
	k = &swhal_dev.keys[index];
	if (!k->purpose || k->generation != (h >> 8))
		return NULL;
	return k;
}

static ota_status_t alloc(uint32_t purpose, const uint8_t clear[SWHAL_KEY_BYTES], hal_key_t *out)
{
	uint32_t i;

	for (i = SWHAL_CDI_SLOTS; i < SWHAL_WORKING_KEYS; i++) {
		struct swhal_key *k = &swhal_dev.keys[i];

		if (k->purpose)
			continue;
		bump(k);
		store(k, purpose, clear);
		*out = handle_of(i);
		return OTA_OK;
	}
	return OTA_HAL_KEY_SLOTS_FULL;
}

void swhal_keys_seed(void)
{
	uint32_t i;

	for (i = 0; i < SWHAL_WORKING_KEYS; i++) {
		swhal_random(&swhal_dev.keys[i].generation, sizeof(uint32_t));
		bump(&swhal_dev.keys[i]);
	}
}

void swhal_keys_reset(bool cold)
{
	uint32_t i;

	(void)cold; /* the vault is part of retention RAM: power_on clears it */
	for (i = 0; i < SWHAL_WORKING_KEYS; i++)
		wipe(&swhal_dev.keys[i]);
	wipe(&swhal_dev.pred_cdi);
	swhal_dev.pred_binding_set = false;
	memset(swhal_dev.pred_binding, 0, sizeof(swhal_dev.pred_binding));
	swhal_dev.keymgr_state = HAL_KEYMGR_ROM;
}

ota_status_t swhal_key_use(hal_key_t h, uint32_t purpose, uint8_t out[SWHAL_KEY_BYTES])
{
	struct swhal_key *k;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	k = lookup(h);
	if (!k)
		return OTA_HAL_BAD_HANDLE;
	/* The engine asking is the sideload destination: only its own purpose. */
	if (k->purpose != purpose)
		return OTA_HAL_KEY_PURPOSE;
	reveal(k, out);
	return OTA_OK;
}

static bool is_cdi(const struct swhal_key *k)
{
	return k >= &swhal_dev.keys[0] && k < &swhal_dev.keys[SWHAL_CDI_SLOTS];
}

/* ---- state ------------------------------------------------------------- */

/*
 * ROM's secrets: the device root, from the secret partition (digest
 * checked: a blank or corrupted partition yields no root, never a weak
 * one) and the ROM identity. Loaded on first use; false when there is none.
 */
static bool rom_secrets_load(void)
{
	uint8_t clear[SWHAL_KEY_BYTES];
	uint32_t i;

	if (swhal_dev.keys[HAL_KEYMGR_CDI_ATTEST].purpose)
		return true;
	/* The partition digest as libotattest defines it (otp.h): one definition. */
	if (ota_otp_secret_check(&swhal_dev.otp) != OTA_OK ||
	    swhal_device_root(swhal_dev.otp.device_secret, swhal_dev.rom_identity,
			      clear) != OTA_OK)
		return false;
	for (i = 0; i < SWHAL_CDI_SLOTS; i++) {
		bump(&swhal_dev.keys[i]);
		store(&swhal_dev.keys[i], HAL_KEY_PURPOSE_KDF, clear);
	}
	swhal_wipe(clear, sizeof(clear));
	return true;
}

/*
 * The predecessor's ATTEST CDI in ROM_EXT's state: what cdi_advance makes
 * for ATTEST with the predecessor binding in place of this stage's. From
 * the device root, so only at the advance out of ROM.
 */
static ota_status_t pred_cdi_make(void)
{
	struct swhal_key *root = &swhal_dev.keys[HAL_KEYMGR_CDI_ATTEST];
	uint8_t clear[SWHAL_KEY_BYTES], derived[SWHAL_KEY_BYTES];
	uint8_t ctx[4 + OTA_SHA256_BYTES];
	ota_status_t st;

	ctx[0] = (uint8_t)HAL_KEYMGR_ROM_EXT;
	ctx[1] = ctx[2] = ctx[3] = 0;
	memcpy(ctx + 4, swhal_dev.pred_binding, OTA_SHA256_BYTES);
	reveal(root, clear);
	st = swhal_kdf(clear, "otattest-keymgr-attest", ctx, sizeof(ctx), 0, HAL_KEY_PURPOSE_KDF,
		       derived);
	swhal_wipe(clear, sizeof(clear));
	if (st == OTA_OK) {
		bump(&swhal_dev.pred_cdi);
		store(&swhal_dev.pred_cdi, HAL_KEY_PURPOSE_KDF, derived);
	}
	swhal_wipe(derived, sizeof(derived));
	return st;
}

/* One CDI of the next state: KDF(current, label, next state || binding parts). */
static ota_status_t cdi_advance(uint32_t which, uint32_t next, const struct hal_keymgr_binding *b)
{
	struct swhal_key *k = &swhal_dev.keys[which];
	uint8_t clear[SWHAL_KEY_BYTES], derived[SWHAL_KEY_BYTES];
	uint8_t ctx[4 + 2 * OTA_SHA256_BYTES];
	uint32_t ctx_len = 4u + OTA_SHA256_BYTES;
	ota_status_t st;

	ctx[0] = (uint8_t)next;
	ctx[1] = ctx[2] = ctx[3] = 0;
	memcpy(ctx + 4, b->attest, OTA_SHA256_BYTES);
	if (which == HAL_KEYMGR_CDI_SEAL) {
		memcpy(ctx + 4 + OTA_SHA256_BYTES, b->seal, OTA_SHA256_BYTES);
		ctx_len += OTA_SHA256_BYTES;
	}
	reveal(k, clear);
	st = swhal_kdf(clear, which == HAL_KEYMGR_CDI_SEAL ? "otattest-keymgr-seal" : "otattest-keymgr-attest",
		       ctx, ctx_len, 0, HAL_KEY_PURPOSE_KDF, derived);
	swhal_wipe(clear, sizeof(clear));
	/* The old secret is gone whatever happened: the state only moves forward. */
	wipe(k);
	if (st == OTA_OK) {
		bump(k);
		store(k, HAL_KEY_PURPOSE_KDF, derived);
	}
	swhal_wipe(derived, sizeof(derived));
	return st;
}

ota_status_t hal_keymgr_advance(uint32_t state, const struct hal_keymgr_binding *binding)
{
	uint32_t i, cur = swhal_dev.keymgr_state;
	bool have = false;
	ota_status_t st = OTA_OK;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (state > HAL_KEYMGR_DISABLED)
		return OTA_HAL_BAD_ARGUMENT;
	if (state != HAL_KEYMGR_DISABLED && (state != cur + 1u || !binding))
		return state <= cur ? OTA_HAL_KEYMGR_STATE : OTA_HAL_BAD_ARGUMENT;
	/* A predecessor lives for ROM_EXT's state alone. */
	wipe(&swhal_dev.pred_cdi);
	if (state != HAL_KEYMGR_DISABLED) {
		have = cur == HAL_KEYMGR_ROM ? rom_secrets_load()
					     : swhal_dev.keys[HAL_KEYMGR_CDI_ATTEST].purpose != 0;
		/* From the root, before the root is replaced. */
		if (have && cur == HAL_KEYMGR_ROM && swhal_dev.pred_binding_set)
			st = pred_cdi_make();
		for (i = 0; have && i < SWHAL_CDI_SLOTS && st == OTA_OK; i++)
			st = cdi_advance(i, state, binding);
	}
	swhal_dev.pred_binding_set = false;
	memset(swhal_dev.pred_binding, 0, sizeof(swhal_dev.pred_binding));
	if (!have || st != OTA_OK)
		wipe(&swhal_dev.pred_cdi);
	if (!have || st != OTA_OK)
		for (i = 0; i < SWHAL_CDI_SLOTS; i++)
			wipe(&swhal_dev.keys[i]);
	if (state >= HAL_KEYMGR_RUNTIME)
		/* The runtime starts with nothing but the retained vault. */
		for (i = SWHAL_CDI_SLOTS; i < SWHAL_WORKING_KEYS; i++)
			wipe(&swhal_dev.keys[i]);
	if (state == HAL_KEYMGR_DISABLED)
		for (i = 0; i < SWHAL_CDI_SLOTS; i++)
			wipe(&swhal_dev.keys[i]);
	swhal_dev.keymgr_state = state;
	return st;
}

uint32_t hal_keymgr_state(void)
{
	return swhal_dev.keymgr_state;
}

hal_key_t hal_keymgr_cdi(uint32_t cdi)
{
	if (!swhal_powered() || cdi >= SWHAL_CDI_SLOTS ||
	    swhal_dev.keymgr_state == HAL_KEYMGR_DISABLED)
		return HAL_KEY_INVALID;
	if (swhal_dev.keymgr_state == HAL_KEYMGR_ROM && !rom_secrets_load())
		return HAL_KEY_INVALID;
	if (!swhal_dev.keys[cdi].purpose)
		return HAL_KEY_INVALID;
	return handle_of(cdi);
}

/* The identity version OTP holds now (the key manager reads it itself); false when corrupt. */
static bool identity_version(uint32_t *v)
{
	return ota_thermometer_decode(swhal_dev.otp.identity_version,
				      sizeof(swhal_dev.otp.identity_version), v) == OTA_OK;
}

ota_status_t hal_keymgr_set_predecessor(const uint8_t attest[OTA_SHA256_BYTES])
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!attest)
		return OTA_HAL_BAD_ARGUMENT;
	if (swhal_dev.keymgr_state != HAL_KEYMGR_ROM)
		return OTA_HAL_KEYMGR_STATE;
	memcpy(swhal_dev.pred_binding, attest, OTA_SHA256_BYTES);
	swhal_dev.pred_binding_set = true;
	return OTA_OK;
}

/* An identity key (SIGN) from a clear ATTEST CDI at a version: scalar and public key. */
static ota_status_t identity_at(struct swhal_key *cdi, uint32_t version,
				uint8_t scalar[SWHAL_KEY_BYTES], uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	uint8_t clear[SWHAL_KEY_BYTES];
	ota_status_t st;

	reveal(cdi, clear);
	st = swhal_kdf(clear, OTA_IDENTITY_LABEL, NULL, 0, version, HAL_KEY_PURPOSE_SIGN, scalar);
	swhal_wipe(clear, sizeof(clear));
	if (st == OTA_OK)
		st = swhal_p256_pubkey(scalar, pub);
	return st;
}

ota_status_t hal_keymgr_handover(struct ota_identity_handover *out)
{
	uint8_t old_key[SWHAL_KEY_BYTES], new_key[SWHAL_KEY_BYTES], digest[OTA_SHA256_BYTES];
	struct ota_identity_handover h;
	uint32_t v;
	ota_status_t st;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!out)
		return OTA_HAL_BAD_ARGUMENT;
	if (swhal_dev.keymgr_state != HAL_KEYMGR_ROM_EXT ||
	    !swhal_dev.keys[HAL_KEYMGR_CDI_ATTEST].purpose)
		return OTA_HAL_KEYMGR_STATE;
	if (!swhal_dev.pred_cdi.purpose)
		return OTA_HAL_KEYMGR_NO_PREDECESSOR;
	/* From the version in force to the next; none left past the thermometer. */
	if (!identity_version(&v) || v >= OTA_OTP_IDENTITY_VERSION_BITS)
		return OTA_HAL_KEYMGR_VERSION;
	memset(&h, 0, sizeof(h));
	h.magic = OTA_HANDOVER_MAGIC;
	h.version = OTA_HANDOVER_VERSION;
	h.size = sizeof(h);
	h.from_version = v;
	h.to_version = v + 1u;
	memcpy(h.device_id, swhal_dev.otp.device_id, OTA_DEVICE_ID_BYTES);
	st = identity_at(&swhal_dev.pred_cdi, v, old_key, h.from_pubkey);
	if (st == OTA_OK)
		st = identity_at(&swhal_dev.keys[HAL_KEYMGR_CDI_ATTEST], v + 1u, new_key,
				 h.to_pubkey);
	if (st == OTA_OK) {
		ota_handover_digest(&h, digest);
		st = swhal_p256_sign(old_key, digest, h.signature);
	}
	swhal_wipe(old_key, sizeof(old_key));
	swhal_wipe(new_key, sizeof(new_key));
	if (st == OTA_OK)
		*out = h;
	return st;
}

ota_status_t hal_keymgr_derive(hal_key_t parent, const char *label,
			       const uint8_t *context, uint32_t context_len,
			       uint32_t key_version, uint32_t max_key_version,
			       uint32_t purpose, hal_key_t *out)
{
	uint8_t clear[SWHAL_KEY_BYTES], derived[SWHAL_KEY_BYTES];
	size_t label_len;
	ota_status_t st;

	if (!out)
		return OTA_HAL_BAD_ARGUMENT;
	*out = HAL_KEY_INVALID;
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (key_version > max_key_version)
		return OTA_HAL_KEYMGR_VERSION;
	label_len = label ? strnlen(label, SWHAL_MAX_LABEL + 1u) : 0;
	if (label_len == 0 || label_len > SWHAL_MAX_LABEL || context_len > SWHAL_MAX_CONTEXT ||
	    (!context && context_len) ||
	    (purpose != HAL_KEY_PURPOSE_KDF && purpose != HAL_KEY_PURPOSE_SIGN &&
	     purpose != HAL_KEY_PURPOSE_MAC))
		return OTA_HAL_BAD_ARGUMENT;
	/*
	 * The identity exists at the version OTP holds and no other: once a
	 * hand-over raised it, the old identity is out of everyone's reach.
	 */
	if (label_len == sizeof(OTA_IDENTITY_LABEL) - 1u &&
	    !memcmp(label, OTA_IDENTITY_LABEL, label_len)) {
		uint32_t v;

		if (!identity_version(&v) || key_version != v)
			return OTA_HAL_KEYMGR_VERSION;
	}
	st = swhal_key_use(parent, HAL_KEY_PURPOSE_KDF, clear);
	if (st != OTA_OK)
		return st;
	st = swhal_kdf(clear, label, context, context_len, key_version, purpose, derived);
	swhal_wipe(clear, sizeof(clear));
	if (st == OTA_OK)
		st = alloc(purpose, derived, out);
	swhal_wipe(derived, sizeof(derived));
	return st;
}

void hal_key_destroy(hal_key_t key)
{
	struct swhal_key *k = lookup(key);

	/* The state's secrets are the key manager's own: they end with the state. */
	if (k && !is_cdi(k))
		wipe(k);
}

/* ---- retained vault ------------------------------------------------------ */

/*
 * Only the boot stages may fill the vault: a runtime that could park keys
 * of its choosing there would decide what the next boot inherits.
 */
ota_status_t hal_key_retain(hal_key_t key, uint32_t slot)
{
	uint8_t clear[SWHAL_KEY_BYTES];
	struct swhal_key *k;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (slot >= HAL_RETAINED_KEY_SLOTS)
		return OTA_HAL_BAD_ARGUMENT;
	if (swhal_dev.keymgr_state >= HAL_KEYMGR_RUNTIME)
		return OTA_HAL_KEYMGR_STATE;
	k = lookup(key);
	/* A state's secrets never leave the key manager, not even into the vault. */
	if (!k || is_cdi(k))
		return OTA_HAL_BAD_HANDLE;
	reveal(k, clear);
	store(&swhal_dev.ret.vault[slot], k->purpose, clear);
	swhal_wipe(clear, sizeof(clear));
	swhal_persist_retention();
	return OTA_OK;
}

ota_status_t hal_key_retained(uint32_t slot, hal_key_t *out)
{
	uint8_t clear[SWHAL_KEY_BYTES];
	struct swhal_key *v;
	ota_status_t st;

	if (!out)
		return OTA_HAL_BAD_ARGUMENT;
	*out = HAL_KEY_INVALID;
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (slot >= HAL_RETAINED_KEY_SLOTS)
		return OTA_HAL_BAD_ARGUMENT;
	v = &swhal_dev.ret.vault[slot];
	if (v->purpose != HAL_KEY_PURPOSE_KDF && v->purpose != HAL_KEY_PURPOSE_SIGN &&
	    v->purpose != HAL_KEY_PURPOSE_MAC)
		return OTA_HAL_BAD_HANDLE;
	/* Re-randomised in RAM only: the file's older shares recombine the same. */
	reveal(v, clear);
	st = alloc(v->purpose, clear, out);
	swhal_wipe(clear, sizeof(clear));
	return st;
}

void hal_key_retained_clear(uint32_t slot)
{
	if (!swhal_powered() || slot >= HAL_RETAINED_KEY_SLOTS)
		return;
	wipe(&swhal_dev.ret.vault[slot]);
	swhal_dev.ret.vault[slot].generation = 0;
	swhal_persist_retention();
}

/* ---- inspection ------------------------------------------------------------ */

uint32_t swhal_keys_in_use(void)
{
	uint32_t i, n = 0;

	for (i = 0; i < SWHAL_WORKING_KEYS; i++)
		n += swhal_dev.keys[i].purpose != 0;
	return n;
}

static bool contains(const void *hay, size_t hay_len, const void *needle, size_t len)
{
	return len && hay_len >= len && memmem(hay, hay_len, needle, len) != NULL;
}

bool swhal_key_storage_contains(const void *needle, uint32_t len)
{
	return contains(swhal_dev.keys, sizeof(swhal_dev.keys), needle, len) ||
	       contains(&swhal_dev.ret, sizeof(swhal_dev.ret), needle, len);
}
