// SPDX-License-Identifier: MIT
/* otimage ca: create the manufacturer CA that device identities chain to. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "idcert.h"
#include "otimage_internal.h"

static const char ca_help[] =
	"NAME\n"
	"    otimage ca - create a manufacturer CA for device identity certificates\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage ca --key CA_KEY --cert CA_CERT [--cn NAME] [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Generates a P-256 key (written to CA_KEY as PKCS#8 PEM, mode 0600) and a\n"
	"    self-signed X.509 v3 certificate for it (CA_CERT, PEM): basicConstraints\n"
	"    CA:TRUE with pathlen 1 (critical), keyUsage keyCertSign and cRLSign\n"
	"    (critical), subject and authority key identifiers (the first 20 bytes of\n"
	"    SHA-256 of the public key), notAfter 99991231235959Z.\n"
	"\n"
	"    `otimage provision` signs each device's identity certificate with this CA;\n"
	"    a verifier needs only CA_CERT to check evidence (otattest-verify --ca).\n"
	"    See docs/evidence.md for the certificate chain.\n"
	"\n"
	"OPTIONS\n"
	"    --key CA_KEY    where to write the CA private key.\n"
	"    --cert CA_CERT  where to write the CA certificate.\n"
	"    --cn NAME       subject common name (default \"otattest manufacturer CA\").\n"
	"    --force         replace existing output files.\n"
	"    --json          print the certificate as `otimage inspect --json` would.\n"
	"    -h, --help      show this help.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 on success, 2 for a usage error, otherwise the class code of the failure\n"
	"    (see otimage --help). Nothing is written on failure, and existing files\n"
	"    are not replaced without --force.\n"
	"\n"
	"EXAMPLES\n"
	"    otimage ca --key ca.key --cert ca.pem\n"
	"    otimage inspect ca.pem\n"
	"    openssl x509 -in ca.pem -noout -text\n";

/* PEM of a key or certificate in memory (caller frees *out). */
static bool to_pem(EVP_PKEY *key, X509 *cert, char **out, size_t *len)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *p;
	long n;
	bool ok;

	ok = bio && (key ? PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL)
			 : PEM_write_bio_X509(bio, cert)) == 1;
	if (ok) {
		n = BIO_get_mem_data(bio, &p);
		*out = malloc((size_t)n);
		ok = *out != NULL;
		if (ok) {
			memcpy(*out, p, (size_t)n);
			*len = (size_t)n;
		}
	}
	BIO_free(bio);
	return ok;
}

int oti_cmd_ca(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' }, { "cert", required_argument, NULL, 'c' },
		{ "cn", required_argument, NULL, 'n' },  { "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *key_path = NULL, *cert_path = NULL, *cn = "otattest manufacturer CA";
	bool force = false, json = false;
	struct oti_output outs[2];
	char *key_pem = NULL, *cert_pem = NULL;
	size_t key_len = 0, cert_len = 0;
	struct oti_diag d;
	EVP_PKEY *key;
	X509 *cert;
	ota_status_t st;
	int c;

	oti_diag_clear(&d);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': key_path = optarg; break;
		case 'c': cert_path = optarg; break;
		case 'n': cn = optarg; break;
		case 'f': force = true; break;
		case 'j': json = true; break;
		case 'h': return oti_print_help(ca_help);
		default: return oti_usage_error("ca", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("ca", "unexpected argument '%s'", argv[optind]);
	if (!key_path || !cert_path)
		return oti_usage_error("ca", "--key and --cert are required");
	if (strlen(cn) == 0 || strlen(cn) > 64)
		return oti_usage_error("ca", "--cn must be 1 to 64 characters");

	st = otimage_ca_create(cn, &key, &cert);
	if (st != OTA_OK)
		return oti_fail(&d, oti_diag_set(&d, st, NULL, "ca", "creating the CA failed"));
	if (!to_pem(key, NULL, &key_pem, &key_len) || !to_pem(NULL, cert, &cert_pem, &cert_len)) {
		st = oti_diag_set(&d, OTA_HOST_INTERNAL, NULL, "ca", "PEM encoding failed");
	} else {
		outs[0] = (struct oti_output){ key_path, key_pem, key_len, 0600 };
		outs[1] = (struct oti_output){ cert_path, cert_pem, cert_len, 0644 };
		st = oti_files_write(outs, 2, force, &d);
	}
	/* Like every command that writes a file: print it as inspect would. */
	if (st == OTA_OK)
		st = oti_inspect(cert_path, (const uint8_t *)cert_pem, cert_len, json, stdout, &d);
	free(key_pem);
	free(cert_pem);
	EVP_PKEY_free(key);
	X509_free(cert);
	return st == OTA_OK ? 0 : oti_fail(&d, st);
}
