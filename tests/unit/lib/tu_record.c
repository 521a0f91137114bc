// SPDX-License-Identifier: MIT
#include "tu_record.h"

#include <string.h>

uint32_t tu_record_one_stage(struct ota_record *r, uint8_t dev, uint32_t gen)
{
	memset(r, 0, sizeof(*r));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.stage_count = 1;
	r->hdr.length = sizeof(r->hdr) + sizeof(struct ota_stage_record);
	r->hdr.generation = gen;
	r->hdr.reset_reason = OTA_RESET_COLD;
	r->hdr.lifecycle = OTA_LC_PROD;
	memset(r->hdr.device_id, dev, sizeof(r->hdr.device_id));
	r->hdr.boot_status = OTA_OK;
	r->stage[0].stage = OTA_STAGE_BL0;
	r->stage[0].slot = OTA_SLOT_A;
	r->stage[0].status = OTA_OK;
	r->stage[0].path = OTA_PATH_SIGNATURE;
	return r->hdr.length;
}
