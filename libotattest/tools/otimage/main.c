// SPDX-License-Identifier: MIT
/*
 * otimage: the offline signing tool of otattest. This file only
 * dispatches; every subcommand lives in libotimage (see otimage.h).
 */
#include <stdio.h>
#include <string.h>

#include "idcert.h"
#include "otimage_internal.h"

static const char main_help[] =
	"NAME\n"
	"    otimage - keys, signed boot images, delegation certificates, flash and OTP\n"
	"    images for otattest devices\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage COMMAND [OPTIONS]\n"
	"    otimage COMMAND --help\n"
	"    otimage --version\n"
	"\n"
	"COMMANDS\n"
	"    keygen        generate an ECDSA P-256 or hybrid (P-256 + SLH-DSA) key\n"
	"    sign          build and sign a ROM_EXT or BL0 image\n"
	"    delegate      issue an intermediate or leaf delegation certificate\n"
	"    owner-config  build the owner config (owner root keys and policy)\n"
	"    pack          build a flash image: layout, slots, boot data, tag tables,\n"
	"                  owner config, identity certificate\n"
	"    provision     build an OTP image\n"
	"    fuse          raise a floor, bump the epoch or revoke a key in an OTP image\n"
	"    inspect       describe any otattest file, as text or JSON\n"
	"    ca            create a manufacturer CA for device identity certificates\n"
	"    ca-sign       issue a device identity certificate for a device's CSR\n"
	"    corim         sign a release's reference values (its images) as a CoRIM\n"
	"    revocation    sign a field revocation command (a floor, a key, the epoch)\n"
	"\n"
	"DESCRIPTION\n"
	"    File formats are documented byte by byte in docs/formats.md, the tool in\n"
	"    docs/otimage.md. Every command checks its inputs with the same parsers the\n"
	"    device firmware runs, and writes its outputs to temporary files that are\n"
	"    renamed into place only when all of them are complete.\n"
	"\n"
	"    Errors are one line on stderr naming the file and field:\n"
	"        otimage: image.bin: manifest.signed_end: signed region is out of range\n"
	"\n"
	"EXIT STATUS\n"
	"    0   success\n"
	"    2   usage error (unknown option, missing argument)\n"
	"    10  invalid argument (a value out of range, a key that does not fit)\n"
	"    11  malformed input (a file that does not parse)\n"
	"    12  verification failed (a signature does not verify)\n"
	"    13  policy violation (e.g. a certificate wider than its parent)\n"
	"    14  rollback (below an anti-rollback floor)\n"
	"    15  key revoked\n"
	"    21  limit exceeded (too large, too many)\n"
	"    22  I/O error\n"
	"    24  internal error\n"
	"    These are the status classes of otattest/status.h, shared with the device,\n"
	"    the kernel driver and the daemon; docs/otimage.md lists every status\n"
	"    otimage returns under its code.\n";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "keygen", oti_cmd_keygen },
	{ "sign", oti_cmd_sign },
	{ "delegate", oti_cmd_delegate },
	{ "owner-config", oti_cmd_owner_config },
	{ "pack", oti_cmd_pack },
	{ "provision", oti_cmd_provision },
	{ "fuse", oti_cmd_fuse },
	{ "inspect", oti_cmd_inspect },
	{ "ca", oti_cmd_ca },
	{ "ca-sign", oti_cmd_ca_sign },
	{ "corim", oti_cmd_corim },
	{ "revocation", oti_cmd_revocation },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return oti_usage_error(NULL, "missing command");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0)
		return oti_print_help(main_help);
	if (strcmp(argv[1], "--version") == 0) {
		printf("otimage %s\n", OTATTEST_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	return oti_usage_error(NULL, "unknown command '%s'", argv[1]);
}
