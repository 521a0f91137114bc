// SPDX-License-Identifier: MIT
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <otattest/flash.h>

#include "swhal.h"
#include "bus.h"
#include "testutil.h"

void tu_sha256(const void *data, size_t len, uint8_t out[32])
{
	unsigned int n = 0;

	ck_assert_int_eq(EVP_Digest(data, len, out, &n, EVP_sha256(), NULL), 1);
	ck_assert_uint_eq(n, 32);
}

void tu_kmac256(const uint8_t key[32], const char *custom, const void *msg, size_t len,
		uint8_t *out, size_t out_len)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "KMAC-256", NULL);
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
	OSSL_PARAM p[3];
	size_t got = 0;

	p[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM, (void *)custom,
						 strlen(custom));
	p[1] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &out_len);
	p[2] = OSSL_PARAM_construct_end();
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(EVP_MAC_init(ctx, key, 32, p), 1);
	ck_assert_int_eq(EVP_MAC_update(ctx, msg, len), 1);
	ck_assert_int_eq(EVP_MAC_final(ctx, out, &got, out_len), 1);
	ck_assert_uint_eq(got, out_len);
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
}

void tu_kdf(const uint8_t parent[32], const char *label, const void *ctx, size_t ctx_len,
	    uint32_t key_version, uint32_t purpose, uint8_t out[32])
{
	uint8_t x[300];
	uint32_t i;

	ck_assert_uint_le(ctx_len + 8, sizeof(x));
	if (ctx_len)
		memcpy(x, ctx, ctx_len);
	for (i = 0; i < 4; i++) {
		x[ctx_len + i] = (uint8_t)(key_version >> (8 * i));
		x[ctx_len + 4 + i] = (uint8_t)(purpose >> (8 * i));
	}
	tu_kmac256(parent, label, x, ctx_len + 8, out, 32);
}

const struct hal_keymgr_binding tu_binding = {
	.attest = "tu-binding-attest",
	.seal = "tu-binding-seal",
};

void tu_otp_secret_only(struct ota_otp *otp, const uint8_t secret[32])
{
	memset(otp, 0, sizeof(*otp));
	memcpy(otp->device_secret, secret, sizeof(otp->device_secret));
	tu_sha256(otp->device_secret, sizeof(otp->device_secret), otp->secret_digest);
}

void tu_hal_open_memory(uint32_t flash_size)
{
	struct swhal_options o = { .flash_size = flash_size };

	ck_assert_int_eq(swhal_open(NULL, &o), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
}

void tu_hal_close(void)
{
	swhal_close();
}

uint32_t tu_flash_count_byte(uint32_t addr, uint32_t len, uint8_t v)
{
	uint8_t buf[OTA_FLASH_PAGE_SIZE];
	uint32_t i, n = 0;

	ck_assert_uint_le(len, sizeof(buf));
	ck_assert_int_eq(swhal_peek_flash(addr, buf, len), 0);
	for (i = 0; i < len; i++)
		n += buf[i] == v;
	return n;
}

char *tu_mkdtemp(void)
{
	char *d = strdup("/tmp/otattest-test.XXXXXX");

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

void tu_rmdir_state(char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (d) {
		while ((e = readdir(d)) != NULL) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
	free(dir);
}

uint32_t tu_bus_rd(uint32_t addr)
{
	uint32_t v = 0xdeadbeef;

	ck_assert_uint_eq(chip_bus_read32(addr, &v), OTA_OK);
	return v;
}
