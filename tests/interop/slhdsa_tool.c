// SPDX-License-Identifier: MIT
/*
 * slhdsa_tool: otattest's SLH-DSA-SHA2-128s on files, so the interop
 * suite can hand keys, messages and signatures to and from another
 * implementation. See usage() for the contract.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>

#include "otattest/slhdsa.h"
#include "otattest/status.h"

#define SEED_BYTES 48u   /* SK.seed || SK.prf || PK.seed */
#define ADDRND_BYTES 16u /* opt_rand for hedged signing */
#define MSG_LIMIT (64u << 20)

static const char *prog = "slhdsa_tool";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s keygen SEED PK SK\n"
		"       %s sign SK MESSAGE SIG [--addrnd FILE]\n"
		"       %s verify PK MESSAGE SIG\n"
		"\n"
		"SLH-DSA-SHA2-128s (FIPS 205), pure mode with an empty context string:\n"
		"the message signed is 0x00 || 0x00 || MESSAGE. All files are raw bytes.\n"
		"\n"
		"  keygen  SEED is 48 bytes, SK.seed || SK.prf || PK.seed (the order of\n"
		"          FIPS 205 Algorithm 18 and of noble's keygen(seed)). Writes the\n"
		"          32-byte public key PK.seed || PK.root and the 64-byte secret key\n"
		"          SK.seed || SK.prf || PK.seed || PK.root.\n"
		"  sign    Writes the 7856-byte signature of MESSAGE. Deterministic\n"
		"          (opt_rand = PK.seed) unless --addrnd names a 16-byte file.\n"
		"  verify  Checks SIG over MESSAGE under PK. Prints nothing.\n"
		"\n"
		"Outputs are written to a temporary file and renamed: on failure nothing\n"
		"is written.\n"
		"\n"
		"Exit status (the otattest status classes):\n"
		"  0   success; for verify, the signature is valid\n"
		"  %d  the signature is invalid (SLHDSA_INVALID)\n"
		"  %d  a file has the wrong length (SLHDSA_BAD_LENGTH)\n"
		"  %d  a file cannot be read or written\n"
		"  %d   bad command line\n",
		prog, prog, prog, ota_class_exit_code(OTA_CLASS_VERIFICATION),
		ota_class_exit_code(OTA_CLASS_INVALID_ARGUMENT), ota_class_exit_code(OTA_CLASS_IO),
		OTA_EXIT_USAGE);
}

static int fail_io(const char *path, const char *what)
{
	fprintf(stderr, "%s: %s: %s: %s\n", prog, path, what, strerror(errno));
	return ota_class_exit_code(OTA_CLASS_IO);
}

/*
 * Read a whole file of at most `limit` bytes into a fresh buffer. When
 * `exact` is non-zero the file must be exactly that long.
 */
static int read_file(const char *path, size_t exact, size_t limit, uint8_t **out, size_t *len)
{
	int r = otu_read_file(path, limit, out, len);

	if (r == -EFBIG || (r == 0 && exact && *len != exact)) {
		/* On -EFBIG, *len is the size of a regular file, 0 for a stream. */
		if (exact && *len)
			fprintf(stderr, "%s: %s: expected %zu bytes, got %zu\n", prog, path, exact, *len);
		else
			fprintf(stderr, "%s: %s: longer than %zu bytes\n", prog, path, limit);
		free(*out);
		*out = NULL;
		return ota_class_exit_code(ota_status_class(OTA_SLHDSA_BAD_LENGTH));
	}
	if (r < 0) {
		errno = -r;
		return fail_io(path, "cannot read");
	}
	return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t len)
{
	int r = otu_write_file_atomic(path, data, len, 0644, 0);

	if (r < 0) {
		errno = -r;
		return fail_io(path, "cannot write");
	}
	return 0;
}

static int cmd_keygen(char **argv)
{
	uint8_t pk[OTA_SLHDSA_PK_BYTES], sk[OTA_SLHDSA_SK_BYTES];
	uint8_t *seed = NULL;
	size_t n;
	int rc;

	rc = read_file(argv[0], SEED_BYTES, SEED_BYTES, &seed, &n);
	if (rc)
		return rc;
	ota_slhdsa_keygen(seed, seed + 16, seed + 32, pk, sk);
	free(seed);
	rc = write_file(argv[1], pk, sizeof(pk));
	if (!rc)
		rc = write_file(argv[2], sk, sizeof(sk));
	memset(sk, 0, sizeof(sk));
	return rc;
}

static int cmd_sign(char **argv, const char *addrnd_path)
{
	uint8_t *sk = NULL, *msg = NULL, *addrnd = NULL;
	static uint8_t sig[OTA_SLHDSA_SIG_BYTES];
	size_t n, msg_len;
	int rc;

	rc = read_file(argv[0], OTA_SLHDSA_SK_BYTES, OTA_SLHDSA_SK_BYTES, &sk, &n);
	if (!rc)
		rc = read_file(argv[1], 0, MSG_LIMIT, &msg, &msg_len);
	if (!rc && addrnd_path)
		rc = read_file(addrnd_path, ADDRND_BYTES, ADDRND_BYTES, &addrnd, &n);
	if (!rc) {
		ota_slhdsa_sign(sk, msg, msg_len, addrnd, sig);
		rc = write_file(argv[2], sig, sizeof(sig));
	}
	if (sk)
		memset(sk, 0, OTA_SLHDSA_SK_BYTES);
	free(sk);
	free(msg);
	free(addrnd);
	return rc;
}

static int cmd_verify(char **argv)
{
	uint8_t *pk = NULL, *msg = NULL, *sig = NULL;
	size_t n, msg_len;
	int rc;

	rc = read_file(argv[0], OTA_SLHDSA_PK_BYTES, OTA_SLHDSA_PK_BYTES, &pk, &n);
	if (!rc)
		rc = read_file(argv[1], 0, MSG_LIMIT, &msg, &msg_len);
	if (!rc)
		rc = read_file(argv[2], OTA_SLHDSA_SIG_BYTES, OTA_SLHDSA_SIG_BYTES, &sig, &n);
	if (!rc) {
		ota_status_t st = ota_slhdsa_verify(pk, msg, msg_len, sig);

		if (st != OTA_OK) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[2], ota_status_message(st));
			rc = ota_class_exit_code(ota_status_class(st));
		}
	}
	free(pk);
	free(msg);
	free(sig);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "addrnd", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *addrnd = NULL, *cmd;
	int c;

	/* GNU getopt permutes: options may come before or after the operands. */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			addrnd = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return OTA_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return OTA_EXIT_USAGE;
	}
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;
	if (addrnd && strcmp(cmd, "sign") != 0) {
		fprintf(stderr, "%s: --addrnd applies to sign only\n", prog);
		return OTA_EXIT_USAGE;
	}
	if (strcmp(cmd, "keygen") == 0 && argc == 3)
		return cmd_keygen(argv);
	if (strcmp(cmd, "sign") == 0 && argc == 3)
		return cmd_sign(argv, addrnd);
	if (strcmp(cmd, "verify") == 0 && argc == 3)
		return cmd_verify(argv);
	fprintf(stderr, "%s: unknown command or wrong number of arguments: %s\n", prog, cmd);
	usage(stderr);
	return OTA_EXIT_USAGE;
}
