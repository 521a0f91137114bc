/* SPDX-License-Identifier: MIT */
/*
 * Named settings a subcommand takes from a key=value config file and
 * from its command line (which wins). Each value remembers where it came
 * from, so an error can name "--svn" or "bl0.conf:3: security_version".
 */
#ifndef OTATTEST_OTIMAGE_SETTINGS_H
#define OTATTEST_OTIMAGE_SETTINGS_H

#include "otimage.h"

struct oti_setting {
	const char *key;    /* config file key, e.g. "security_version" */
	const char *option; /* command-line option, e.g. "--svn" */
	char *value;        /* NULL when not given; owned (strdup) */
	char source[320];   /* "--svn" or "FILE:LINE: key" */
};

/*
 * Read "key = value" lines ('#' starts a comment; blank lines ignored).
 * Unknown keys, lines without '=', and keys given twice are refused;
 * values already set from an earlier source are replaced.
 */
ota_status_t oti_config_read(const char *path, struct oti_setting *s, size_t n,
			     struct oti_diag *d);
/* Set from the command line: option is matched against s[i].option. */
void oti_setting_set(struct oti_setting *s, size_t n, const char *option, const char *value);
struct oti_setting *oti_setting_find(struct oti_setting *s, size_t n, const char *key);
void oti_settings_free(struct oti_setting *s, size_t n);
/* Fill d for a value of s that does not parse. */
ota_status_t oti_setting_error(const struct oti_setting *s, ota_status_t st, struct oti_diag *d,
			       const char *expected);

#endif
