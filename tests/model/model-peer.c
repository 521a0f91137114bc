// SPDX-License-Identifier: MIT
/*
 * model-peer: join otattest-model where the guest would (no QEMU) and look
 * at the device: the info block, the record region, one mailbox command.
 * For scripts (scripts/demo.sh) and for people poking at a model by hand.
 * Records are decoded by `otimage inspect`; this tool fetches them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/record.h>
#include <otattest/shm.h>
#include <otu/file.h>
#include <otu/hex.h>
#include <otu/json.h>
#include <otu/num.h>

#include "devclient.h"

static const char usage_text[] =
"NAME\n"
"    model-peer - talk to otattest-model as its guest, without QEMU\n"
"\n"
"SYNOPSIS\n"
"    model-peer (--socket=PATH | --state-dir=DIR) [--json] [--timeout=MS] COMMAND [ARG...]\n"
"\n"
"DESCRIPTION\n"
"    Connects to the model's ivshmem socket as the one guest (refused while QEMU\n"
"    or another peer is connected), reads shared memory the way the kernel\n"
"    driver must (copy under the seqlock, bound every length, validate) and\n"
"    disconnects again.\n"
"\n"
"COMMANDS\n"
"    info                     The info block: state, detail, counters, layout.\n"
"    record [--out=FILE]      The record region: summary, and the validated\n"
"                             record bytes to FILE (decode: otimage inspect FILE).\n"
"    call CMD [ARG] [--out=FILE]\n"
"                             One mailbox command; the response payload to FILE.\n"
"                             CMD: get-record, get-certs, get-info, warm-reset, rotate-tags,\n"
"                             update-reset [a|b|other], attest NONCE_HEX, and the\n"
"                             factory's (test_unlocked only): get-identity-csr\n"
"                             (the device's PKCS#10 request, DER), set-identity-cert\n"
"                             DER_FILE (the certificate the CA issued for it).\n"
"    certs DIR                GET_CERTS, each certificate to its own DER file:\n"
"                             DIR/alias.der and DIR/identity.der.\n"
"\n"
"OPTIONS\n"
"    -s, --socket=PATH        The model's ivshmem socket.\n"
"    -d, --state-dir=DIR      Use DIR/ivshmem.sock.\n"
"        --json               One JSON object on stdout instead of text.\n"
"        --timeout=MS         Wait at most MS for an answer (default 10000).\n"
"        --out=FILE           Where record or call writes the bytes.\n"
"    -h, --help               This text.\n"
"\n"
"EXIT STATUS\n"
"    0 success; 2 usage; otherwise the status class's exit code (status.h) of\n"
"    what failed: the device's answer, a record that does not validate (11),\n"
"    no answer in time (18), no model (16), a guest already connected (17).\n";

static bool json;

static int exit_for(ota_status_t st)
{
	return ota_class_exit_code(ota_status_class(st));
}

static const char *name_of(ota_status_t st)
{
	const char *n = ota_status_name(st);

	return n ? n : "UNKNOWN";
}

static int write_out(const char *path, const void *buf, uint32_t len)
{
	int r;

	if (!path)
		return 0;
	r = otu_write_file_atomic(path, buf, len, 0644, 0);
	if (r < 0) {
		fprintf(stderr, "model-peer: %s: %s\n", path, strerror(-r));
		return exit_for(OTA_HOST_IO);
	}
	return 0;
}

static int cmd_info(struct devc *d)
{
	struct ota_shm_info in;
	ota_status_t st = devc_read_info(d, &in);

	if (st != OTA_OK) {
		fprintf(stderr, "model-peer: info block: %s\n", name_of(st));
		return exit_for(st);
	}
	if (json) {
		struct json_object *doc = json_object_new_object();
		char abi[24];

		snprintf(abi, sizeof(abi), "%u.%u", in.abi_major, in.abi_minor);
		otu_json_add_str(doc, "abi", abi);
		otu_json_add_u64(doc, "device_peer_id", OTA_SHM_DEVICE_PEER_ID);
		otu_json_add_i64(doc, "guest_peer_id", d->iv.cl.own_id);
		otu_json_add_str(doc, "state", ota_device_state_name(in.device_state));
		otu_json_add_str(doc, "detail", name_of(in.state_detail));
		otu_json_add_u64(doc, "event_counter", in.event_counter);
		otu_json_add_u64(doc, "progress_done", in.progress_done);
		otu_json_add_u64(doc, "progress_total", in.progress_total);
		otu_json_add_u64(doc, "shm_size", in.shm_size);
		otu_json_emit(stdout, doc);
		return 0;
	}
	printf("shared memory ABI  %u.%u, %u bytes\n", in.abi_major, in.abi_minor, in.shm_size);
	printf("device peer        %u (this guest: %lld)\n", OTA_SHM_DEVICE_PEER_ID,
	       (long long)d->iv.cl.own_id);
	printf("state              %s (%s)\n", ota_device_state_name(in.device_state),
	       name_of(in.state_detail));
	printf("event counter      %u\n", in.event_counter);
	printf("progress           %u/%u\n", in.progress_done, in.progress_total);
	printf("regions            record 0x%x+0x%x, request 0x%x+0x%x, response 0x%x+0x%x\n",
	       in.record_offset, in.record_size, in.request_offset, in.request_size,
	       in.response_offset, in.response_size);
	return 0;
}

static int cmd_record(struct devc *d, const char *out)
{
	struct ota_record rec;
	uint32_t len = 0, gen = 0;
	ota_status_t st = devc_read_record(d, &rec, sizeof(rec), &len, &gen);

	if (st == OTA_OK)
		st = ota_record_validate(&rec, len);
	if (st != OTA_OK) {
		fprintf(stderr, "model-peer: record region: %s: %s\n", name_of(st),
			ota_status_message(st));
		return exit_for(st);
	}
	if (json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_u64(doc, "generation", rec.hdr.generation);
		otu_json_add_u64(doc, "length", len);
		otu_json_add_u64(doc, "stages", rec.hdr.stage_count);
		otu_json_add_u64(doc, "reset_reason", rec.hdr.reset_reason);
		otu_json_add_str(doc, "boot_status", name_of(rec.hdr.boot_status));
		otu_json_add_u64(doc, "tag_key_version", rec.hdr.tag_key_version);
		otu_json_add_u64(doc, "min_svn", rec.hdr.min_svn);
		otu_json_add_u64(doc, "shm_generation", gen);
		otu_json_emit(stdout, doc);
	} else {
		printf("record generation %u, %u bytes, %u stage attempts, boot %s "
		       "(shared-memory seqlock %u)\n",
		       rec.hdr.generation, len, rec.hdr.stage_count, name_of(rec.hdr.boot_status),
		       gen);
	}
	return write_out(out, &rec, len);
}

/* An attest nonce in hex: at most OTA_NONCE_MAX bytes (the device judges the length). */
static bool parse_nonce(const char *s, struct ota_req_attest *req)
{
	ssize_t n = otu_hex_decode(s, req->nonce, sizeof(req->nonce));

	if (n < 0)
		return false;
	req->nonce_len = (uint32_t)n;
	return true;
}

/* A DER certificate file into the request; false (said why) when it cannot be. */
static bool read_cert(const char *path, struct ota_req_set_identity_cert *req)
{
	uint8_t *buf;
	size_t n;
	int r = otu_read_file(path, sizeof(req->der), &buf, &n);

	if (r == 0 && n == 0) {
		free(buf);
		r = -ENODATA;
	}
	if (r < 0) {
		fprintf(stderr, "model-peer: %s: %s\n", path,
			r == -EFBIG ? "larger than a certificate the device can hold (1024 bytes)"
				    : strerror(-r));
		return false;
	}
	memcpy(req->der, buf, n);
	req->der_length = (uint32_t)n;
	free(buf);
	return true;
}

static int cmd_call(struct devc *d, int argc, char **argv, const char *out, int timeout_ms)
{
	static uint8_t resp[OTA_SHM_RESPONSE_SIZE];
	static union {
		struct ota_req_attest attest;
		struct ota_req_rotate rotate;
		struct ota_req_update update;
		struct ota_req_set_identity_cert idcert;
	} req;
	uint32_t command, req_len = 0, resp_len = 0;
	ota_status_t transport, status = 0;

	memset(&req, 0, sizeof(req));
	if (argc < 1)
		return OTA_EXIT_USAGE;
	if (strcmp(argv[0], "get-record") == 0) {
		command = OTA_CMD_GET_RECORD;
	} else if (strcmp(argv[0], "get-certs") == 0) {
		command = OTA_CMD_GET_CERTS;
	} else if (strcmp(argv[0], "get-info") == 0) {
		command = OTA_CMD_GET_INFO;
	} else if (strcmp(argv[0], "warm-reset") == 0) {
		command = OTA_CMD_WARM_RESET;
	} else if (strcmp(argv[0], "rotate-tags") == 0) {
		command = OTA_CMD_ROTATE_TAGS;
		req_len = sizeof(req.rotate);
	} else if (strcmp(argv[0], "update-reset") == 0) {
		command = OTA_CMD_UPDATE_RESET;
		req_len = sizeof(req.update);
		req.update.slot = OTA_UPDATE_SLOT_OTHER;
		if (argc > 1 && strcmp(argv[1], "a") == 0)
			req.update.slot = OTA_SLOT_A;
		else if (argc > 1 && strcmp(argv[1], "b") == 0)
			req.update.slot = OTA_SLOT_B;
		else if (argc > 1 && strcmp(argv[1], "other") != 0)
			return OTA_EXIT_USAGE;
	} else if (strcmp(argv[0], "attest") == 0) {
		command = OTA_CMD_ATTEST;
		req_len = sizeof(req.attest);
		if (argc < 2 || !parse_nonce(argv[1], &req.attest))
			return OTA_EXIT_USAGE;
	} else if (strcmp(argv[0], "get-identity-csr") == 0) {
		command = OTA_CMD_GET_IDENTITY_CSR;
	} else if (strcmp(argv[0], "set-identity-cert") == 0) {
		command = OTA_CMD_SET_IDENTITY_CERT;
		req_len = sizeof(req.idcert);
		if (argc < 2)
			return OTA_EXIT_USAGE;
		if (!read_cert(argv[1], &req.idcert))
			return exit_for(OTA_MBOX_CERT_LENGTH);
	} else {
		return OTA_EXIT_USAGE;
	}
	transport = devc_call(d, command, &req, req_len, resp, sizeof(resp), &resp_len, &status,
			      timeout_ms);
	if (transport != OTA_OK) {
		fprintf(stderr, "model-peer: %s: %s\n", argv[0], ota_status_message(transport));
		return exit_for(transport);
	}
	if (json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "command", argv[0]);
		otu_json_add_str(doc, "status", name_of(status));
		otu_json_add_u64(doc, "length", resp_len);
		otu_json_emit(stdout, doc);
	} else {
		printf("%s: %s, %u bytes\n", argv[0], name_of(status), resp_len);
		/* GET_INFO: the runtime's own version string (NUL padded). */
		if (command == OTA_CMD_GET_INFO && status == OTA_OK &&
		    resp_len >= OTA_VERSION_STRING_BYTES)
			printf("runtime-version: %.*s\n", (int)strnlen((const char *)resp,
									 OTA_VERSION_STRING_BYTES),
			       (const char *)resp);
	}
	if (status != OTA_OK) {
		write_out(out, resp, resp_len);
		return exit_for(status);
	}
	return write_out(out, resp, resp_len);
}

/* One length-prefixed, 4-byte padded entry of a GET_CERTS answer, bounded by len. */
static bool cert_entry(const uint8_t *resp, uint32_t len, uint32_t *at, const uint8_t **der,
		       uint32_t *der_len)
{
	uint32_t n;

	if (len - *at < 4)
		return false;
	memcpy(&n, resp + *at, 4);
	if (n == 0 || n > len - *at - 4 || ((n + 3u) & ~3u) > len - *at - 4)
		return false;
	*der = resp + *at + 4;
	*der_len = n;
	*at += 4 + ((n + 3u) & ~3u);
	return true;
}

static int cmd_certs(struct devc *d, const char *dir, int timeout_ms)
{
	static uint8_t resp[OTA_SHM_RESPONSE_SIZE];
	static const char *const names[] = { "alias.der", "identity.der" };
	struct ota_resp_certs hdr;
	uint32_t len = 0, at = sizeof(hdr), i, der_len;
	ota_status_t transport, status = 0;
	const uint8_t *der;
	char path[4096];
	int r;

	transport = devc_call(d, OTA_CMD_GET_CERTS, NULL, 0, resp, sizeof(resp), &len, &status,
			      timeout_ms);
	if (transport != OTA_OK || status != OTA_OK) {
		fprintf(stderr, "model-peer: get-certs: %s\n",
			ota_status_message(transport != OTA_OK ? transport : status));
		return exit_for(transport != OTA_OK ? transport : status);
	}
	/* The device's answer is checked like any other input from it. */
	if (len < sizeof(hdr))
		goto malformed;
	memcpy(&hdr, resp, sizeof(hdr));
	if (hdr.count != 2 || hdr.reserved != 0)
		goto malformed;
	for (i = 0; i < 2; i++) {
		if (!cert_entry(resp, len, &at, &der, &der_len))
			goto malformed;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		r = write_out(path, der, der_len);
		if (r != 0)
			return r;
		printf("%s: %u bytes\n", path, der_len);
	}
	if (at != len)
		goto malformed;
	return 0;
malformed:
	fprintf(stderr, "model-peer: get-certs: the answer is not two length-prefixed certificates\n");
	return exit_for(OTA_HOST_PROTOCOL);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "state-dir", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *socket_path = NULL, *state_dir = NULL, *out = NULL;
	char path[4096];
	int timeout_ms = 10000, c, r;
	uint32_t timeout;
	struct devc d;

	while ((c = getopt_long(argc, argv, "s:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			socket_path = optarg;
			break;
		case 'd':
			state_dir = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 't':
			if (otu_parse_u32(optarg, OTU_DEC, 1, INT32_MAX, &timeout) < 0)
				goto usage;
			timeout_ms = (int)timeout;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind >= argc || (!socket_path && !state_dir))
		goto usage;
	if (!socket_path) {
		snprintf(path, sizeof(path), "%s/ivshmem.sock", state_dir);
		socket_path = path;
	}
	r = devc_open(&d, socket_path, timeout_ms);
	if (r == -EBUSY) {
		fprintf(stderr, "model-peer: %s: %s\n", socket_path,
			ota_status_message(OTA_MODEL_GUEST_REFUSED));
		return exit_for(OTA_MODEL_GUEST_REFUSED);
	}
	if (r < 0) {
		fprintf(stderr, "model-peer: %s: %s\n", socket_path,
			r == -EPROTO ? "not an otattest device (info block does not validate)"
				     : strerror(-r));
		return exit_for(r == -EPROTO ? OTA_HOST_PROTOCOL : OTA_HOST_NO_DEVICE);
	}
	if (strcmp(argv[optind], "info") == 0 && optind + 1 == argc)
		r = cmd_info(&d);
	else if (strcmp(argv[optind], "record") == 0 && optind + 1 == argc)
		r = cmd_record(&d, out);
	else if (strcmp(argv[optind], "call") == 0)
		r = cmd_call(&d, argc - optind - 1, argv + optind + 1, out, timeout_ms);
	else if (strcmp(argv[optind], "certs") == 0 && optind + 2 == argc)
		r = cmd_certs(&d, argv[optind + 1], timeout_ms);
	else
		r = OTA_EXIT_USAGE;
	devc_close(&d);
	if (r == OTA_EXIT_USAGE)
		goto usage;
	return r;

usage:
	fputs("usage: model-peer (--socket=PATH | --state-dir=DIR) [--json] [--timeout=MS] "
	      "info | record [--out=FILE] | call CMD [ARG] [--out=FILE] | certs DIR\n"
	      "Try 'model-peer --help'.\n",
	      stderr);
	return OTA_EXIT_USAGE;
}
