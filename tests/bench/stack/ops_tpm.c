// SPDX-License-Identifier: MIT
/*
 * The TPM side of the comparison: what a user who picked a TPM with
 * tpm2-abrmd would run. TSS2 ESAPI over the tabrmd TCTI (each client its
 * own connection to the broker, which serialises them onto /dev/tpm0),
 * an ECC P-256 attestation key made once and kept persistent, as
 * attestation agents do, so a quote costs one TPM2_Quote and nothing else.
 *
 * LG_TPM_TCTI overrides the TCTI (default "tabrmd:bus_type=system"), e.g.
 * "swtpm:port=2321" to try this against a swtpm on the host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

#include "loadgen.h"

/* A persistent handle in the owner range (TPM 2.0 Part 2, 7.2). */
#define LG_TPM_AK_HANDLE 0x81010042u

struct lg_tpm {
	TSS2_TCTI_CONTEXT *tcti;
	ESYS_CONTEXT *esys;
	ESYS_TR ak;
};

static const char *tcti_conf(void)
{
	const char *s = getenv("LG_TPM_TCTI");

	return s && *s ? s : "tabrmd:bus_type=system";
}

/* PCRs 0-7 of the SHA-256 bank: the platform's boot measurements. */
static const TPML_PCR_SELECTION boot_pcrs = {
	.count = 1,
	.pcrSelections = { { .hash = TPM2_ALG_SHA256, .sizeofSelect = 3, .pcrSelect = { 0xff, 0, 0 } } },
};

static int tss_fail(struct lg_client *c, const char *what, TSS2_RC rc)
{
	if (c) {
		snprintf(c->err_name, sizeof(c->err_name), "tss2:0x%x", rc);
		snprintf(c->err_msg, sizeof(c->err_msg), "%s: %s", what, Tss2_RC_Decode(rc));
	} else {
		fprintf(stderr, "otattest-loadgen: %s: %s\n", what, Tss2_RC_Decode(rc));
	}
	return -1;
}

static int tpm_connect(struct lg_tpm *t)
{
	TSS2_RC rc;

	rc = Tss2_TctiLdr_Initialize(tcti_conf(), &t->tcti);
	if (rc != TSS2_RC_SUCCESS)
		return tss_fail(NULL, "Tss2_TctiLdr_Initialize", rc);
	rc = Esys_Initialize(&t->esys, t->tcti, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		Tss2_TctiLdr_Finalize(&t->tcti);
		return tss_fail(NULL, "Esys_Initialize", rc);
	}
	return 0;
}

static void tpm_disconnect(struct lg_tpm *t)
{
	if (t->esys)
		Esys_Finalize(&t->esys);
	if (t->tcti)
		Tss2_TctiLdr_Finalize(&t->tcti);
}

int lg_tpm_open(struct lg_client *c)
{
	struct lg_tpm *t = calloc(1, sizeof(*t));
	TSS2_RC rc;

	if (!t)
		return -1;
	if (tpm_connect(t) < 0) {
		free(t);
		return -1;
	}
	rc = Esys_TR_FromTPMPublic(t->esys, LG_TPM_AK_HANDLE, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, &t->ak);
	if (rc != TSS2_RC_SUCCESS) {
		tss_fail(NULL, "the attestation key 0x81010042 (run 'otattest-loadgen tpm-setup')", rc);
		tpm_disconnect(t);
		free(t);
		return -1;
	}
	c->tpm = t;
	return 0;
}

void lg_tpm_close(struct lg_client *c)
{
	struct lg_tpm *t = c->tpm;

	if (!t)
		return;
	tpm_disconnect(t);
	free(t);
	c->tpm = NULL;
}

/* Whether the AK handle is among the TPM's persistent handles (asking
 * the TPM to read a handle that is not there would log an error). */
static bool ak_is_persistent(ESYS_CONTEXT *esys)
{
	TPMS_CAPABILITY_DATA *cap = NULL;
	TPMI_YES_NO more;
	bool found = false;
	UINT32 i;

	if (Esys_GetCapability(esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_HANDLES,
			       LG_TPM_AK_HANDLE, 1, &more, &cap) != TSS2_RC_SUCCESS)
		return false;
	for (i = 0; i < cap->data.handles.count; i++)
		found |= cap->data.handles.handle[i] == LG_TPM_AK_HANDLE;
	Esys_Free(cap);
	return found;
}

int lg_tpm_setup(void)
{
	struct lg_tpm t = { 0 };
	TPM2B_SENSITIVE_CREATE sensitive = { 0 };
	TPM2B_PUBLIC template = {
		.publicArea = {
			.type = TPM2_ALG_ECC,
			.nameAlg = TPM2_ALG_SHA256,
			/* A restricted signing key: it signs only what the TPM
			 * itself produced (quotes), like an AK. */
			.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
					    TPMA_OBJECT_SENSITIVEDATAORIGIN |
					    TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_RESTRICTED |
					    TPMA_OBJECT_SIGN_ENCRYPT,
			.parameters.eccDetail = {
				.symmetric.algorithm = TPM2_ALG_NULL,
				.scheme = { .scheme = TPM2_ALG_ECDSA,
					    .details.ecdsa.hashAlg = TPM2_ALG_SHA256 },
				.curveID = TPM2_ECC_NIST_P256,
				.kdf.scheme = TPM2_ALG_NULL,
			},
		},
	};
	TPM2B_DATA outside = { 0 };
	TPML_PCR_SELECTION creation_pcrs = { 0 };
	TPM2B_PUBLIC *pub = NULL;
	TPM2B_CREATION_DATA *cdata = NULL;
	TPM2B_DIGEST *chash = NULL;
	TPMT_TK_CREATION *ticket = NULL;
	ESYS_TR key = ESYS_TR_NONE, persistent = ESYS_TR_NONE;
	TSS2_RC rc;
	int ret = -1;

	if (tpm_connect(&t) < 0)
		return -1;
	/* Already there from an earlier run: keep it. */
	if (ak_is_persistent(t.esys)) {
		ret = 0;
		goto out;
	}
	rc = Esys_CreatePrimary(t.esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE,
				ESYS_TR_NONE, &sensitive, &template, &outside, &creation_pcrs, &key,
				&pub, &cdata, &chash, &ticket);
	if (rc != TSS2_RC_SUCCESS) {
		tss_fail(NULL, "Esys_CreatePrimary (ECC P-256 attestation key)", rc);
		goto out;
	}
	rc = Esys_EvictControl(t.esys, ESYS_TR_RH_OWNER, key, ESYS_TR_PASSWORD, ESYS_TR_NONE,
			       ESYS_TR_NONE, LG_TPM_AK_HANDLE, &persistent);
	if (rc != TSS2_RC_SUCCESS) {
		tss_fail(NULL, "Esys_EvictControl", rc);
		goto out;
	}
	ret = 0;
out:
	if (key != ESYS_TR_NONE)
		Esys_FlushContext(t.esys, key);
	Esys_Free(pub);
	Esys_Free(cdata);
	Esys_Free(chash);
	Esys_Free(ticket);
	tpm_disconnect(&t);
	return ret;
}

int lg_op_tpm_quote(struct lg_client *c)
{
	struct lg_tpm *t = c->tpm;
	TPM2B_DATA qualifying = { .size = sizeof(c->nonce) };
	TPMT_SIG_SCHEME scheme = { .scheme = TPM2_ALG_NULL }; /* the key's own: ECDSA-SHA256 */
	TPM2B_ATTEST *quoted = NULL;
	TPMT_SIGNATURE *sig = NULL;
	TSS2_RC rc;
	int r = 0;

	if (getrandom(c->nonce, sizeof(c->nonce), 0) != (ssize_t)sizeof(c->nonce)) {
		snprintf(c->err_name, sizeof(c->err_name), "local:%s", strerror(errno));
		snprintf(c->err_msg, sizeof(c->err_msg), "getrandom for the nonce failed");
		return -1;
	}
	memcpy(qualifying.buffer, c->nonce, sizeof(c->nonce));
	rc = Esys_Quote(t->esys, t->ak, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &qualifying,
			&scheme, &boot_pcrs, &quoted, &sig);
	if (rc != TSS2_RC_SUCCESS)
		r = tss_fail(c, "Esys_Quote", rc);
	else if (!quoted->size || sig->sigAlg != TPM2_ALG_ECDSA)
		r = tss_fail(c, "Esys_Quote answered without an ECDSA signature", TSS2_ESYS_RC_MALFORMED_RESPONSE);
	Esys_Free(quoted);
	Esys_Free(sig);
	return r;
}

int lg_op_tpm_pcrread(struct lg_client *c)
{
	struct lg_tpm *t = c->tpm;
	UINT32 counter;
	TPML_PCR_SELECTION *out_sel = NULL;
	TPML_DIGEST *values = NULL;
	TSS2_RC rc;
	int r = 0;

	rc = Esys_PCR_Read(t->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &boot_pcrs, &counter,
			   &out_sel, &values);
	if (rc != TSS2_RC_SUCCESS)
		r = tss_fail(c, "Esys_PCR_Read", rc);
	else if (values->count != 8)
		r = tss_fail(c, "Esys_PCR_Read returned fewer than 8 PCRs", TSS2_ESYS_RC_MALFORMED_RESPONSE);
	Esys_Free(out_sel);
	Esys_Free(values);
	return r;
}
