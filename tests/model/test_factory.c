// SPDX-License-Identifier: MIT
/*
 * Personalization through the model, as the factory station does it: the
 * host side of shared memory asks the device in test_unlocked for its
 * identity CSR, the CA (otimage ca-sign) certifies it, the certificate goes
 * back over the mailbox, the fuse programmer (control socket `otp
 * lifecycle`) moves the device to prod, and after a power cycle GET_CERTS
 * serves that certificate. Refusals leave flash.bin, byte for byte, as it
 * was; the lifecycle moves once; the model logs the factory commands by
 * name. The fixture (fixture.c) runs the same line for every other suite.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/otp.h>
#include <otattest/shm.h>
#include <otu/file.h>

#include "fixture.h"
#include "harness.h"

static struct rig rig;
static uint8_t buf[OTA_SHM_RESPONSE_SIZE];

static void setup(void)
{
	const struct fixture *fx = fixture_get();
	char flash[256], otp[256];
	const char *args[] = { flash, otp, NULL };

	ck_assert_ptr_nonnull(fx);
	snprintf(flash, sizeof(flash), "--load-flash=%s", fx->flash_factory);
	snprintf(otp, sizeof(otp), "--load-otp=%s", fx->otp_factory);
	rig_up(&rig, false, args);
}

static void teardown(void)
{
	rig_down(&rig);
}

static uint32_t otp_word(size_t offset)
{
	uint8_t *otp;
	uint32_t w;
	char path[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/otp.bin", rig.mp.state_dir);
	ck_assert_int_eq(otu_read_file(path, sizeof(struct ota_otp), &otp, &n), 0);
	ck_assert_uint_eq(n, sizeof(struct ota_otp));
	memcpy(&w, otp + offset, sizeof(w));
	free(otp);
	return w;
}

static long state_file(const char *name, uint8_t **out)
{
	char path[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", rig.mp.state_dir, name);
	ck_assert_int_eq(otu_read_file(path, 64u << 20, out, &n), 0);
	return (long)n;
}

/* The device's CSR, signed by the fixture's CA: the certificate request for SET_IDENTITY_CERT. */
static struct ota_req_set_identity_cert certify(void)
{
	const struct fixture *fx = fixture_get();
	struct ota_req_set_identity_cert req;
	char csr[256], der[256];
	uint8_t *file;
	uint32_t len;
	size_t n;

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_IDENTITY_CSR, NULL, 0, buf, sizeof(buf), &len),
			  OTA_OK);
	snprintf(csr, sizeof(csr), "%s/csr.der", rig.mp.dir);
	snprintf(der, sizeof(der), "%s/identity.der", rig.mp.dir);
	ck_assert_int_eq(otu_write_file_atomic(csr, buf, len, 0644, OTU_WRITE_NO_SYNC), 0);
	ck_assert_int_eq(shell_run("'%s' ca-sign --csr '%s' --ca-key '%s' --ca-cert '%s' --out '%s' "
				   ">/dev/null",
				   OTA_OTIMAGE_PATH, csr, fx->ca_key, fx->ca, der),
			 0);
	ck_assert_int_eq(otu_read_file(der, sizeof(req.der), &file, &n), 0);
	memset(&req, 0, sizeof(req));
	memcpy(req.der, file, n);
	req.der_length = (uint32_t)n;
	free(file);
	return req;
}

/* A refused SET_IDENTITY_CERT: its status, and flash.bin exactly as before. */
static void set_refused(const struct ota_req_set_identity_cert *req, ota_status_t want)
{
	uint8_t *before, *after;
	long n = state_file("flash.bin", &before);
	uint32_t len;

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_SET_IDENTITY_CERT, req, sizeof(*req), buf,
				   sizeof(buf), &len),
			  want);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(state_file("flash.bin", &after), n);
	ck_assert_mem_eq(before, after, (size_t)n);
	free(before);
	free(after);
}

START_TEST(the_factory_line_through_shared_memory)
{
	struct ota_req_set_identity_cert req = certify(), bad;
	struct ota_record rec;
	uint32_t len, n;
	char reply[512];

	/* Another key's certificate (flip a byte of the key's X coordinate) and garbage. */
	bad = req;
	for (uint32_t i = 0; i + 27 < bad.der_length; i++)
		if (memcmp(bad.der + i, "\x30\x59\x30\x13", 4) == 0) {
			bad.der[i + 27] ^= 1;
			break;
		}
	set_refused(&bad, OTA_RUNTIME_IDCERT_NOT_OURS);
	memset(&bad, 0, sizeof(bad));
	bad.der_length = 8;
	memcpy(bad.der, "garbage!", 8);
	set_refused(&bad, OTA_IDCERT_BAD_DER);

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_SET_IDENTITY_CERT, &req, sizeof(req), buf,
				   sizeof(buf), &len),
			  OTA_OK);
	/* Logged by their names in the command table. */
	ck_assert_int_ge(mp_log_count(&rig.mp, "command=get-identity-csr"), 1);
	ck_assert_int_eq(mp_log_count(&rig.mp, "command=set-identity-cert length=1032 status=OK "), 1);

	/* The fuse programmer: out of manufacturing, once, and only to where manufacturing ends. */
	rig_ctl_expect(&rig, "otp lifecycle rma", "error OTP_LIFECYCLE_TRANSITION ");
	rig_ctl_expect(&rig, "otp lifecycle test_unlocked", "ok "); /* where it is: nothing to do */
	rig_ctl_expect(&rig, "otp lifecycle beta", "error usage ");
	rig_ctl_ok(&rig, "otp lifecycle prod", reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok takes-effect=next-boot");
	rig_ctl_ok(&rig, "otp lifecycle prod", reply, sizeof(reply)); /* where it is: nothing to do */
	rig_ctl_expect(&rig, "otp lifecycle dev", "error OTP_LIFECYCLE_TRANSITION ");
	rig_ctl_expect(&rig, "otp lifecycle test_unlocked", "error OTP_LIFECYCLE_TRANSITION ");
	ck_assert_uint_eq(otp_word(offsetof(struct ota_otp, lifecycle_transition)), OTA_OTP_LC_PROD);
	ck_assert_uint_eq(otp_word(offsetof(struct ota_otp, lifecycle)), OTA_OTP_LC_TEST_UNLOCKED);
	/* Like a lifecycle controller: the running boot is still the manufacturing one. */
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_IDENTITY_CSR, NULL, 0, buf, sizeof(buf), &len),
			  OTA_OK);

	/* The next boot is in prod, serves the certificate and refuses both factory commands. */
	rig_ctl_ok(&rig, "power-cycle", reply, sizeof(reply));
	ck_assert_msg(strstr(reply, "boot-status=OK") != NULL, "%s", reply);
	ck_assert_uint_eq(rig_record(&rig, &rec), rec.hdr.length);
	ck_assert_uint_eq(rec.hdr.lifecycle, OTA_LC_PROD);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_CERTS, NULL, 0, buf, sizeof(buf), &len), OTA_OK);
	/* The second entry, after the alias certificate: its length, then the DER. */
	memcpy(&n, buf + len - ((req.der_length + 3u) & ~3u) - 4u, 4);
	ck_assert_uint_eq(n, req.der_length);
	ck_assert_mem_eq(buf + len - ((req.der_length + 3u) & ~3u), req.der, n);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_IDENTITY_CSR, NULL, 0, buf, sizeof(buf), &len),
			  OTA_RUNTIME_NOT_MANUFACTURING);
	set_refused(&req, OTA_RUNTIME_NOT_MANUFACTURING);
}
END_TEST

static Suite *factory_suite(void)
{
	Suite *s = suite_create("model-factory");
	TCase *tc = tcase_create("factory");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, the_factory_line_through_shared_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return harness_run(factory_suite(), true);
}
