// SPDX-License-Identifier: MIT
/*
 * attempt_rules: ota_attempt_check (evidence.h) on every combination of
 * an attempt's status (accepted or refused), path, path reason, TAG_BOOT
 * usage and the record's tag-boot flag, one line each:
 *   OK|REFUSED PATH REASON USAGE FLAG RULE
 * names as docs/evidence.md's consistency tables write them, RULE the
 * number of the first rule broken (0: consistent). consistency_doc.py
 * holds these lines to the tables.
 */
#include <stdio.h>

#include <otattest/evidence.h>
#include <otattest/status.h>

int main(void)
{
	for (int ok = 0; ok < 2; ok++)
		for (uint32_t path = 0; path <= OTA_PATH_MAX; path++)
			for (uint32_t reason = 0; reason <= OTA_REASON_MAX; reason++)
				for (uint32_t usage = 0; usage < 2; usage++)
					for (uint32_t flag = 0; flag < 2; flag++)
						printf("%s %s %s %s %s %d\n", ok ? "OK" : "REFUSED",
						       ota_path_name(path), ota_path_reason_name(reason),
						       usage ? "set" : "clear", flag ? "set" : "clear",
						       (int)ota_attempt_check(
							       ok ? OTA_OK : OTA_SIG_ECDSA_INVALID, path,
							       reason, usage ? OTA_CAP_TAG_BOOT : 0,
							       flag ? OTA_RECORD_F_TAG_BOOT_ENABLED : 0));
	return 0;
}
