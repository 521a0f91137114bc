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

#include <otattest/shm.h>
#include <otu/file.h>

#include "devclient.h"
#include "modelproc.h"

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

static int note(const char *what)
{
	FILE *f = fopen(fx.log, "a");

	if (f) {
		fprintf(f, "personalization: %s\n", what);
		fclose(f);
	}
	return -1;
}

/* The device's own state file, as the fixture's image. */
static int copy_out(const char *state_dir, const char *name, const char *to, size_t max)
{
	char path[256];
	uint8_t *file;
	size_t n;
	int r;

	snprintf(path, sizeof(path), "%s/%s", state_dir, name);
	if (otu_read_file(path, max, &file, &n) != 0)
		return note(path);
	r = otu_write_file_atomic(to, file, n, 0600, OTU_WRITE_NO_SYNC) != 0 ? note(to) : 0;
	free(file);
	return r;
}

/* One factory mailbox call that must succeed; the answer to buf. */
static int factory_call(struct devc *d, uint32_t command, const void *req, uint32_t req_len,
			void *buf, uint32_t cap, uint32_t *len)
{
	ota_status_t status = 0;

	if (devc_call(d, command, req, req_len, buf, cap, len, &status, 5000) != OTA_OK ||
	    status != OTA_OK)
		return note(ota_mbox_command_name(command));
	return 0;
}

/*
 * The factory line (docs/otimage.md, "Personalization"; the shell twin is
 * tests/e2e/lib/personalize.sh): the device, provisioned in test_unlocked,
 * runs personalization firmware on a model; its CSR goes to the CA
 * (otimage ca-sign), the certificate back into it, the fuse programmer
 * moves it to dev, and the production images go into all four slots
 * through the flash controller, never booted here. The device's own OTP
 * and flash are the fixture's images: its boot data is its own from its
 * first boot on (anchored in OTP), and the suites' first boot verifies
 * signatures because its tags are for the personalization firmware.
 */
static int personalize(void)
{
	static uint8_t buf[OTA_SHM_RESPONSE_SIZE];
	static struct ota_req_set_identity_cert req;
	/* The fuse programmer, then the production firmware: control requests. */
	static const char *const factory_ctl[][2] = {
		{ "otp lifecycle dev", NULL },
		{ "install rom_ext a", "rom_ext.img" },
		{ "install rom_ext b", "rom_ext.img" },
		{ "install bl0 a", "bl0-a.img" },
		{ "install bl0 b", "bl0-b.img" },
	};
	char flash_arg[256], otp_arg[256], path[256], reply[512];
	const char *args[] = { flash_arg, otp_arg, NULL };
	struct model_proc mp;
	struct devc d;
	uint8_t *file;
	uint32_t len;
	size_t n;
	int r = -1;

	snprintf(flash_arg, sizeof(flash_arg), "--load-flash=%s", fx.flash_factory);
	snprintf(otp_arg, sizeof(otp_arg), "--load-otp=%s", fx.otp_factory);
	if (mp_init(&mp) != 0)
		return note("no model directory");
	if (mp_start(&mp, args) != 0 || devc_open(&d, mp.socket, 5000) != 0) {
		note("the model did not start");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/csr.der", fx.dir);
	r = factory_call(&d, OTA_CMD_GET_IDENTITY_CSR, NULL, 0, buf, sizeof(buf), &len);
	if (r == 0 && otu_write_file_atomic(path, buf, len, 0644, OTU_WRITE_NO_SYNC) != 0)
		r = note("cannot write csr.der");
	if (r == 0)
		r = tool("ca-sign --csr csr.der --ca-key ca.key --ca-cert ca.pem --out identity.der");
	snprintf(path, sizeof(path), "%s/identity.der", fx.dir);
	if (r == 0 && (otu_read_file(path, sizeof(req.der), &file, &n) != 0 || n == 0))
		r = note("cannot read identity.der");
	if (r == 0) {
		memcpy(req.der, file, n);
		req.der_length = (uint32_t)n;
		free(file);
		r = factory_call(&d, OTA_CMD_SET_IDENTITY_CERT, &req, sizeof(req), buf, sizeof(buf),
				 &len);
	}
	devc_close(&d);
	for (unsigned i = 0; r == 0 && i < sizeof(factory_ctl) / sizeof(factory_ctl[0]); i++) {
		if (factory_ctl[i][1])
			snprintf(path, sizeof(path), "%s %s/%s", factory_ctl[i][0], fx.dir,
				 factory_ctl[i][1]);
		else
			snprintf(path, sizeof(path), "%s", factory_ctl[i][0]);
		if (mp_ctl(&mp, path, reply, sizeof(reply)) != 0 || strncmp(reply, "ok", 2) != 0)
			r = note(path);
	}
	if (mp_stop(&mp, 5000) < 0 && r == 0)
		r = note("the model did not stop");
	if (r == 0)
		r = copy_out(mp.state_dir, "otp.bin", fx.otp, 4096);
	if (r == 0)
		r = copy_out(mp.state_dir, "flash.bin", fx.flash, 64u << 20);
out:
	mp_cleanup(&mp);
	return r;
}

static int build(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(fx.dir, sizeof(fx.dir), "%s/otafix.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fx.dir))
		return -1;
	snprintf(fx.flash, sizeof(fx.flash), "%s/flash.img", fx.dir);
	snprintf(fx.otp, sizeof(fx.otp), "%s/otp.img", fx.dir);
	snprintf(fx.flash_factory, sizeof(fx.flash_factory), "%s/flash-factory.img", fx.dir);
	snprintf(fx.otp_factory, sizeof(fx.otp_factory), "%s/otp-factory.img", fx.dir);
	snprintf(fx.ca_key, sizeof(fx.ca_key), "%s/ca.key", fx.dir);
	snprintf(fx.bl0_v1[0], sizeof(fx.bl0_v1[0]), "%s/bl0-a.img", fx.dir);
	snprintf(fx.bl0_v1[1], sizeof(fx.bl0_v1[1]), "%s/bl0-b.img", fx.dir);
	snprintf(fx.bl0_v2, sizeof(fx.bl0_v2), "%s/bl0-v2.img", fx.dir);
	snprintf(fx.bl0_bad, sizeof(fx.bl0_bad), "%s/bl0-untrusted.img", fx.dir);
	snprintf(fx.ca, sizeof(fx.ca), "%s/ca.pem", fx.dir);
	snprintf(fx.log, sizeof(fx.log), "%s/provision.log", fx.dir);

	if (write_payload("rom_ext.code", "ROM_EXT code") ||
	    write_payload("bl0-a.code", "BL0 code, slot A") ||
	    write_payload("bl0-b.code", "BL0 code, slot B") ||
	    write_payload("bl0-v2.code", "BL0 code, version 2") ||
	    write_payload("perso.code", "personalization firmware"))
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
	    tool("provision --out otp-factory.img --creator-key creator.pub "
		 "--owner-config owner.cfg --lifecycle test_unlocked") ||
	    tool("sign --key creator.key --stage rom_ext --svn 1 --payload perso.code "
		 "--out rom_ext-perso.img") ||
	    tool("sign --key signer.key --cert signer.cert --stage bl0 --svn 1 "
		 "--payload perso.code --out bl0-perso.img") ||
	    tool("pack --out flash-factory.img --rom-ext-a rom_ext-perso.img "
		 "--bl0-a bl0-perso.img --owner-config owner.cfg") ||
	    personalize())
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
