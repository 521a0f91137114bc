// SPDX-License-Identifier: MIT
/* otattestctl: inspect and drive otattest devices through otattestd. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"

static void help(void)
{
	printf("Usage: otattestctl [OPTIONS] COMMAND [ARGS]\n"
	       "\n"
	       "Inspect and drive otattest boot-attestation devices through otattestd\n"
	       "(D-Bus service " OTA_BUS_NAME ").\n"
	       "\n"
	       "Commands:\n"
	       "  status [DEVICE...]        state and boot summary of every (or each named)\n"
	       "                            device; exits non-zero unless all are ready, 3\n"
	       "                            when one needs attention (tag mismatch, failed\n"
	       "                            boot, fallback, reverted trial)\n"
	       "  record [--json|--raw]     the boot record, validated and decoded; --raw\n"
	       "                            writes its bytes (stdout must not be a terminal)\n"
	       "  attest [--nonce HEX] [--output FILE] [--verify --ca FILE [--policy FILE]]\n"
	       "                            fresh evidence (COSE_Sign1) for the nonce, or for\n"
	       "                            32 random bytes; the nonce is printed on stderr\n"
	       "  verify FILE --ca FILE --nonce HEX [--policy FILE]\n"
	       "                            check evidence with the libotattest verifier\n"
	       "  rotate                    rotate the boot tags, showing progress (privileged)\n"
	       "  update-reset [--slot a|b|other]\n"
	       "                            reset into the given BL0 slot, re-verifying it\n"
	       "                            (privileged; default: the slot not running)\n"
	       "  warm-reset                warm-reset the device: ROM verifies ROM_EXT again,\n"
	       "                            which activates an installed ROM_EXT (privileged)\n"
	       "  install [--stage rom_ext|bl0] [--slot a|b|other] FILE\n"
	       "                            write a signed image to a slot not running (default:\n"
	       "                            BL0, the other slot), verified on the device first;\n"
	       "                            progress on a terminal (privileged)\n"
	       "  check [--stage rom_ext|bl0] [--slot a|b|other] FILE\n"
	       "                            would the device accept this image? writes nothing\n"
	       "                            (privileged)\n"
	       "  commit [--slot a|b]       make the running BL0 slot the primary, so cold boots\n"
	       "                            keep it (privileged)\n"
	       "  ratchet [--stage rom_ext|bl0] [--force] FLOOR\n"
	       "                            raise the stage's anti-rollback floor, at most to the\n"
	       "                            running SVN (privileged)\n"
	       "  revoke FILE               apply a signed revocation command (privileged)\n"
	       "  watch [--json] [--count N] events as they come, one line each\n"
	       "  metrics [--output FILE]   Prometheus text for node_exporter's textfile\n"
	       "                            collector; FILE is replaced atomically\n"
	       "  history [--json] [--all] [--since TIME] [-n N]\n"
	       "                            the boots otattestd has seen, oldest first: each\n"
	       "                            stage's path, why not the tag path, status, keys;\n"
	       "                            the last N (default 20, 0: all) since TIME\n"
	       "                            (@SECONDS, -N[smhd], YYYY-MM-DD[ HH:MM[:SS]] UTC);\n"
	       "                            every device's unless -d names one; --all adds\n"
	       "                            records changed within a boot (installs)\n"
	       "\n"
	       "Options:\n"
	       "  -d, --device NAME         the device (otattestN); default: the first one\n"
	       "  -j, --json                JSON output (one object per line for watch)\n"
	       "  -q, --quiet               no progress or informational messages\n"
	       "      --no-color            no colours even on a terminal (also NO_COLOR=1)\n"
	       "      --bus-address ADDRESS talk to otattestd on this bus, not the system bus\n"
	       "      --key-names FILE      key names (docs/keynames.md) for status, record,\n"
	       "                            history and metrics; default " OTU_KEYNAMES_PATH "\n"
	       "                            if it exists\n"
	       "  -h, --help                this help\n"
	       "      --version             version\n"
	       "\n"
	       "Privileged commands need root, membership in group " OTA_UPDATE_GROUP ",\n"
	       "or polkit authorization (actions " OTA_POLKIT_ACTION_ROTATE ",\n"
	       OTA_POLKIT_ACTION_UPDATE ", " OTA_POLKIT_ACTION_INSTALL ",\n"
	       OTA_POLKIT_ACTION_CHECK ",\n"
	       OTA_POLKIT_ACTION_COMMIT ", " OTA_POLKIT_ACTION_RATCHET ",\n"
	       OTA_POLKIT_ACTION_REVOKE ", " OTA_POLKIT_ACTION_WARM_RESET ").\n"
	       "\n"
	       "Exit status:\n"
	       "  0    success\n"
	       "  %d    the verifier checked the evidence and a check or the policy failed\n"
	       "  %d    usage error\n"
	       "  %d    status: a device is ready but needs attention\n",
	       OTA_EXIT_VERDICT_FAILED, OTA_EXIT_USAGE, CTL_EXIT_ATTENTION);
#define OTA_X_HELP(name, num, err, dbus, exitc) \
	if (exitc)                              \
		printf("  %-4d %s\n", exitc, dbus);
	OTA_CLASS_LIST(OTA_X_HELP)
#undef OTA_X_HELP
	printf("  Each failure class has its own code; the names are the D-Bus errors\n"
	       "  " OTA_BUS_ERROR_PREFIX "<Name>. See otattestctl(8).\n");
}

static const struct {
	const char *name;
	int (*fn)(struct ctl *c, int argc, char **argv);
	bool needs_bus;
} commands[] = {
	{ "status", cmd_status, true },
	{ "record", cmd_record, true },
	{ "attest", cmd_attest, true },
	{ "verify", cmd_verify, false },
	{ "rotate", cmd_rotate, true },
	{ "update-reset", cmd_update_reset, true },
	{ "warm-reset", cmd_warm_reset, true },
	{ "install", cmd_install, true },
	{ "check", cmd_check, true },
	{ "commit", cmd_commit, true },
	{ "ratchet", cmd_ratchet, true },
	{ "revoke", cmd_revoke, true },
	{ "watch", cmd_watch, true },
	{ "metrics", cmd_metrics, true },
	{ "history", cmd_history, true },
};

int main(int argc, char **argv)
{
	enum { O_NOCOLOR = 0x100, O_BUS, O_VERSION, O_KEYNAMES };
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-color", no_argument, NULL, O_NOCOLOR },
		{ "bus-address", required_argument, NULL, O_BUS },
		{ "key-names", required_argument, NULL, O_KEYNAMES },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ 0 },
	};
	struct ctl c = { 0 };
	const char *term = getenv("TERM");
	bool no_color = getenv("NO_COLOR") != NULL;
	size_t i;
	int o, r;

	/* "+": options after the command belong to the command. */
	while ((o = getopt_long(argc, argv, "+d:jqh", opts, NULL)) >= 0) {
		switch (o) {
		case 'd': c.device = optarg; break;
		case 'j': c.json = true; break;
		case 'q': c.quiet = true; break;
		case O_NOCOLOR: no_color = true; break;
		case O_BUS: c.bus_address = optarg; break;
		case O_KEYNAMES: c.key_names_path = optarg; break;
		case 'h': help(); return 0;
		case O_VERSION: printf("otattestctl %s\n", OTATTEST_VERSION); return 0;
		default: return OTA_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "otattestctl: no command given; see otattestctl --help\n");
		return OTA_EXIT_USAGE;
	}
	c.color = ctl_want_color(no_color, c.json, isatty(STDOUT_FILENO), term);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[optind], commands[i].name) != 0)
			continue;
		if (commands[i].needs_bus) {
			r = ctl_connect(&c);
			if (r)
				return r;
		}
		r = commands[i].fn(&c, argc - optind, argv + optind);
		if (c.bus)
			sd_bus_flush_close_unref(c.bus);
		otu_keynames_free(&c.names);
		return r;
	}
	fprintf(stderr, "otattestctl: unknown command '%s'; see otattestctl --help\n", argv[optind]);
	return OTA_EXIT_USAGE;
}
