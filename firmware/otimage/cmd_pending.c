// SPDX-License-Identifier: MIT
/* Subcommands not written yet: they say so and fail (removed as each lands). */
#include <stdio.h>

#include "otimage_internal.h"

static int pending(const char *name)
{
	fprintf(stderr, "otimage %s: not implemented yet\n", name);
	return oti_exit_code(OTA_HOST_INTERNAL);
}

int oti_cmd_delegate(int argc, char **argv) { (void)argc; (void)argv; return pending("delegate"); }
int oti_cmd_pack(int argc, char **argv) { (void)argc; (void)argv; return pending("pack"); }
int oti_cmd_provision(int argc, char **argv) { (void)argc; (void)argv; return pending("provision"); }
int oti_cmd_fuse(int argc, char **argv) { (void)argc; (void)argv; return pending("fuse"); }
int oti_cmd_owner_config(int argc, char **argv) { (void)argc; (void)argv; return pending("owner-config"); }
int oti_cmd_inspect(int argc, char **argv) { (void)argc; (void)argv; return pending("inspect"); }
