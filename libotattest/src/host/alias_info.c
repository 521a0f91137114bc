// SPDX-License-Identifier: MIT
/*
 * Reading what the alias certificate certifies (verify.h): the device id
 * in its subject CN and the TCG DICE MultiTcbInfo extension (OID
 * 2.23.133.5.4.5) the firmware writes (firmware/runtime/alias_cert.c).
 * OpenSSL parses the certificate and finds the extension; its contents
 * are read here with a small bounded DER reader, strictly: the shape the
 * firmware writes, nothing else.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "otattest/verify.h"

struct der {
	const uint8_t *p;
	size_t n;
};

/* One TLV: tag, then contents in *in (definite, minimal length forms). */
static bool der_next(struct der *d, uint8_t tag, struct der *in)
{
	size_t len, k, i;

	if (d->n < 2 || d->p[0] != tag)
		return false;
	len = d->p[1];
	k = 0;
	if (len & 0x80) {
		k = len & 0x7f;
		if (k == 0 || k > 2 || d->n < 2 + k)
			return false;
		for (len = 0, i = 0; i < k; i++)
			len = len << 8 | d->p[2 + i];
		if (len < 0x80 || (k == 2 && len < 0x100))
			return false;
	}
	if (d->n - 2 - k < len)
		return false;
	in->p = d->p + 2 + k;
	in->n = len;
	d->p += 2 + k + len;
	d->n -= 2 + k + len;
	return true;
}

static bool der_uint(const struct der *v, uint32_t *out)
{
	size_t i;

	if (v->n == 0 || v->n > 5 || (v->p[0] & 0x80) || (v->n == 5 && v->p[0] != 0))
		return false;
	for (*out = 0, i = 0; i < v->n; i++)
		*out = *out << 8 | v->p[i];
	return true;
}

static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

static bool parse_tcb(struct der *d, struct ota_cert_tcb *t)
{
	struct der info, model, svn, layer, fwids, fwid, oid, digest;

	if (!der_next(d, 0x30, &info) || !der_next(&info, 0x81, &model) ||
	    !der_next(&info, 0x83, &svn) || !der_next(&info, 0x84, &layer) ||
	    !der_next(&info, 0xa6, &fwids) || info.n != 0)
		return false;
	if (!der_uint(&svn, &t->svn) || !der_uint(&layer, &t->stage) ||
	    t->stage < OTA_STAGE_ROM_EXT || t->stage > OTA_STAGE_BL0 ||
	    model.n != strlen(ota_stage_name(t->stage)) ||
	    memcmp(model.p, ota_stage_name(t->stage), model.n))
		return false;
	if (!der_next(&fwids, 0x30, &fwid) || fwids.n != 0 || !der_next(&fwid, 0x06, &oid) ||
	    !der_next(&fwid, 0x04, &digest) || fwid.n != 0 || oid.n != sizeof(sha256_oid) ||
	    memcmp(oid.p, sha256_oid, sizeof(sha256_oid)) || digest.n != OTA_SHA256_BYTES)
		return false;
	memcpy(t->measurement, digest.p, OTA_SHA256_BYTES);
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void device_id_from_cn(X509 *x, struct ota_alias_info *out)
{
	char cn[128];
	size_t plen = strlen(OTA_CERT_CN_ALIAS), i;
	int n = X509_NAME_get_text_by_NID(X509_get_subject_name(x), NID_commonName, cn, sizeof(cn));

	if (n != (int)(plen + 2 * OTA_DEVICE_ID_BYTES) || memcmp(cn, OTA_CERT_CN_ALIAS, plen))
		return;
	for (i = 0; i < OTA_DEVICE_ID_BYTES; i++) {
		int hi = hexval(cn[plen + 2 * i]), lo = hexval(cn[plen + 2 * i + 1]);

		if (hi < 0 || lo < 0)
			return;
		out->device_id[i] = (uint8_t)(hi << 4 | lo);
	}
	out->has_device_id = true;
}

ota_status_t ota_alias_cert_info(const uint8_t *der, size_t len, struct ota_alias_info *out)
{
	const unsigned char *p = der;
	ASN1_OBJECT *obj;
	X509 *x;
	int idx;
	ota_status_t st = OTA_X509_MALFORMED;

	memset(out, 0, sizeof(*out));
	if (len > INT32_MAX)
		return st;
	x = d2i_X509(NULL, &p, (long)len);
	if (x == NULL || p != der + len)
		goto out;
	device_id_from_cn(x, out);
	obj = OBJ_txt2obj("2.23.133.5.4.5", 1);
	idx = obj ? X509_get_ext_by_OBJ(x, obj, -1) : -1;
	ASN1_OBJECT_free(obj);
	if (idx < 0) {
		st = OTA_OK; /* no TCB info: tcb_count 0, the verifier decides */
		goto out;
	}
	{
		ASN1_OCTET_STRING *v = X509_EXTENSION_get_data(X509_get_ext(x, idx));
		struct der d = { ASN1_STRING_get0_data(v), (size_t)ASN1_STRING_length(v) }, list;

		if (!der_next(&d, 0x30, &list) || d.n != 0)
			goto out;
		while (list.n) {
			if (out->tcb_count == OTA_STAGE_COUNT ||
			    !parse_tcb(&list, &out->tcb[out->tcb_count]))
				goto out;
			out->tcb_count++;
		}
	}
	st = OTA_OK;
out:
	X509_free(x);
	return st;
}
