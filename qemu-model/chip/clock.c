// SPDX-License-Identifier: MIT
/*
 * The device's clock (docs/hal.md, "The cycle model"): modelled cycles at
 * the nominal 100 MHz. With a core (qemu-model/core/, --core=rv32) the
 * rv_timer's MTIME counts them: the instructions the core retired (the
 * core reports each translation block it runs, swhal_clock_retire) times
 * a stated CPI, plus what each peripheral operation costs, charged by the
 * chip when the firmware uses the block (swhal_clock_charge, the table
 * below). The host build's MTIME stays host time; the chip charges the
 * same operations there too, so the counts of both builds can be compared.
 *
 * Every figure is in one table, with its source in docs/hal.md.
 */
#include <string.h>

#include "swhal.h"
#include "swhal_priv.h"

/* Cycles per instruction retired on the core, as a fraction (Ibex, docs/hal.md: an assumption). */
#define CPI_NUM 3u
#define CPI_DEN 2u

static const struct swhal_cost_entry cost_table[SWHAL_COST_COUNT] = {
	[SWHAL_COST_SHA256_BLOCK] = { "sha256-block", "64-byte block compressed by hmac", 80 },
	[SWHAL_COST_KMAC_BLOCK] = { "kmac-block", "Keccak-f[1600] permutation by kmac (one 136-byte rate block)", 100 },
	[SWHAL_COST_P256_VERIFY] = { "p256-verify", "ECDSA P-256 verify on otbn", 420000 },
	[SWHAL_COST_P256_SIGN] = { "p256-sign", "ECDSA P-256 sign on otbn", 560000 },
	[SWHAL_COST_P256_PUBKEY] = { "p256-pubkey", "P-256 public key (base-point multiplication) on otbn", 480000 },
	[SWHAL_COST_FLASH_READ_WORD] = { "flash-read-word", "32-bit word read from flash", 4 },
	[SWHAL_COST_FLASH_PROGRAM_WORD] = { "flash-program-word", "64-bit flash word programmed", 2000 },
	[SWHAL_COST_FLASH_ERASE_PAGE] = { "flash-erase-page", "2 KiB flash page erased", 500000 },
	[SWHAL_COST_OTP_READ_WORD] = { "otp-read-word", "32-bit OTP word read through the DAI", 30 },
	[SWHAL_COST_OTP_PROGRAM_WORD] = { "otp-program-word", "32-bit OTP word programmed", 10000 },
	[SWHAL_COST_RET_SRAM_WORD] = { "ret-sram-word", "32-bit retention SRAM word read or written", 1 },
	[SWHAL_COST_TRNG_WORD] = { "trng-word", "32-bit entropy word read", 16 },
};

#define MTIME_LOG 64u

static struct {
	bool modelled;
	struct swhal_clock now;
	uint64_t charged; /* sum of the peripherals' cycles */
	struct swhal_clock log[MTIME_LOG];
	uint32_t log_next, log_count;
} clk;

const struct swhal_cost_entry *swhal_cost_info(enum swhal_cost what)
{
	return what < SWHAL_COST_COUNT ? &cost_table[what] : NULL;
}

void swhal_clock_model(bool on)
{
	clk.modelled = on;
}

bool swhal_clock_modelled(void)
{
	return clk.modelled;
}

static uint64_t cycles_now(void)
{
	return clk.now.core_cycles + clk.charged;
}

/* A block's cycles, rounded up: the same block costs the same every time, whatever ran before. */
void swhal_clock_retire(uint32_t n16, uint32_t n32)
{
	clk.now.insns16 += n16;
	clk.now.insns32 += n32;
	clk.now.blocks++;
	clk.now.core_cycles += swhal_clock_core_cycles((uint64_t)n16 + n32);
}

void swhal_clock_charge_cycles(enum swhal_cost what, uint64_t units, uint64_t cycles)
{
	if (what >= SWHAL_COST_COUNT)
		return;
	clk.now.units[what] += units;
	clk.now.cost_cycles[what] += cycles;
	clk.charged += cycles;
}

void swhal_clock_charge(enum swhal_cost what, uint64_t units)
{
	if (what < SWHAL_COST_COUNT)
		swhal_clock_charge_cycles(what, units, units * cost_table[what].cycles);
}

void swhal_clock_get(struct swhal_clock *out)
{
	*out = clk.now;
	out->cycles = cycles_now();
}

uint64_t swhal_clock_mtime(void)
{
	struct swhal_clock *e = &clk.log[clk.log_next];

	swhal_clock_get(e);
	clk.log_next = (clk.log_next + 1) % MTIME_LOG;
	if (clk.log_count < MTIME_LOG)
		clk.log_count++;
	return e->cycles;
}

uint32_t swhal_clock_reads(struct swhal_clock *out, uint32_t max)
{
	uint32_t n = clk.log_count < max ? clk.log_count : max, i;

	for (i = 0; i < n; i++)
		out[i] = clk.log[(clk.log_next + MTIME_LOG - n + i) % MTIME_LOG];
	return n;
}

bool swhal_clock_span(uint64_t cycles, struct swhal_clock *out)
{
	struct swhal_clock log[MTIME_LOG];
	uint32_t n = swhal_clock_reads(log, MTIME_LOG), i, j, k;

	for (j = 1; j < n; j++)
		for (i = j; i-- > 0 && j - i <= 8;) {
			if (log[j].cycles - log[i].cycles != cycles)
				continue;
			*out = log[j];
			out->insns16 -= log[i].insns16;
			out->insns32 -= log[i].insns32;
			out->core_cycles -= log[i].core_cycles;
			out->blocks -= log[i].blocks;
			out->cycles -= log[i].cycles;
			for (k = 0; k < SWHAL_COST_COUNT; k++) {
				out->units[k] -= log[i].units[k];
				out->cost_cycles[k] -= log[i].cost_cycles[k];
			}
			return true;
		}
	return false;
}

void swhal_clock_reads_clear(void)
{
	clk.log_next = clk.log_count = 0;
}

uint64_t swhal_clock_core_cycles(uint64_t insns)
{
	return (insns * CPI_NUM + CPI_DEN - 1) / CPI_DEN;
}

/*
 * Keccak-f permutations of a KMAC256 (SP 800-185) with a customization of
 * custom_len bytes, a 32-byte key, msg_len message bytes and an output of
 * at most the rate: the prefix bytepad(encode_string("KMAC") ||
 * encode_string(S), 136), the key bytepad(encode_string(K), 136) (one
 * block), then X || right_encode(L) and the padding.
 */
#define KMAC_RATE 136u

static uint64_t left_encode_len(uint64_t v)
{
	uint64_t n = 1;

	while (v >>= 8)
		n++;
	return n + 1;
}

uint64_t swhal_kmac_permutations(uint64_t custom_len, uint64_t msg_len, uint64_t out_len)
{
	uint64_t prefix = left_encode_len(KMAC_RATE) + left_encode_len(32) + 4 +
			  left_encode_len(custom_len * 8) + custom_len;
	uint64_t msg = msg_len + left_encode_len(out_len * 8); /* right_encode is as long */

	return (prefix + KMAC_RATE - 1) / KMAC_RATE + 1 + msg / KMAC_RATE + 1 +
	       (out_len > KMAC_RATE ? (out_len - 1) / KMAC_RATE : 0);
}
