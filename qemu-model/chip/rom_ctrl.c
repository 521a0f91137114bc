// SPDX-License-Identifier: MIT
/*
 * The ROM controller as a peripheral (qemu-model/regs/rom_ctrl.yaml):
 * DIGEST_n reads the ROM identity the chip holds (docs/hal.md, "ROM
 * identity"; swhal_set_rom_identity), bytes 4n..4n+3. The key manager
 * takes the same digest on its sideload port, not through these registers.
 *
 * With a mask ROM image (the emulated core, otattest-model --core=rv32)
 * the board hands rom_ctrl the ROM region's contents as it laid them out
 * at power-on, and the ROM identity is their SHA-256 digest: another ROM
 * is another device (its device root, identity and chain keys differ).
 * Without one (the host build, whose ROM is compiled into the model) it
 * is the model's constant, swhal_default_rom_identity().
 */
#include <errno.h>
#include <string.h>

#include <openssl/evp.h>

#include "bus.h"
#include "rom_ctrl_regs.h"
#include "swhal_priv.h"

static ota_status_t rom_ctrl_read(uint32_t reg)
{
	uint32_t n = (reg - ROM_CTRL_DIGEST_REG_OFFSET(0)) / 4;
	const uint8_t *d = swhal_dev.rom_identity + 4 * n;

	if (n >= ROM_CTRL_DIGEST_COUNT)
		return OTA_OK;
	chip_reg_set(TOP_BLOCK_ROM_CTRL, reg,
		     (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24);
	return OTA_OK;
}

const struct chip_block_ops chip_rom_ctrl_ops = { .read = rom_ctrl_read };

int swhal_rom_contents(const uint8_t *rom, uint32_t len)
{
	uint8_t id[OTA_SHA256_BYTES];
	unsigned int n = 0;

	if (!rom) {
		swhal_default_rom_identity(id);
	} else if (len == 0 || EVP_Digest(rom, len, id, &n, EVP_sha256(), NULL) != 1 ||
		   n != OTA_SHA256_BYTES) {
		return -EINVAL;
	}
	swhal_set_rom_identity(id);
	return 0;
}

void swhal_rom_identity(uint8_t out[OTA_SHA256_BYTES])
{
	memcpy(out, swhal_dev.rom_identity, OTA_SHA256_BYTES);
}
