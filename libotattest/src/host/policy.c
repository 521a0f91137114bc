// SPDX-License-Identifier: MIT
/*
 * Verifier policy: the file format (docs/verifier.md) and its evaluation
 * against decoded claims. The format is deliberately tiny - "key = value"
 * lines - and strict: an unknown key, a repeated scalar key or a value out
 * of range is an error naming the line, never silently ignored, because a
 * typo in a policy must not loosen it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/hex.h>

#include "otattest/corim.h"
#include "otattest/verify.h"

#include "fileio.h"
#include "verdict.h"

void ota_policy_init(struct ota_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->max_delegation_depth = OTA_MAX_DELEGATION_DEPTH;
	p->tag_path_allowed = true;
	p->debug_images_allowed = true;
}

static bool parse_uint(const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v = 0;

	if (*s == 0)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10u + (unsigned)(*s - '0');
		if (v > max)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

static bool parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "yes")) {
		*out = true;
		return true;
	}
	if (!strcmp(s, "false") || !strcmp(s, "no")) {
		*out = false;
		return true;
	}
	return false;
}

static bool parse_hex32(const char *s, uint8_t out[OTA_KEY_ID_BYTES])
{
	return strlen(s) == 2u * OTA_KEY_ID_BYTES &&
	       otu_hex_decode(s, out, OTA_KEY_ID_BYTES) == OTA_KEY_ID_BYTES;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

enum {
	K_MIN_SVN_ROM_EXT, K_MIN_SVN_BL0, K_MAX_DEPTH, K_HYBRID, K_TAG_PATH, K_MIN_EPOCH, K_DEBUG,
	K_COMMITTED, K_REVERTED, K_MIN_REVOCATION, K_COUNT
};
static const char *const scalar_keys[K_COUNT] = {
	"min_svn_rom_ext", "min_svn_bl0", "max_delegation_depth",
	"hybrid_required", "tag_path_allowed", "min_epoch", "debug_images_allowed",
	"require_committed", "allow_reverted", "min_revocation_sequence",
};

/* A lifecycle state by its name in the claims (ota_lifecycle_name). */
static bool parse_lifecycle(const char *s, uint32_t *out)
{
	for (uint32_t lc = 0; lc < OTA_LC_COUNT; lc++)
		if (!strcmp(s, ota_lifecycle_name(lc))) {
			*out = lc;
			return true;
		}
	return false;
}

/* The keys that may be given more than once, each adding to a list. */
static int apply_list(struct ota_policy *p, const char *key, const char *val, char *why,
		      size_t why_len, unsigned line)
{
	uint32_t lc;
	size_t n;

	if (!strcmp(key, "allowed_lifecycle")) {
		if (!parse_lifecycle(val, &lc)) {
			snprintf(why, why_len,
				 "line %u: allowed_lifecycle is one of test_unlocked, dev, prod, "
				 "prod_end, rma", line);
			return 0;
		}
		if (p->allowed_lifecycles & (1u << lc)) {
			snprintf(why, why_len, "line %u: allowed_lifecycle %s given twice", line, val);
			return 0;
		}
		p->allowed_lifecycles |= 1u << lc;
		return 1;
	}
	if (!strcmp(key, "denied_delegate_key")) {
		if (p->denied_delegate_key_count == OTA_POLICY_MAX_DENIED_KEYS) {
			snprintf(why, why_len, "line %u: more than %u denied_delegate_key entries",
				 line, OTA_POLICY_MAX_DENIED_KEYS);
			return 0;
		}
		if (!parse_hex32(val, p->denied_delegate_keys[p->denied_delegate_key_count])) {
			snprintf(why, why_len, "line %u: denied_delegate_key needs 64 hex digits", line);
			return 0;
		}
		p->denied_delegate_key_count++;
		return 1;
	}
	if (!strcmp(key, "crl")) {
		n = strlen(val);
		if (p->crl_count == OTA_POLICY_MAX_CRLS) {
			snprintf(why, why_len, "line %u: more than %u crl entries", line,
				 OTA_POLICY_MAX_CRLS);
			return 0;
		}
		if (n == 0 || n >= OTA_POLICY_CRL_PATH_MAX) {
			snprintf(why, why_len, "line %u: crl needs a path of 1 to %u bytes", line,
				 OTA_POLICY_CRL_PATH_MAX - 1u);
			return 0;
		}
		memcpy(p->crl_files[p->crl_count++], val, n + 1);
		return 1;
	}
	return -1;
}

static bool apply(struct ota_policy *p, const char *key, const char *val, unsigned *seen,
		  char *why, size_t why_len, unsigned line)
{
	int k = apply_list(p, key, val, why, why_len, line);

	if (k >= 0)
		return k == 1;
	if (!strcmp(key, "allowed_root_key")) {
		if (p->allowed_root_key_count == OTA_POLICY_MAX_ROOT_KEYS) {
			snprintf(why, why_len, "line %u: more than %u allowed_root_key entries", line,
				 OTA_POLICY_MAX_ROOT_KEYS);
			return false;
		}
		if (!parse_hex32(val, p->allowed_root_keys[p->allowed_root_key_count])) {
			snprintf(why, why_len, "line %u: allowed_root_key needs 64 hex digits", line);
			return false;
		}
		p->allowed_root_key_count++;
		return true;
	}
	for (k = 0; k < K_COUNT; k++)
		if (!strcmp(key, scalar_keys[k]))
			break;
	if (k == K_COUNT) {
		snprintf(why, why_len, "line %u: unknown key '%s'", line, key);
		return false;
	}
	if (*seen & (1u << k)) {
		snprintf(why, why_len, "line %u: '%s' given twice", line, key);
		return false;
	}
	*seen |= 1u << k;
	switch (k) {
	case K_MIN_SVN_ROM_EXT:
		if (parse_uint(val, OTA_SVN_LIMIT, &p->min_svn[OTA_STAGE_ROM_EXT]))
			return true;
		break;
	case K_MIN_SVN_BL0:
		if (parse_uint(val, OTA_SVN_LIMIT, &p->min_svn[OTA_STAGE_BL0]))
			return true;
		break;
	case K_MAX_DEPTH:
		if (parse_uint(val, OTA_MAX_DELEGATION_DEPTH, &p->max_delegation_depth))
			return true;
		break;
	case K_HYBRID:
		if (parse_bool(val, &p->hybrid_required))
			return true;
		break;
	case K_TAG_PATH:
		if (parse_bool(val, &p->tag_path_allowed))
			return true;
		break;
	case K_MIN_EPOCH:
		if (parse_uint(val, UINT32_MAX, &p->min_epoch))
			return true;
		break;
	case K_DEBUG:
		if (parse_bool(val, &p->debug_images_allowed))
			return true;
		break;
	case K_COMMITTED:
		if (parse_bool(val, &p->require_committed))
			return true;
		break;
	case K_REVERTED:
		if (parse_bool(val, &p->allow_reverted)) {
			p->allow_reverted_given = true;
			return true;
		}
		break;
	case K_MIN_REVOCATION:
		if (parse_uint(val, OTA_REVOCATION_SEQ_MAX, &p->min_revocation_sequence))
			return true;
		break;
	}
	snprintf(why, why_len, "line %u: bad value '%s' for %s", line, val, key);
	return false;
}

ota_status_t ota_policy_parse(const char *text, size_t len, struct ota_policy *p, char *why,
			      size_t why_len)
{
	struct ota_policy out;
	unsigned seen = 0, line = 0;
	char buf[512];
	size_t at = 0;

	ota_policy_init(&out);
	snprintf(why, why_len, "ok");
	while (at < len) {
		size_t end = at, n;
		char *s, *eq, *hash;

		while (end < len && text[end] != '\n')
			end++;
		line++;
		n = end - at;
		if (n >= sizeof(buf)) {
			snprintf(why, why_len, "line %u: longer than %zu bytes", line, sizeof(buf) - 1);
			return OTA_VERIFY_POLICY_MALFORMED;
		}
		memcpy(buf, text + at, n);
		buf[n] = 0;
		at = end + 1;
		if (memchr(buf, 0, n)) {
			snprintf(why, why_len, "line %u: NUL byte", line);
			return OTA_VERIFY_POLICY_MALFORMED;
		}
		hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		s = trim(buf);
		if (*s == 0)
			continue;
		eq = strchr(s, '=');
		if (eq == NULL) {
			snprintf(why, why_len, "line %u: expected 'key = value'", line);
			return OTA_VERIFY_POLICY_MALFORMED;
		}
		*eq = 0;
		if (!apply(&out, trim(s), trim(eq + 1), &seen, why, why_len, line))
			return OTA_VERIFY_POLICY_MALFORMED;
	}
	*p = out;
	return OTA_OK;
}

/*
 * A policy file names its CRLs relative to where it lives, so a policy
 * and its CRLs move together: a relative crl path gets the file's folder.
 */
static ota_status_t crl_paths_beside(const char *policy_path, struct ota_policy *p, char *why,
				     size_t why_len)
{
	const char *slash = strrchr(policy_path, '/');
	size_t dir = slash ? (size_t)(slash - policy_path) + 1u : 0u;
	char joined[OTA_POLICY_CRL_PATH_MAX];

	for (uint32_t i = 0; i < p->crl_count && dir; i++) {
		if (p->crl_files[i][0] == '/')
			continue;
		if (dir + strlen(p->crl_files[i]) >= sizeof(joined)) {
			snprintf(why, why_len, "crl %s: the path beside the policy is longer than %zu bytes",
				 p->crl_files[i], sizeof(joined) - 1u);
			return OTA_VERIFY_POLICY_MALFORMED;
		}
		memcpy(joined, policy_path, dir);
		strcpy(joined + dir, p->crl_files[i]);
		strcpy(p->crl_files[i], joined);
	}
	return OTA_OK;
}

ota_status_t ota_policy_load_file(const char *path, struct ota_policy *p, char *why,
				  size_t why_len)
{
	unsigned char *buf;
	ota_status_t st;
	size_t n;

	st = ota_read_file(path, 64u * 1024u, &buf, &n);
	if (st != OTA_OK) {
		snprintf(why, why_len, "cannot read %s", path);
		return st;
	}
	st = ota_policy_parse((const char *)buf, n, p, why, why_len);
	free(buf);
	if (st == OTA_OK)
		st = crl_paths_beside(path, p, why, why_len);
	return st;
}

ota_status_t ota_trust_add_policy_crls(struct ota_trust *t, const struct ota_policy *p,
				       char *why, size_t why_len)
{
	ota_status_t st;

	for (uint32_t i = 0; i < p->crl_count; i++) {
		st = ota_trust_add_crl_file(t, p->crl_files[i]);
		if (st != OTA_OK) {
			snprintf(why, why_len, "CRL %s: %s", p->crl_files[i],
				 ota_status_message(st));
			return st;
		}
	}
	return OTA_OK;
}

/* ---- evaluation ----------------------------------------------------------- */

static bool key_listed(const uint8_t id[OTA_KEY_ID_BYTES],
		       const uint8_t list[][OTA_KEY_ID_BYTES], uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		if (!memcmp(id, list[i], OTA_KEY_ID_BYTES))
			return true;
	return false;
}

static void check_stage(const struct ota_policy *p, const struct ota_evidence_stage *s,
			struct ota_verdict *v)
{
	const char *name = ota_stage_name(s->stage);
	char kid[2 * OTA_KEY_ID_BYTES + 1];
	uint32_t i;

	if (s->svn < p->min_svn[s->stage])
		ota_verdict_add(v, OTA_VERIFY_SVN_BELOW_POLICY, s->stage,
				"%s SVN %u is below the policy minimum %u", name, s->svn,
				p->min_svn[s->stage]);
	if (p->allowed_root_key_count &&
	    !key_listed(s->key_ids[0], p->allowed_root_keys, p->allowed_root_key_count)) {
		otu_hex_encode(kid, s->key_ids[0], OTA_KEY_ID_BYTES);
		ota_verdict_add(v, OTA_VERIFY_ROOT_KEY_NOT_ALLOWED, s->stage,
				"%s root key %s is not in allowed_root_key", name, kid);
	}
	/* A denied delegate is refused at any place in the chain below the root. */
	for (i = 1; i < s->key_id_count; i++)
		if (key_listed(s->key_ids[i], p->denied_delegate_keys,
			       p->denied_delegate_key_count)) {
			otu_hex_encode(kid, s->key_ids[i], OTA_KEY_ID_BYTES);
			ota_verdict_add(v, OTA_VERIFY_DELEGATE_DENIED, s->stage,
					"%s delegate %u key %s is in denied_delegate_key", name, i,
					kid);
		}
	if (s->depth > p->max_delegation_depth)
		ota_verdict_add(v, OTA_VERIFY_DEPTH_EXCEEDED, s->stage,
				"%s delegation depth %u is above the policy maximum %u", name,
				s->depth, p->max_delegation_depth);
	if (s->path == OTA_PATH_TAG && !p->tag_path_allowed)
		ota_verdict_add(v, OTA_VERIFY_TAG_PATH_FORBIDDEN, s->stage,
				"%s booted on the tag path; the policy requires a signature check",
				name);
	if (p->hybrid_required && s->sig_scheme != OTA_SCHEME_HYBRID)
		ota_verdict_add(v, OTA_VERIFY_HYBRID_MISSING, s->stage,
				"%s was verified with %s; the policy requires %s", name,
				ota_scheme_name(s->sig_scheme), ota_scheme_name(OTA_SCHEME_HYBRID));
	/*
	 * An image signed with the DEBUG capability may keep debug features
	 * on whatever the lifecycle says: a production policy refuses it.
	 */
	if (!p->debug_images_allowed && (s->usage_flags & OTA_CAP_DEBUG))
		ota_verdict_add(v, OTA_VERIFY_DEBUG_IMAGE, s->stage,
				"%s image carries the DEBUG usage flag; debug_images_allowed is false",
				name);
}

/*
 * The update state (certified by ROM_EXT, check 5b): BL0 on trial, a
 * trial reverted since the last cold boot or update reset, revocations
 * the device has not applied. A trial and a revert concern BL0; the
 * revocation sequence the device.
 */
static void check_update(const struct ota_policy *p, const struct ota_update_claims *u,
			 struct ota_verdict *v)
{
	bool reverted_ok = p->allow_reverted_given ? p->allow_reverted : !p->require_committed;

	if (p->require_committed && u->state != OTA_UPDATE_CLAIM_COMMITTED)
		ota_verdict_add(v, OTA_VERIFY_NOT_COMMITTED, OTA_STAGE_BL0,
				"bl0 runs slot %c on trial (boot %u of %u), the primary is %c; "
				"require_committed is true",
				'A' + (int)u->booted_slot, u->trial_boots, OTA_TRIAL_MAX_BOOTS,
				'A' + (int)u->primary_slot);
	if (!reverted_ok && u->revert_reason != OTA_REVERT_NONE)
		ota_verdict_add(v, OTA_VERIFY_TRIAL_REVERTED, OTA_STAGE_BL0,
				"bl0 trial of slot %c was reverted (%s); allow_reverted is false",
				'A' + (int)u->reverted_slot,
				ota_revert_reason_name(u->revert_reason));
	if (u->revocation_seq < p->min_revocation_sequence)
		ota_verdict_add(v, OTA_VERIFY_REVOCATION_BELOW_POLICY, OTA_VERDICT_NO_STAGE,
				"revocation sequence %u is below the policy minimum %u",
				u->revocation_seq, p->min_revocation_sequence);
}

void ota_policy_evaluate(const struct ota_policy *p, const struct ota_evidence_claims *c,
			 struct ota_verdict *v)
{
	uint32_t stage, i, booted;
	const struct ota_evidence_stage *run;

	/*
	 * A production fleet trusts production devices only: a dev or RMA
	 * device has its debug paths open (the lifecycle is certified, 5b).
	 */
	if (p->allowed_lifecycles && !(c->lifecycle < OTA_LC_COUNT &&
				       (p->allowed_lifecycles & (1u << c->lifecycle))))
		ota_verdict_add(v, OTA_VERIFY_LIFECYCLE_NOT_ALLOWED, OTA_VERDICT_NO_STAGE,
				"lifecycle %s is not in allowed_lifecycle",
				ota_lifecycle_name(c->lifecycle));
	if (c->epoch < p->min_epoch)
		ota_verdict_add(v, OTA_VERIFY_EPOCH_BELOW_POLICY, OTA_VERDICT_NO_STAGE,
				"identity epoch %u is below the policy minimum %u", c->epoch,
				p->min_epoch);
	check_update(p, &c->update, v);
	/* Judge the image that runs at each stage; refused attempts are history. */
	for (stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++) {
		booted = 0;
		run = NULL;
		for (i = 0; i < c->stage_count; i++) {
			const struct ota_evidence_stage *s = &c->stage[i];

			if (s->stage == stage && (s->flags & OTA_STAGE_F_BOOTED)) {
				booted++;
				run = s;
			}
		}
		if (booted != 1 || run->status != OTA_OK) {
			ota_verdict_add(v, OTA_VERIFY_STAGE_REFUSED, stage,
					"evidence shows no single accepted %s image",
					ota_stage_name(stage));
			continue;
		}
		check_stage(p, run, v);
		if (p->refvals)
			ota_refvals_check(p->refvals, run, v);
	}
}
