// SPDX-License-Identifier: MIT
/*
 * A view of an otattest certificate (cert_view.h): a strict reader of the
 * one profile the fast path vouches for. It decides nothing about trust;
 * it only says "this certificate means to OpenSSL exactly what these
 * fields say", or declines.
 */
#include "cert_view.h"

static const uint8_t alg_ecdsa_sha256[] = { 0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48,
					    0xce, 0x3d, 0x04, 0x03, 0x02 };
/* SubjectPublicKeyInfo up to the point's 0x04: id-ecPublicKey, prime256v1, BIT STRING. */
static const uint8_t spki_p256_prefix[] = { 0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48,
					    0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
					    0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04 };
static const uint8_t version_v3[] = { 0xa0, 0x03, 0x02, 0x01, 0x02 };

/* Attribute types a name may use: id-at 3 (CN), 6, 7, 8, 10, 11. */
static bool known_attribute(const struct der *oid, bool *is_cn)
{
	*is_cn = false;
	if (oid->n != 3 || oid->p[0] != 0x55 || oid->p[1] != 0x04)
		return false;
	switch (oid->p[2]) {
	case 0x03:
		*is_cn = true;
		return true;
	case 0x06: case 0x07: case 0x08: case 0x0a: case 0x0b:
		return true;
	default:
		return false;
	}
}

/*
 * The next RDN of a name: one attribute of a known type whose value is a
 * non-empty UTF8String or PrintableString in printable ASCII. false at
 * the end (name->n == 0) or off the profile.
 */
static bool next_attribute(struct der *name, struct der *oid, struct der *value, bool *is_cn)
{
	struct der rdn, atv;
	size_t i;

	if (!der_next(name, 0x31, &rdn) || !der_next(&rdn, 0x30, &atv) || rdn.n != 0 ||
	    !der_next(&atv, 0x06, oid) || !known_attribute(oid, is_cn) || atv.n == 0 ||
	    (atv.p[0] != 0x0c && atv.p[0] != 0x13) || !der_next(&atv, atv.p[0], value) ||
	    atv.n != 0 || value->n == 0)
		return false;
	for (i = 0; i < value->n; i++)
		if (value->p[i] < 0x20 || value->p[i] > 0x7e)
			return false;
	return true;
}

/* Name: single-valued RDNs (next_attribute), at most one CN. */
static bool parse_name(struct der *tbs, struct der *whole, struct der *cn)
{
	struct der name, oid, value;
	bool is_cn;

	if (!der_next_whole(tbs, 0x30, &name, whole) || name.n == 0)
		return false;
	cn->p = NULL;
	cn->n = 0;
	while (name.n) {
		if (!next_attribute(&name, &oid, &value, &is_cn))
			return false;
		if (is_cn) {
			if (cn->p != NULL)
				return false;
			*cn = value;
		}
	}
	return true;
}

static bool digits(const uint8_t *p, size_t n, int *out)
{
	size_t i;

	for (*out = 0, i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		*out = *out * 10 + (p[i] - '0');
	}
	return true;
}

/* Time: UTCTime before 2050, GeneralizedTime from 2050 (RFC 5280 4.1.2.5), seconds and Z. */
static bool parse_time(struct der *d, time_t *out)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	struct der t;
	struct tm tm = { 0 };
	int year, mon, day, hour, min, sec, yd, leap;
	bool utc = d->n > 0 && d->p[0] == 0x17;

	if (!der_next(d, utc ? 0x17 : 0x18, &t) || t.n != (utc ? 13u : 15u) || t.p[t.n - 1] != 'Z')
		return false;
	yd = utc ? 2 : 4;
	if (!digits(t.p, (size_t)yd, &year) || !digits(t.p + yd, 2, &mon) ||
	    !digits(t.p + yd + 2, 2, &day) || !digits(t.p + yd + 4, 2, &hour) ||
	    !digits(t.p + yd + 6, 2, &min) || !digits(t.p + yd + 8, 2, &sec))
		return false;
	if (utc && year >= 50)
		return false; /* 19xx: no otattest certificate, and no fast path */
	if (utc)
		year += 2000;
	else if (year < 2050)
		return false;
	leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	if (mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1] + (mon == 2 && leap) ||
	    hour > 23 || min > 59 || sec > 59)
		return false;
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	*out = timegm(&tm);
	return true;
}

/* keyUsage: a one-byte named bit list in DER (unused bits exactly the trailing zeros). */
static bool parse_key_usage(struct der value, uint8_t *ku)
{
	struct der bits;
	uint8_t b;
	unsigned int unused = 0;

	if (!der_next(&value, 0x03, &bits) || value.n != 0 || bits.n != 2)
		return false;
	b = bits.p[1];
	if (b == 0)
		return false;
	while (!(b & (1u << unused)))
		unused++;
	if (bits.p[0] != unused)
		return false;
	*ku = b;
	return true;
}

static bool parse_basic_constraints(struct der value, bool *ca, int *pathlen)
{
	struct der bc, flag;
	uint32_t n;

	if (!der_next(&value, 0x30, &bc) || value.n != 0)
		return false;
	*ca = false;
	*pathlen = -1;
	if (bc.n == 0)
		return true;
	if (!der_next(&bc, 0x01, &flag) || flag.n != 1 || flag.p[0] != 0xff)
		return false; /* cA present means TRUE (DEFAULT FALSE is left out in DER) */
	*ca = true;
	if (bc.n == 0)
		return true;
	if (!der_next_uint(&bc, &n) || bc.n != 0 || n > 127)
		return false;
	*pathlen = (int)n;
	return true;
}

static bool parse_key_id(struct der value, struct der *id)
{
	return der_next(&value, 0x04, id) && value.n == 0 && id->n >= 1 && id->n <= 64;
}

/* AuthorityKeyIdentifier with a keyIdentifier and nothing else. */
static bool parse_akid(struct der value, struct der *id)
{
	struct der akid;

	return der_next(&value, 0x30, &akid) && value.n == 0 && der_next(&akid, 0x80, id) &&
	       akid.n == 0 && id->n >= 1 && id->n <= 64;
}

enum ext_kind { EXT_BC, EXT_KU, EXT_SKID, EXT_AKID, EXT_TCB, EXT_KINDS };

static const struct {
	uint8_t oid[6];
	uint8_t len;
	bool critical;
} known_ext[EXT_KINDS] = {
	[EXT_BC] = { { 0x55, 0x1d, 0x13 }, 3, true },
	[EXT_KU] = { { 0x55, 0x1d, 0x0f }, 3, true },
	[EXT_SKID] = { { 0x55, 0x1d, 0x0e }, 3, false },
	[EXT_AKID] = { { 0x55, 0x1d, 0x23 }, 3, false },
	[EXT_TCB] = { { 0x67, 0x81, 0x05, 0x05, 0x04, 0x05 }, 6, false }, /* 2.23.133.5.4.5 */
};

static bool parse_extensions(struct der exts, struct ota_cert_view *v)
{
	struct der ext, oid, flag, value;
	bool seen[EXT_KINDS] = { false }, critical, ok;
	int k;

	if (exts.n == 0)
		return false;
	while (exts.n) {
		if (!der_next(&exts, 0x30, &ext) || !der_next(&ext, 0x06, &oid) ||
		    !der_optional(&ext, 0x01, &flag, &critical) ||
		    (critical && (flag.n != 1 || flag.p[0] != 0xff)) ||
		    !der_next(&ext, 0x04, &value) || ext.n != 0)
			return false;
		for (k = 0; k < EXT_KINDS; k++)
			if (der_eq(&oid, known_ext[k].oid, known_ext[k].len))
				break;
		if (k == EXT_KINDS || seen[k] || critical != known_ext[k].critical)
			return false;
		seen[k] = true;
		switch (k) {
		case EXT_BC:
			ok = parse_basic_constraints(value, &v->ca, &v->pathlen);
			break;
		case EXT_KU:
			ok = parse_key_usage(value, &v->key_usage);
			break;
		case EXT_SKID:
			ok = parse_key_id(value, &v->skid);
			break;
		case EXT_AKID:
			ok = parse_akid(value, &v->akid);
			break;
		default:
			v->tcb_info = value;
			ok = true;
			break;
		}
		if (!ok)
			return false;
	}
	/* basicConstraints and keyUsage always: what each certificate may do is said. */
	return seen[EXT_BC] && seen[EXT_KU];
}

bool ota_cert_view_parse(const uint8_t *der, size_t len, struct ota_cert_view *v)
{
	struct der all = { der, len }, cert, tbs, alg, serial, validity, spki, exts, bits, sig;

	memset(v, 0, sizeof(*v));
	v->pathlen = -1;
	if (!der_next(&all, 0x30, &cert) || all.n != 0 ||
	    !der_next_whole(&cert, 0x30, &tbs, &v->tbs))
		return false;
	/* version v3, serial: positive, shortest, at most 20 bytes (RFC 5280 4.1.2.2) */
	if (tbs.n < sizeof(version_v3) || memcmp(tbs.p, version_v3, sizeof(version_v3)))
		return false;
	tbs.p += sizeof(version_v3);
	tbs.n -= sizeof(version_v3);
	if (!der_next_whole(&tbs, 0x02, &serial, &v->serial) || serial.n == 0 || serial.n > 20 ||
	    (serial.p[0] & 0x80) || (serial.n > 1 && serial.p[0] == 0 && !(serial.p[1] & 0x80)) ||
	    (serial.n == 1 && serial.p[0] == 0))
		return false;
	if (!der_next_whole(&tbs, 0x30, &spki, &alg) ||
	    !der_eq(&alg, alg_ecdsa_sha256, sizeof(alg_ecdsa_sha256)))
		return false;
	if (!parse_name(&tbs, &v->issuer, &v->issuer_cn) || !der_next(&tbs, 0x30, &validity) ||
	    !parse_time(&validity, &v->not_before) || !parse_time(&validity, &v->not_after) ||
	    validity.n != 0 || !parse_name(&tbs, &v->subject, &v->subject_cn))
		return false;
	if (!der_next_whole(&tbs, 0x30, &bits, &spki) ||
	    spki.n != sizeof(spki_p256_prefix) + OTA_P256_PUBKEY_BYTES ||
	    memcmp(spki.p, spki_p256_prefix, sizeof(spki_p256_prefix)))
		return false;
	memcpy(v->pubkey, spki.p + sizeof(spki_p256_prefix), OTA_P256_PUBKEY_BYTES);
	/* no unique ids: the extensions come next, and last */
	if (!der_next(&tbs, 0xa3, &exts) || tbs.n != 0 || !der_next(&exts, 0x30, &tbs) ||
	    exts.n != 0 || !parse_extensions(tbs, v))
		return false;
	/* signatureAlgorithm as in the TBS; the value a BIT STRING holding one ECDSA-Sig-Value */
	if (!der_next_whole(&cert, 0x30, &bits, &alg) ||
	    !der_eq(&alg, alg_ecdsa_sha256, sizeof(alg_ecdsa_sha256)) ||
	    !der_next(&cert, 0x03, &bits) || cert.n != 0 || bits.n < 1 || bits.p[0] != 0)
		return false;
	bits.p++;
	bits.n--;
	return der_next_whole(&bits, 0x30, &sig, &v->sig) && bits.n == 0;
}

/*
 * One attribute value as OpenSSL compares names (X509_NAME_cmp on the
 * canonical encoding): ASCII lower case, leading and trailing white space
 * dropped, inner runs of it one space. Values outside the view's profile
 * are left to the caller (name_entries answers NAMES_UNKNOWN).
 */
static size_t canon_value(const struct der *v, char *out, size_t cap)
{
	size_t i, n = 0;
	bool space = false;

	for (i = 0; i < v->n; i++) {
		char c = (char)v->p[i];

		if (c == ' ' || (c >= '\t' && c <= '\r')) {
			space = n > 0;
			continue;
		}
		if (space && n < cap)
			out[n++] = ' ';
		space = false;
		if (n < cap)
			out[n++] = (char)((c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c);
	}
	return n;
}

/* The next entry (type, canonical value) of a profile name; false at the end or off profile. */
static bool name_entry(struct der *name, struct der *oid, char *val, size_t cap, size_t *n,
		       bool *off)
{
	struct der value;
	bool is_cn;

	*off = false;
	if (name->n == 0)
		return false;
	if (!next_attribute(name, oid, &value, &is_cn) || value.n > cap) {
		*off = true;
		return false;
	}
	*n = canon_value(&value, val, cap);
	return true;
}

enum ota_names_cmp ota_cert_names_cmp(const uint8_t *a, size_t a_len, const uint8_t *b,
				      size_t b_len)
{
	struct der na = { a, a_len }, nb = { b, b_len }, sa, sb, oa, ob;
	char va[256], vb[256];
	size_t la, lb;
	bool more_a, more_b, off_a, off_b;

	if (!der_next(&na, 0x30, &sa) || na.n != 0 || !der_next(&nb, 0x30, &sb) || nb.n != 0)
		return OTA_NAMES_UNKNOWN;
	for (;;) {
		more_a = name_entry(&sa, &oa, va, sizeof(va), &la, &off_a);
		more_b = name_entry(&sb, &ob, vb, sizeof(vb), &lb, &off_b);
		if (off_a || off_b)
			return OTA_NAMES_UNKNOWN;
		if (!more_a || !more_b)
			return more_a == more_b ? OTA_NAMES_EQUAL : OTA_NAMES_DIFFERENT;
		if (!der_eq(&oa, ob.p, ob.n) || la != lb || memcmp(va, vb, la))
			return OTA_NAMES_DIFFERENT;
	}
}
