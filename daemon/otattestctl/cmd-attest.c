// SPDX-License-Identifier: MIT
/*
 * otattestctl attest: fresh evidence for a nonce (given, or 32 random
 * bytes), written to a file or stdout, optionally verified on the spot.
 * otattestctl verify: the library verifier on an evidence file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <otattest/shm.h>
#include <otu/file.h>
#include <otu/hex.h>
#include <otu/json.h>

#include "ctl.h"

#define EVIDENCE_MAX (1u << 20)

static int parse_nonce(const char *hex, uint8_t *nonce, size_t *len)
{
	ssize_t n = otu_hex_decode(hex, nonce, OTA_NONCE_MAX);

	if (n < 0 || (size_t)n < OTA_NONCE_MIN)
		return ctl_fail(OTA_CLASS_INVALID_ARGUMENT,
				"--nonce must be %u to %u bytes of hex (%u to %u digits)", OTA_NONCE_MIN,
				OTA_NONCE_MAX, 2 * OTA_NONCE_MIN, 2 * OTA_NONCE_MAX);
	*len = (size_t)n;
	return 0;
}

static int write_output(const char *path, const void *p, size_t len)
{
	int r;

	if (!path || !strcmp(path, "-")) {
		if (fwrite(p, 1, len, stdout) != len || fflush(stdout) != 0)
			return ctl_fail(OTA_CLASS_IO, "cannot write the evidence to stdout");
		return 0;
	}
	/* Whole or not at all: a verifier never picks up half an evidence file. */
	r = otu_write_file_atomic(path, p, len, 0644, 0);
	if (r < 0)
		return ctl_fail(OTA_CLASS_IO, "cannot write %s: %s", path, strerror(-r));
	return 0;
}

int cmd_attest(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nonce", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "verify", no_argument, NULL, 'V' },
		{ "ca", required_argument, NULL, 'C' },
		{ "policy", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ 0 },
	};
	const char *output = NULL, *ca = NULL, *policy = NULL;
	uint8_t nonce[OTA_NONCE_MAX];
	char nonce_hex[2 * OTA_NONCE_MAX + 1], path[160];
	size_t nonce_len = 0, len;
	bool verify = false, json = c->json, have_nonce = false;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const void *ev;
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "n:o:", opts, NULL)) >= 0) {
		switch (o) {
		case 'n':
			r = parse_nonce(optarg, nonce, &nonce_len);
			if (r)
				return r;
			have_nonce = true;
			break;
		case 'o': output = optarg; break;
		case 'V': verify = true; break;
		case 'C': ca = optarg; break;
		case 'P': policy = optarg; break;
		case 'j': json = true; break;
		default: return OTA_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "otattestctl: attest: unexpected argument '%s'\n", argv[optind]);
		return OTA_EXIT_USAGE;
	}
	if (verify && !ca) {
		fprintf(stderr, "otattestctl: attest --verify needs --ca FILE\n");
		return OTA_EXIT_USAGE;
	}
	if ((!output || !strcmp(output, "-")) && (json || isatty(STDOUT_FILENO))) {
		fprintf(stderr, "otattestctl: attest: give --output FILE (stdout is %s)\n",
			json ? "used for JSON" : "a terminal");
		return OTA_EXIT_USAGE;
	}
	if (!have_nonce) {
		nonce_len = 32;
		if (getrandom(nonce, nonce_len, 0) != (ssize_t)nonce_len)
			return ctl_fail(OTA_CLASS_INTERNAL, "cannot get random bytes: %s", strerror(errno));
	}
	otu_hex_encode(nonce_hex, nonce, nonce_len);

	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	{
		sd_bus_message *call = NULL;

		r = sd_bus_message_new_method_call(c->bus, &call, OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE,
						   "Attest");
		if (r >= 0)
			r = sd_bus_message_append_array(call, 'y', nonce, nonce_len);
		if (r >= 0)
			r = sd_bus_call(c->bus, call, 0, &e, &reply);
		sd_bus_message_unref(call);
	}
	if (r < 0) {
		r = ctl_fail_bus("Attest", &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	r = sd_bus_message_read_array(reply, 'y', &ev, &len);
	if (r < 0) {
		sd_bus_message_unref(reply);
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to Attest");
	}
	r = write_output(output, ev, len);
	if (r) {
		sd_bus_message_unref(reply);
		return r;
	}
	if (!json && !c->quiet)
		fprintf(stderr, "nonce %s\nevidence %zu bytes%s%s\n", nonce_hex, len,
			output ? " in " : "", output ? output : "");
	if (json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "nonce", nonce_hex);
		otu_json_add_u64(doc, "evidence_bytes", len);
		otu_json_add_str(doc, "evidence_file", output);
		otu_json_emit(stdout, doc);
	}
	if (verify)
		r = ctl_verify_evidence(ev, len, ca, nonce, nonce_len, policy, false,
					json ? stderr : stdout);
	sd_bus_message_unref(reply);
	return r;
}

int cmd_verify(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nonce", required_argument, NULL, 'n' },
		{ "ca", required_argument, NULL, 'C' },
		{ "policy", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ 0 },
	};
	const char *ca = NULL, *policy = NULL;
	uint8_t nonce[OTA_NONCE_MAX], *ev = NULL;
	size_t nonce_len = 0, len;
	bool json = c->json, have_nonce = false;
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "n:", opts, NULL)) >= 0) {
		switch (o) {
		case 'n':
			r = parse_nonce(optarg, nonce, &nonce_len);
			if (r)
				return r;
			have_nonce = true;
			break;
		case 'C': ca = optarg; break;
		case 'P': policy = optarg; break;
		case 'j': json = true; break;
		default: return OTA_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !ca || !have_nonce) {
		fprintf(stderr, "otattestctl: usage: verify EVIDENCE --ca FILE --nonce HEX [--policy FILE]\n");
		return OTA_EXIT_USAGE;
	}
	r = strcmp(argv[optind], "-") == 0 ? otu_read_fd(STDIN_FILENO, EVIDENCE_MAX, &ev, &len)
					    : otu_read_file(argv[optind], EVIDENCE_MAX, &ev, &len);
	if (r < 0)
		return ctl_fail(r == -EFBIG ? OTA_CLASS_LIMIT : OTA_CLASS_IO, "cannot read %s: %s",
				argv[optind], r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
	r = ctl_verify_evidence(ev, len, ca, nonce, nonce_len, policy, json, stdout);
	free(ev);
	return r;
}
