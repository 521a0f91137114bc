// SPDX-License-Identifier: MIT
/*
 * Placing a verified stage's code (fwlib.h, boot_stage_place). The bytes
 * come from the one RAM copy the stage check read and measured
 * (image_load.c), never from flash again, so what runs is what was
 * verified. The windows are the linker script's (firmware/base/stage.ld),
 * so a stage's code never lands on the hand-off state or on the stage
 * doing the copying.
 */
#include <string.h>

#include "fwlib.h"

#if defined(__riscv)
extern char __rom_ext_window[], __rom_ext_window_end[], __bl0_window[], __bl0_window_end[];

ota_status_t boot_stage_place(const struct boot_image *img, struct boot_stage_outcome *out)
{
	const struct ota_image_view *v = &img->view;
	uint32_t lo = (uint32_t)(uintptr_t)(img->stage == OTA_STAGE_ROM_EXT ? __rom_ext_window
									     : __bl0_window);
	uint32_t hi = (uint32_t)(uintptr_t)(img->stage == OTA_STAGE_ROM_EXT ? __rom_ext_window_end
									     : __bl0_window_end);
	uint32_t len = v->manifest.payload_length;
	struct ota_ext_load l;

	/* Every stage the core jumps to must say where its code goes. */
	out->entry = 0;
	if (!v->load_offset)
		return OTA_EXT_BAD_LOAD;
	memcpy(&l, v->image + v->load_offset, sizeof(l));
	/* The parser checked the entry against the payload; this is the window. */
	if (l.load_address < lo || l.load_address > hi || len > hi - l.load_address)
		return OTA_EXT_BAD_LOAD;
	memcpy((void *)(uintptr_t)l.load_address, v->image + v->manifest.payload_offset, len);
	out->entry = l.entry;
	out->code_lo = l.load_address;
	out->code_hi = l.load_address + len;
	return OTA_OK;
}
#else
ota_status_t boot_stage_place(const struct boot_image *img, struct boot_stage_outcome *out)
{
	(void)img;
	out->entry = 0;
	return OTA_OK;
}
#endif
