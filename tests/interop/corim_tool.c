// SPDX-License-Identifier: MIT
/*
 * corim_tool RECORD KEY OUT: the reference values of the stages a boot
 * record shows booted, as the signed CoRIM `otimage corim` writes for
 * their images (the same writer, oti_corim_build), signed with KEY.
 * tests/interop/corim.sh uses it to give otattest-verify reference values
 * that match evidence_tool's evidence, whose stages are made up rather
 * than built from images.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/record.h>
#include <otu/file.h>

#include "corim_build.h"

int main(int argc, char **argv)
{
	struct oti_corim_stage stages[OTA_RECORD_MAX_STAGES];
	const struct ota_record *r;
	struct oti_key key = { 0 };
	struct oti_diag d;
	uint8_t *rec = NULL, *corim = NULL;
	size_t rec_len = 0, corim_len = 0;
	uint32_t i, n = 0;

	if ((argc != 4 && argc != 5) || (argc == 5 && strcmp(argv[4], "veraison") != 0)) {
		fprintf(stderr, "usage: corim_tool RECORD KEY OUT [veraison]\n");
		return 2;
	}
	if (otu_read_file(argv[1], OTA_RECORD_MAX_BYTES, &rec, &rec_len) != 0 ||
	    ota_record_validate(rec, (uint32_t)rec_len) != OTA_OK) {
		fprintf(stderr, "corim_tool: %s: not a valid boot record\n", argv[1]);
		return 1;
	}
	r = (const struct ota_record *)rec;
	for (i = 0; i < r->hdr.stage_count; i++) {
		const struct ota_stage_record *s = &r->stage[i];

		if (!(s->flags & OTA_STAGE_F_BOOTED))
			continue;
		memset(&stages[n], 0, sizeof(stages[n]));
		stages[n].stage = s->stage;
		stages[n].svn = s->security_version;
		memcpy(stages[n].measurement, s->measurement, OTA_SHA256_BYTES);
		stages[n].key_id_count = s->delegation_depth + 1u;
		memcpy(stages[n].key_ids, s->key_ids, sizeof(stages[n].key_ids));
		n++;
	}
	oti_diag_clear(&d);
	if (oti_key_load(argv[2], true, &key, &d) != OTA_OK ||
	    oti_corim_build("evidence-tool-release", "otattest interop", stages, n,
			    argc == 5 ? OTI_CORIM_FORM_VERAISON : OTI_CORIM_FORM_DRAFT, &key, &corim,
			    &corim_len) != OTA_OK ||
	    otu_write_file_atomic(argv[3], corim, corim_len, 0644, OTU_WRITE_NO_SYNC) != 0) {
		fprintf(stderr, "corim_tool: cannot write the CoRIM\n");
		return 1;
	}
	free(corim);
	free(rec);
	oti_key_free(&key);
	return 0;
}
