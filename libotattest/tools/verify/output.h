/* SPDX-License-Identifier: MIT */
/*
 * otattest-verify's verdicts as text and as JSON, to any stream: stdout
 * for one evidence, a buffer per evidence in batch mode (batch.c), so
 * every evidence's output is one piece however the threads interleave.
 */
#ifndef OTATTEST_VERIFY_OUTPUT_H
#define OTATTEST_VERIFY_OUTPUT_H

#include <stdio.h>

#include <otattest/verify.h>
#include <otu/keynames.h>

#define PROG "otattest-verify"

/* The status's name, "UNKNOWN" for a number status.h does not list. */
const char *vo_status_name(ota_status_t st);
/* Exit code of a status's class (status.h). */
int vo_class_exit(ota_status_t st);

/*
 * The verdict as one JSON object and a newline. file (NULL: left out)
 * names the evidence, as batch mode prints it.
 */
void vo_print_json(FILE *out, const char *file, const struct ota_verdict *v, ota_status_t st);
/* The verdict for a person, several lines. */
void vo_print_human(FILE *out, const struct ota_verdict *v, ota_status_t st);
/*
 * Key names for the verdicts (docs/keynames.md): each stage's key chain
 * by name, and key ids in failure details followed by their name. Set
 * once before any verdict is printed (batch threads only read it); NULL:
 * none.
 */
void vo_set_key_names(const struct otu_keynames *names);
/* {"verdict":"error",...}: an input that could not be used. */
void vo_print_json_error(FILE *out, const char *file, ota_status_t st, const char *detail);

#endif /* OTATTEST_VERIFY_OUTPUT_H */
