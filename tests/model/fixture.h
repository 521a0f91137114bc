/* SPDX-License-Identifier: MIT */
/*
 * A provisioned device for the tests that need one, made with otimage the
 * way an operator would (a manufacturer CA, creator and owner keys, a leaf
 * delegate for BL0, signed images, owner config, flash and OTP images) and
 * personalized the way a factory does (fixture.c: its CSR signed by the
 * CA, the certificate stored, the lifecycle moved to dev, the production
 * images installed), once per test binary, before check forks the tests.
 */
#ifndef TESTS_MODEL_FIXTURE_H
#define TESTS_MODEL_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

struct fixture {
	char dir[128];
	char flash[192];    /* ROM_EXT A and B, BL0 A and B (both SVN 1), owner config,
			     * identity certificate: the device's own flash, never booted on them */
	char otp[192];      /* the device's OTP: provisioned test_unlocked, moved to dev */
	char flash_factory[192]; /* before personalization: personalization firmware, no certificate */
	char otp_factory[192];   /* before personalization: test_unlocked */
	char bl0_v1[2][192]; /* the SVN 1 BL0 images packed into slots A and B */
	char bl0_v2[192];   /* BL0, SVN 2, for installs */
	char bl0_bad[192];  /* a BL0 signed by a key the device does not trust */
	char ca[192];       /* the manufacturer CA certificate (PEM) */
	char ca_key[192];   /* and its key */
	char log[192];      /* what otimage said */
};

/* Build it (once; later calls return the same). NULL on failure, see log. */
const struct fixture *fixture_get(void);
/*
 * Sign one more BL0 image (SVN svn, a payload no other build has) with the
 * fixture's delegate key: what a build server makes for each release.
 * Its path goes to out. 0, or -1 with the reason in the log.
 */
int fixture_sign_bl0(unsigned build, uint32_t svn, char *out, size_t cap);

/* Remove the directory (the test binary's parent calls this at exit). */
void fixture_remove(void);

#endif /* TESTS_MODEL_FIXTURE_H */
