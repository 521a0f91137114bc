// SPDX-License-Identifier: MIT
/*
 * otimage ca-sign: the manufacturer CA's half of personalization. The
 * device (in TEST_UNLOCKED) hands out a CSR for its identity key; this
 * checks it (csr.c) and issues the identity certificate with the one
 * profile otimage has for it (idcert.c), as DER for SET_IDENTITY_CERT or
 * otimage pack --identity-cert.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/x509.h>

#include "idcert.h"
#include "otimage_internal.h"

static const char ca_sign_help[] =
	"NAME\n"
	"    otimage ca-sign - issue a device identity certificate for a device's CSR\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage ca-sign --csr CSR --ca-key CA_KEY --ca-cert CA_CERT --out DER\n"
	"                    [--device-id HEX] [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Personalization, the CA's step. A device in the test_unlocked lifecycle\n"
	"    state signs a PKCS#10 request for its identity key with that key (mailbox\n"
	"    GET_IDENTITY_CSR, docs/mailbox.md). ca-sign believes it only as far as it\n"
	"    proves itself: one DER (or PEM) CertificationRequest, version 1, an ECDSA\n"
	"    P-256 key, an ecdsa-with-SHA256 signature that verifies under that key\n"
	"    (OpenSSL's X509_REQ_verify), and the subject exactly\n"
	"    O=otattest, CN=otattest identity <device id, 32 lower-case hex digits>.\n"
	"    Requested attributes and extensions are ignored: the profile is the CA's.\n"
	"\n"
	"    The certificate is the one every otattest device identity gets: X.509 v3,\n"
	"    subject as above, issuer the CA's subject, a random positive 16-byte\n"
	"    serial, notAfter 99991231235959Z, basicConstraints CA:TRUE with pathlen 0\n"
	"    (critical; the identity key certifies the device's alias key and nothing\n"
	"    below it), keyUsage keyCertSign (critical), subject and authority key\n"
	"    identifiers. It is written as DER (at most 1024 bytes, what the device's\n"
	"    flash holds), for the mailbox command SET_IDENTITY_CERT or otimage pack\n"
	"    --identity-cert, and printed as otimage inspect would.\n"
	"\n"
	"OPTIONS\n"
	"    --csr CSR          the device's certificate request (DER or PEM).\n"
	"    --ca-key CA_KEY    the CA's private key (from otimage ca).\n"
	"    --ca-cert CA_CERT  the CA's certificate (PEM, from otimage ca).\n"
	"    --out DER          where to write the identity certificate.\n"
	"    --device-id HEX    refuse a request for any other device (32 hex digits):\n"
	"                       the station knows which device it is talking to.\n"
	"    --force            replace DER if it exists.\n"
	"    --json             print the certificate as otimage inspect --json would.\n"
	"    -h, --help         show this help.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 on success, 2 for a usage error, otherwise the class code of the failure\n"
	"    (see otimage --help): 11 a request that does not parse or a key that is not\n"
	"    P-256, 12 a signature that does not verify under the request's key, 13 a\n"
	"    subject that is not a device identity (or not --device-id's), 10 a CA key\n"
	"    that is not CA_CERT's, 22 a file that cannot be read or written. Nothing is\n"
	"    written on failure.\n"
	"\n"
	"EXAMPLES\n"
	"    model-peer --state-dir=dev call get-identity-csr --out csr.der\n"
	"    otimage ca-sign --csr csr.der --ca-key ca.key --ca-cert ca.pem --out identity.der\n"
	"    model-peer --state-dir=dev call set-identity-cert identity.der\n";

struct ca_sign_job {
	const char *csr, *ca_key, *ca_cert, *out, *device_id;
	bool force, json;
};

static int ca_sign_parse(struct ca_sign_job *job, int argc, char **argv, bool *done)
{
	static const struct option opts[] = {
		{ "csr", required_argument, NULL, 'r' },
		{ "ca-key", required_argument, NULL, 'k' },
		{ "ca-cert", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "device-id", required_argument, NULL, 'i' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*done = false;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': job->csr = optarg; break;
		case 'k': job->ca_key = optarg; break;
		case 'c': job->ca_cert = optarg; break;
		case 'o': job->out = optarg; break;
		case 'i': job->device_id = optarg; break;
		case 'f': job->force = true; break;
		case 'j': job->json = true; break;
		case 'h': *done = true; return oti_print_help(ca_sign_help);
		default: return oti_usage_error("ca-sign", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("ca-sign", "unexpected argument '%s'", argv[optind]);
	if (!job->csr || !job->ca_key || !job->ca_cert || !job->out)
		return oti_usage_error("ca-sign", "--csr, --ca-key, --ca-cert and --out are required");
	return 0;
}

/* The CA's key and certificate, and that they belong together. */
static ota_status_t load_ca(const struct ca_sign_job *job, EVP_PKEY **key, X509 **cert,
			    struct oti_diag *d)
{
	ota_status_t st = otimage_read_pem_key(job->ca_key, key);

	if (st != OTA_OK)
		return oti_diag_set(d, st, job->ca_key, "--ca-key", "cannot read a PEM private key");
	st = otimage_read_pem_cert(job->ca_cert, cert);
	if (st != OTA_OK)
		return oti_diag_set(d, st, job->ca_cert, "--ca-cert", "cannot read a PEM certificate");
	if (X509_check_private_key(*cert, *key) != 1)
		return oti_diag_set(d, OTA_TOOL_KEY_MISMATCH, job->ca_key, "--ca-key",
				    "not the key of %s", job->ca_cert);
	return OTA_OK;
}

/* The checked request: which device, which key. */
static ota_status_t read_csr(const struct ca_sign_job *job, uint8_t id[OTA_DEVICE_ID_BYTES],
			     uint8_t pub[OTA_P256_PUBKEY_BYTES], struct oti_diag *d)
{
	uint8_t want[OTA_DEVICE_ID_BYTES], *buf;
	ota_status_t st;
	size_t len;

	if (job->device_id && oti_parse_hex(job->device_id, want, sizeof(want)) != OTA_OK)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--device-id",
				    "'%s', expected 32 hex digits", job->device_id);
	OTA_TRY(oti_file_read(job->csr, OTI_MAX_SMALL_FILE, &buf, &len, d));
	st = otimage_csr_check(buf, len, id, pub, d);
	free(buf);
	if (st != OTA_OK)
		return oti_diag_set(d, st, job->csr, NULL, NULL);
	if (job->device_id && memcmp(id, want, sizeof(want)) != 0)
		return oti_diag_set(d, OTA_TOOL_CSR_SUBJECT, job->csr, "csr.subject",
				    "a request of another device than --device-id %s",
				    job->device_id);
	return OTA_OK;
}

int oti_cmd_ca_sign(int argc, char **argv)
{
	struct ca_sign_job job = { 0 };
	uint8_t id[OTA_DEVICE_ID_BYTES], pub[OTA_P256_PUBKEY_BYTES];
	unsigned char *der = NULL;
	EVP_PKEY *ca_key = NULL;
	X509 *ca = NULL, *cert = NULL;
	struct oti_diag d;
	ota_status_t st;
	bool done;
	int rc, n = 0;

	oti_diag_clear(&d);
	rc = ca_sign_parse(&job, argc, argv, &done);
	if (rc != 0 || done)
		return rc;
	st = read_csr(&job, id, pub, &d);
	if (st == OTA_OK)
		st = load_ca(&job, &ca_key, &ca, &d);
	if (st == OTA_OK) {
		st = otimage_identity_cert_issue(ca_key, ca, id, pub, &cert);
		if (st != OTA_OK)
			oti_diag_set(&d, st, job.ca_cert, "identity", "issuing the certificate failed");
	}
	if (st == OTA_OK) {
		n = i2d_X509(cert, &der);
		if (n <= 0 || (size_t)n > OTA_IDCERT_MAX_DER)
			st = oti_diag_set(&d, n <= 0 ? OTA_TOOL_CRYPTO : OTA_TOOL_TOO_LARGE, job.out,
					  "identity", "DER encoding failed or is over %u bytes",
					  OTA_IDCERT_MAX_DER);
	}
	if (st == OTA_OK) {
		struct oti_output o = { job.out, der, (size_t)n, 0644 };

		st = oti_files_write(&o, 1, job.force, &d);
	}
	/* Like every command that writes a file: print it as inspect would. */
	if (st == OTA_OK)
		st = oti_inspect(job.out, der, (size_t)n, job.json, stdout, &d);
	OPENSSL_free(der);
	X509_free(cert);
	X509_free(ca);
	EVP_PKEY_free(ca_key);
	return st == OTA_OK ? 0 : oti_fail(&d, st);
}
