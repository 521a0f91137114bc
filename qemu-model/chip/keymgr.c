// SPDX-License-Identifier: MIT
/*
 * The key manager: key slots held in two XOR shares, handles with a
 * generation, one-way state, the device root and the retained vault.
 *
 * A handle is (generation << 8) | (slot + 1). Every allocation and every
 * wipe bumps the slot's generation, so a handle outlives neither a
 * destroy nor a reset: a stale handle is refused, never reused by
 * accident. Key bytes exist in the clear only on the stack of one
 * operation (wiped afterwards); at rest a key is share[0] ^ share[1],
 * and both shares are re-randomised every time the key is used.
 */
#include <string.h>

#include "swhal_priv.h"

#define GEN_MASK 0xffffffu

static void store(struct swhal_key *k, uint32_t kind, const uint8_t clear[SWHAL_KEY_BYTES])
{
	uint8_t mask[SWHAL_KEY_BYTES];
	uint32_t i;

	swhal_random(mask, sizeof(mask));
	for (i = 0; i < SWHAL_KEY_BYTES; i++) {
		k->share[0][i] = mask[i];
		k->share[1][i] = clear[i] ^ mask[i];
	}
	k->kind = kind;
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
	k->kind = 0;
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
	if (!k->kind || k->generation != (h >> 8))
		return NULL;
	return k;
}

static ota_status_t alloc(uint32_t kind, const uint8_t clear[SWHAL_KEY_BYTES], hal_key_t *out)
{
	uint32_t i;

	for (i = SWHAL_ROOT_SLOT + 1u; i < SWHAL_WORKING_KEYS; i++) {
		struct swhal_key *k = &swhal_dev.keys[i];

		if (k->kind)
			continue;
		bump(k);
		store(k, kind, clear);
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
	swhal_dev.keymgr_state = HAL_KEYMGR_ROM;
}

ota_status_t swhal_key_use(hal_key_t h, uint32_t kind, uint8_t out[SWHAL_KEY_BYTES])
{
	struct swhal_key *k;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	k = lookup(h);
	if (!k || k->kind != kind)
		return OTA_HAL_BAD_HANDLE;
	reveal(k, out);
	return OTA_OK;
}

/* ---- state ------------------------------------------------------------- */

ota_status_t hal_keymgr_advance(uint32_t state)
{
	uint32_t i;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (state > HAL_KEYMGR_RUNTIME)
		return OTA_HAL_BAD_ARGUMENT;
	if (state < swhal_dev.keymgr_state)
		return OTA_HAL_KEYMGR_STATE;
	if (state == HAL_KEYMGR_RUNTIME && swhal_dev.keymgr_state != HAL_KEYMGR_RUNTIME)
		/* The runtime starts with nothing but the retained vault. */
		for (i = 0; i < SWHAL_WORKING_KEYS; i++)
			wipe(&swhal_dev.keys[i]);
	swhal_dev.keymgr_state = state;
	return OTA_OK;
}

uint32_t hal_keymgr_state(void)
{
	return swhal_dev.keymgr_state;
}

/*
 * The key manager reads the secret partition itself, checks its digest
 * (a blank or corrupted partition yields no root, never a weak one) and
 * keeps the root in slot 0 until the state reaches RUNTIME.
 */
hal_key_t hal_keymgr_root(void)
{
	struct swhal_key *root = &swhal_dev.keys[SWHAL_ROOT_SLOT];
	uint8_t clear[SWHAL_KEY_BYTES];

	if (!swhal_powered() || swhal_dev.keymgr_state >= HAL_KEYMGR_RUNTIME)
		return HAL_KEY_INVALID;
	if (root->kind)
		return handle_of(SWHAL_ROOT_SLOT);
	/* The partition digest as libotattest defines it (otp.h): one definition. */
	if (ota_otp_secret_check(&swhal_dev.otp) != OTA_OK ||
	    swhal_device_root(swhal_dev.otp.device_secret, swhal_dev.rom_identity,
			      clear) != OTA_OK)
		return HAL_KEY_INVALID;
	bump(root);
	store(root, HAL_KEY_KIND_SYMMETRIC, clear);
	swhal_wipe(clear, sizeof(clear));
	return handle_of(SWHAL_ROOT_SLOT);
}

ota_status_t hal_keymgr_derive(hal_key_t parent, const char *label,
			       const uint8_t *context, uint32_t context_len,
			       uint32_t key_version, uint32_t max_key_version,
			       uint32_t kind, hal_key_t *out)
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
	    (kind != HAL_KEY_KIND_SYMMETRIC && kind != HAL_KEY_KIND_ECDSA_P256))
		return OTA_HAL_BAD_ARGUMENT;
	st = swhal_key_use(parent, HAL_KEY_KIND_SYMMETRIC, clear);
	if (st != OTA_OK)
		return st;
	st = swhal_kdf(clear, label, context, context_len, key_version, kind, derived);
	swhal_wipe(clear, sizeof(clear));
	if (st == OTA_OK)
		st = alloc(kind, derived, out);
	swhal_wipe(derived, sizeof(derived));
	return st;
}

void hal_key_destroy(hal_key_t key)
{
	struct swhal_key *k = lookup(key);

	/* The root is the key manager's own state: it ends at RUNTIME, not here. */
	if (k && k != &swhal_dev.keys[SWHAL_ROOT_SLOT])
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
	/* The root never leaves the key manager, not even into the vault. */
	if (!k || k == &swhal_dev.keys[SWHAL_ROOT_SLOT])
		return OTA_HAL_BAD_HANDLE;
	reveal(k, clear);
	store(&swhal_dev.ret.vault[slot], k->kind, clear);
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
	if (v->kind != HAL_KEY_KIND_SYMMETRIC && v->kind != HAL_KEY_KIND_ECDSA_P256)
		return OTA_HAL_BAD_HANDLE;
	/* Re-randomised in RAM only: the file's older shares recombine the same. */
	reveal(v, clear);
	st = alloc(v->kind, clear, out);
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
		n += swhal_dev.keys[i].kind != 0;
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
