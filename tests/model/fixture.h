/* SPDX-License-Identifier: MIT */
/*
 * A provisioned device for the tests that need one, made with otimage the
 * way an operator would: keys, a manufacturer CA, signed ROM_EXT and BL0
 * images, flash and OTP images, loaded into a state directory.
 */
#ifndef TESTS_MODEL_FIXTURE_H
#define TESTS_MODEL_FIXTURE_H

/*
 * Provision into workdir (keys and images) and load the result into
 * state_dir. Returns 0, or non-zero with the reason in workdir/provision.log.
 */
int fixture_provision(const char *workdir, const char *state_dir);

#endif /* TESTS_MODEL_FIXTURE_H */
