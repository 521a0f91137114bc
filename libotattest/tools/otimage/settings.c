// SPDX-License-Identifier: MIT
/*
 * Config files for otimage: deliberately small. One "key = value" per
 * line, no quoting, no includes, no sections: a manifest description
 * that is easy to review and impossible to misread.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "otimage_internal.h"
#include "settings.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

struct oti_setting *oti_setting_find(struct oti_setting *s, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s[i].key, key) == 0)
			return &s[i];
	return NULL;
}

ota_status_t oti_config_read(const char *path, struct oti_setting *s, size_t n,
			     struct oti_diag *d)
{
	bool seen[64] = { false };
	uint8_t *buf;
	size_t len, lineno = 0;
	char *text, *line, *save;
	ota_status_t st;

	if (n > 64)
		return oti_diag_set(d, OTA_HOST_INTERNAL, path, NULL, "too many settings");
	st = oti_file_read(path, OTI_MAX_SMALL_FILE, &buf, &len, d);
	if (st != OTA_OK)
		return st;
	if (memchr(buf, '\0', len)) {
		free(buf);
		return oti_diag_set(d, OTA_TOOL_CONFIG_SYNTAX, path, NULL, "NUL byte in a text file");
	}
	text = malloc(len + 1);
	if (!text) {
		free(buf);
		return oti_diag_set(d, OTA_HOST_INTERNAL, path, NULL, "out of memory");
	}
	memcpy(text, buf, len);
	text[len] = '\0';
	free(buf);

	/* strtok_r would merge empty lines and so miscount; split by hand. */
	for (line = text; line; line = save) {
		char *eq, *key, *val, *hash;
		struct oti_setting *set;
		char where[64];

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		line = trim(line);
		if (!*line)
			continue;
		snprintf(where, sizeof(where), "line %zu", lineno);
		eq = strchr(line, '=');
		if (!eq) {
			st = oti_diag_set(d, OTA_TOOL_CONFIG_SYNTAX, path, where, NULL);
			goto out;
		}
		*eq = '\0';
		key = trim(line);
		val = trim(eq + 1);
		set = oti_setting_find(s, n, key);
		if (!set) {
			st = oti_diag_set(d, OTA_TOOL_CONFIG_UNKNOWN_KEY, path, where, "'%s'", key);
			goto out;
		}
		if (seen[set - s]) {
			st = oti_diag_set(d, OTA_TOOL_CONFIG_DUPLICATE_KEY, path, where, "'%s'", key);
			goto out;
		}
		seen[set - s] = true;
		free(set->value);
		set->value = strdup(val);
		snprintf(set->source, sizeof(set->source), "%s:%zu: %s", path, lineno, key);
	}
	st = OTA_OK;
out:
	free(text);
	return st;
}

void oti_setting_set(struct oti_setting *s, size_t n, const char *option, const char *value)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i].option && strcmp(s[i].option, option) == 0) {
			free(s[i].value);
			s[i].value = strdup(value);
			snprintf(s[i].source, sizeof(s[i].source), "%s", option);
			return;
		}
	}
}

void oti_settings_free(struct oti_setting *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].value);
		s[i].value = NULL;
	}
}

ota_status_t oti_setting_error(const struct oti_setting *s, ota_status_t st, struct oti_diag *d,
			       const char *expected)
{
	return oti_diag_set(d, st, NULL, s->source, "'%s'%s%s", s->value ? s->value : "",
			    expected ? ", expected " : "", expected ? expected : "");
}
