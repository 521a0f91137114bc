/* SPDX-License-Identifier: MIT */
/*
 * A provisioned device for the tests that need one, made with otimage the
 * way an operator would (creator and owner keys, a leaf delegate for BL0,
 * signed images, owner config, flash and OTP images), once per test
 * binary, before check forks the tests.
 */
#ifndef TESTS_MODEL_FIXTURE_H
#define TESTS_MODEL_FIXTURE_H

struct fixture {
	char dir[128];
	char flash[192];    /* ROM_EXT A and B, BL0 A and B (both SVN 1), owner config */
	char otp[192];
	char bl0_v2[192];   /* BL0, SVN 2, for installs */
	char bl0_bad[192];  /* a BL0 signed by a key the device does not trust */
	char log[192];      /* what otimage said */
};

/* Build it (once; later calls return the same). NULL on failure, see log. */
const struct fixture *fixture_get(void);
/* Remove the directory (the test binary's parent calls this at exit). */
void fixture_remove(void);

#endif /* TESTS_MODEL_FIXTURE_H */
