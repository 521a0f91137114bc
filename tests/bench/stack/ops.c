// SPDX-License-Identifier: MIT
/* The ops a benchmark run can time, by name. */
#include <string.h>

#include "loadgen.h"

const struct lg_op lg_ops[] = {
	{ "ping", "D-Bus Peer.Ping to otattestd (the bus floor)", LG_FAMILY_BUS, lg_op_ping },
	{ "property", "read otattestd's State property", LG_FAMILY_BUS, lg_op_property },
	{ "stages", "read otattestd's Stages property (every stage's boot state)", LG_FAMILY_BUS,
	  lg_op_stages },
	{ "record", "GetRecord and validate the record", LG_FAMILY_BUS, lg_op_record },
	{ "attest", "Attest with a fresh 32-byte nonce", LG_FAMILY_BUS, lg_op_attest },
	{ "tpm-quote", "TPM2_Quote of PCRs 0-7 with a fresh 32-byte nonce via tpm2-abrmd",
	  LG_FAMILY_TPM, lg_op_tpm_quote },
	{ "tpm-pcrread", "TPM2_PCR_Read of PCRs 0-7 via tpm2-abrmd", LG_FAMILY_TPM, lg_op_tpm_pcrread },
};
const size_t lg_op_count = sizeof(lg_ops) / sizeof(lg_ops[0]);

const struct lg_op *lg_op_find(const char *name)
{
	size_t i;

	for (i = 0; i < lg_op_count; i++)
		if (!strcmp(lg_ops[i].name, name))
			return &lg_ops[i];
	return NULL;
}
