// SPDX-License-Identifier: MIT
/* otimage keygen: make a signing key, or export the public half of one. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "otimage_internal.h"

static const char keygen_help[] =
	"NAME\n"
	"    otimage keygen - generate a signing key or export its public part\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage keygen --out KEY [--alg ecdsa-p256|hybrid] [--pub PUB] [--force] [--json]\n"
	"                   [--name NAME --names-file FILE]\n"
	"    otimage keygen --key KEY [--pub PUB] [--force] [--json] [--name NAME --names-file FILE]\n"
	"\n"
	"DESCRIPTION\n"
	"    The first form generates a key from OpenSSL's DRBG and writes it to KEY as a\n"
	"    PKCS#8 PEM P-256 private key (mode 0600). With --alg hybrid it also writes\n"
	"    KEY.spx, an SLH-DSA-SHA2-128s secret key file (docs/formats.md); every\n"
	"    command that loads KEY picks KEY.spx up and signs with both algorithms.\n"
	"\n"
	"    --pub PUB writes the public part: PUB as a SubjectPublicKeyInfo PEM and, for\n"
	"    a hybrid key, PUB.spx as an SLH-DSA public key file. The second form exports\n"
	"    the public part of an existing KEY.\n"
	"\n"
	"    --name NAME --names-file FILE adds \"<key id> NAME\" to the key names file\n"
	"    FILE (docs/keynames.md; installed as /etc/otattest/key-names), which\n"
	"    otattestctl, otattest-verify and the metrics read to show the key by name.\n"
	"    FILE is created if missing; a file that does not parse, a key named\n"
	"    otherwise already or a name another key has are refused, before any key\n"
	"    file is written. Naming a key again with its own name changes nothing.\n"
	"\n"
	"    Outputs are written to temporary files and renamed into place once all of\n"
	"    them are complete; existing files are never replaced without --force.\n"
	"\n"
	"OPTIONS\n"
	"    --alg ALG     ecdsa-p256 (default) or hybrid (ECDSA P-256 + SLH-DSA).\n"
	"    --out KEY     where to write the new private key.\n"
	"    --key KEY     an existing private or public key to export from.\n"
	"    --pub PUB     where to write the public key.\n"
	"    --force       replace existing output files.\n"
	"    --name NAME   the key's name: 1 to 64 of A-Z a-z 0-9 . _ : @ + / -.\n"
	"    --names-file FILE  the key names file to add it to.\n"
	"    --json        print the key id and public keys as one JSON object.\n"
	"    -h, --help    show this help.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 on success, 2 for a usage error, otherwise the class code of the failure\n"
	"    (see otimage --help).\n"
	"\n"
	"EXAMPLES\n"
	"    otimage keygen --alg hybrid --out owner.pem --pub owner.pub.pem\n"
	"    otimage keygen --key owner.pem --pub owner.pub.pem\n"
	"    otimage keygen --out owner.pem --name owner-2026 --names-file key-names\n";

static void print_key(const struct oti_key *k, const char *key_path, const char *pub_path,
		      const char *name, bool json)
{
	struct oti_out o;

	oti_out_init(&o, stdout, json);
	oti_out_str(&o, "algorithm", k->algorithm == OTA_KEY_ALG_HYBRID ? "hybrid" : "ecdsa-p256");
	oti_out_hex(&o, "key_id", k->key_id, sizeof(k->key_id));
	oti_out_hex(&o, "ecdsa_public_key", k->pub, sizeof(k->pub));
	if (k->algorithm == OTA_KEY_ALG_HYBRID)
		oti_out_hex(&o, "slhdsa_public_key", k->spx_pk, sizeof(k->spx_pk));
	if (key_path)
		oti_out_str(&o, "private_key_file", key_path);
	if (pub_path)
		oti_out_str(&o, "public_key_file", pub_path);
	if (name)
		oti_out_str(&o, "name", name);
	oti_out_finish(&o);
}

int oti_cmd_keygen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "alg", required_argument, NULL, 'a' }, { "out", required_argument, NULL, 'o' },
		{ "key", required_argument, NULL, 'k' }, { "pub", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },     { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },      { "name", required_argument, NULL, 'n' },
		{ "names-file", required_argument, NULL, 'N' }, { NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *key = NULL, *pub = NULL, *name = NULL, *names_file = NULL;
	struct oti_keynames_update names = { 0 };
	uint32_t alg = OTA_KEY_ALG_ECDSA_P256;
	bool force = false, json = false;
	struct oti_diag d;
	struct oti_key k;
	ota_status_t st;
	int c;

	oti_diag_clear(&d);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (strcmp(optarg, "ecdsa-p256") == 0)
				alg = OTA_KEY_ALG_ECDSA_P256;
			else if (strcmp(optarg, "hybrid") == 0)
				alg = OTA_KEY_ALG_HYBRID;
			else
				return oti_usage_error("keygen", "--alg: '%s' is neither ecdsa-p256 nor hybrid", optarg);
			break;
		case 'o': out = optarg; break;
		case 'k': key = optarg; break;
		case 'p': pub = optarg; break;
		case 'f': force = true; break;
		case 'j': json = true; break;
		case 'n': name = optarg; break;
		case 'N': names_file = optarg; break;
		case 'h': return oti_print_help(keygen_help);
		default: return oti_usage_error("keygen", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("keygen", "unexpected argument '%s'", argv[optind]);
	if (!!out == !!key)
		return oti_usage_error("keygen", "give exactly one of --out (new key) or --key (export)");
	if (key && !pub && !names_file)
		return oti_usage_error("keygen", "--key needs --pub or --names-file");
	if (!!name != !!names_file)
		return oti_usage_error("keygen", "--name and --names-file go together");

	if (out) {
		st = oti_key_generate(alg, &k, &d);
		if (st != OTA_OK)
			return oti_fail(&d, st);
	} else {
		st = oti_key_load(key, false, &k, &d);
		if (st != OTA_OK)
			return oti_fail(&d, st);
	}
	/* The names file is checked before a key file is written, and written after. */
	if (names_file)
		st = oti_keynames_prepare(names_file, k.key_id, name, &names, &d);
	if (st == OTA_OK && (out || pub))
		st = oti_key_save(&k, out, pub, force, &d);
	if (st == OTA_OK)
		st = oti_keynames_commit(&names, &d);
	oti_keynames_discard(&names);
	if (st == OTA_OK)
		print_key(&k, out, pub, name, json);
	oti_key_free(&k);
	return st == OTA_OK ? 0 : oti_fail(&d, st);
}
