// SPDX-License-Identifier: MIT
/* A provisioned device made with otimage; see fixture.h. */
#include "fixture.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef OTA_OTIMAGE_PATH
#define OTA_OTIMAGE_PATH "build/otimage"
#endif

static struct fixture fx;
static bool built, failed;

static const char *otimage(void)
{
	const char *env = getenv("OTATTEST_OTIMAGE");

	return env && *env ? env : OTA_OTIMAGE_PATH;
}

/* One otimage command in the fixture directory; its output goes to the log. */
static int __attribute__((format(printf, 1, 2))) tool(const char *fmt, ...)
{
	char args[1024], cmd[4096];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "cd '%s' && echo '+ otimage %s' >>'%s' && '%s' %s >>'%s' 2>&1",
		 fx.dir, args, fx.log, otimage(), args, fx.log);
	status = system(cmd);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int write_payload(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fx.dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	/* Opaque code bytes: the model never runs them, it measures them. */
	for (int i = 0; i < 64; i++)
		fprintf(f, "%s %d\n", text, i);
	return fclose(f);
}

static int build(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(fx.dir, sizeof(fx.dir), "%s/otafix.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fx.dir))
		return -1;
	snprintf(fx.flash, sizeof(fx.flash), "%s/flash.img", fx.dir);
	snprintf(fx.otp, sizeof(fx.otp), "%s/otp.img", fx.dir);
	snprintf(fx.bl0_v1[0], sizeof(fx.bl0_v1[0]), "%s/bl0-a.img", fx.dir);
	snprintf(fx.bl0_v1[1], sizeof(fx.bl0_v1[1]), "%s/bl0-b.img", fx.dir);
	snprintf(fx.bl0_v2, sizeof(fx.bl0_v2), "%s/bl0-v2.img", fx.dir);
	snprintf(fx.bl0_bad, sizeof(fx.bl0_bad), "%s/bl0-untrusted.img", fx.dir);
	snprintf(fx.ca, sizeof(fx.ca), "%s/ca.pem", fx.dir);
	snprintf(fx.log, sizeof(fx.log), "%s/provision.log", fx.dir);

	if (write_payload("rom_ext.code", "ROM_EXT code") ||
	    write_payload("bl0-a.code", "BL0 code, slot A") ||
	    write_payload("bl0-b.code", "BL0 code, slot B") ||
	    write_payload("bl0-v2.code", "BL0 code, version 2"))
		return -1;
	if (tool("keygen --out creator.key --pub creator.pub") ||
	    tool("keygen --out owner.key --pub owner.pub") ||
	    tool("keygen --out signer.key --pub signer.pub") ||
	    tool("keygen --out stranger.key --pub stranger.pub") ||
	    tool("delegate --parent-key owner.key --delegate-pub signer.pub --type leaf "
		 "--svn-min 1 --svn-max 20 --out signer.cert") ||
	    tool("sign --key creator.key --stage rom_ext --svn 1 --payload rom_ext.code "
		 "--out rom_ext.img") ||
	    tool("sign --key signer.key --cert signer.cert --stage bl0 --svn 1 "
		 "--payload bl0-a.code --out bl0-a.img") ||
	    tool("sign --key signer.key --cert signer.cert --stage bl0 --svn 1 "
		 "--payload bl0-b.code --out bl0-b.img") ||
	    tool("sign --key signer.key --cert signer.cert --stage bl0 --svn 2 "
		 "--payload bl0-v2.code --out bl0-v2.img") ||
	    tool("sign --key stranger.key --stage bl0 --svn 3 --payload bl0-v2.code "
		 "--out bl0-untrusted.img") ||
	    tool("owner-config --key owner.pub --out owner.cfg") ||
	    tool("ca --key ca.key --cert ca.pem") ||
	    tool("provision --out otp.img --creator-key creator.pub --owner-config owner.cfg "
		 "--lifecycle dev --ca-key ca.key --ca-cert ca.pem --identity-cert identity.der") ||
	    tool("pack --out flash.img --rom-ext-a rom_ext.img --rom-ext-b rom_ext.img "
		 "--bl0-a bl0-a.img --bl0-b bl0-b.img --owner-config owner.cfg "
		 "--identity-cert identity.der"))
		return -1;
	return 0;
}

const struct fixture *fixture_get(void)
{
	if (!built && !failed) {
		failed = build() != 0;
		built = !failed;
	}
	return built ? &fx : NULL;
}

int fixture_sign_bl0(unsigned build, uint32_t svn, char *out, size_t cap)
{
	char code[64], text[64];

	if (!fixture_get())
		return -1;
	snprintf(code, sizeof(code), "bl0-build%u.code", build);
	snprintf(text, sizeof(text), "BL0 code, build %u", build);
	if (write_payload(code, text) != 0 ||
	    tool("sign --force --key signer.key --cert signer.cert --stage bl0 --svn %u "
		 "--payload %s --out bl0-build%u.img",
		 svn, code, build) != 0)
		return -1;
	snprintf(out, cap, "%s/bl0-build%u.img", fx.dir, build);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fixture_remove(void)
{
	if (fx.dir[0] && !getenv("OTATTEST_KEEP"))
		nftw(fx.dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	fx.dir[0] = '\0';
	built = false;
}
