// SPDX-License-Identifier: MIT
/*
 * 'otattest-model server': the ivshmem server of a split model. Options,
 * --help, startup and shutdown; the QEMU side is server.c, the device
 * side devsock.c. It runs no device: no state directory, no firmware, no
 * mailbox, no control socket.
 *
 * Startup order: the shared memory (state off until a device joins), the
 * QEMU socket listening, then the device socket listening. So "the device
 * socket exists" means QEMU and the device may both connect.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/num.h>
#include <systemd/sd-daemon.h>

#include "cli.h"
#include "main_server.h"
#include "model.h"

static const char help_text[] =
"NAME\n"
"    otattest-model server - the ivshmem server of a split otattest model\n"
"\n"
"SYNOPSIS\n"
"    otattest-model server --socket=PATH --device-socket=DEVICE-SOCKET [OPTION...]\n"
"\n"
"DESCRIPTION\n"
"    The half of a split model that QEMU talks to. It owns the shared memory\n"
"    and every eventfd, serves QEMU's stock ivshmem-doorbell device on --socket\n"
"    exactly as the whole model does, and admits the device process\n"
"    ('otattest-model --state-dir=DIR --connect=DEVICE-SOCKET') on the device\n"
"    socket, always as the device peer (id 0, fixed by the ABI), so the guest's\n"
"    doorbells (peer << 16 | vector) reach whichever device process runs. That\n"
"    process may be killed at any moment and started again: QEMU's connection,\n"
"    the guest's PCI function and the shared memory stay, as a host keeps its\n"
"    PCI device while the root of trust's firmware crashes and reboots. Wire\n"
"    QEMU to it with:\n"
"\n"
"        -chardev socket,path=SOCKET,id=ota\n"
"        -device ivshmem-doorbell,chardev=ota,vectors=2\n"
"\n"
"    The device socket speaks the ivshmem protocol, server side, as to a\n"
"    guest: version 0; the device's peer id; -1 with the shared memory; the\n"
"    guest's id once per vector with its eventfds, if a guest is connected;\n"
"    the device's id once per vector with the device's eventfds. Later: a\n"
"    guest's id with an eventfd per vector when a guest connects (sent before\n"
"    that guest's greeting), its id alone when it leaves.\n"
"\n"
"    The device's eventfds are made once, at start: QEMU gets them in its\n"
"    greeting and every device process gets the same ones. QEMU is never told\n"
"    that the device peer left or came back: QEMU 7.2 frees a departed peer's\n"
"    eventfd array and then writes the same peer's next vectors into it (and\n"
"    frees it again at its next departure: \"double free or corruption\"). A\n"
"    doorbell rung while no device runs waits in its eventfd and is dropped\n"
"    when the next device joins, as a power-on drops a pending interrupt.\n"
"\n"
"    Until a device joins the shared memory shows the device in state off. One\n"
"    guest and one device at a time: a second one is greeted with protocol\n"
"    version -1 and closed (QEMU then exits: \"server sent version -1,\n"
"    expecting 0\"; the log says guest-refused or device-refused).\n"
"\n"
"    Startup: the shared memory, the QEMU socket listening, the device socket\n"
"    listening; once the device socket exists both may connect (sd_notify\n"
"    READY=1 says the same). SIGTERM or SIGINT stop it cleanly: QEMU sees EOF,\n"
"    the device process sees its server gone and stops, the sockets are\n"
"    removed.\n"
"\n"
"OPTIONS\n"
"    -s, --socket=PATH        ivshmem server socket QEMU connects to; required.\n"
"        --device-socket=PATH The socket the device process joins; required.\n"
"        --log-level=LEVEL    error, warn, info (default) or debug. One line per\n"
"                             event on stderr: 'otattest-model server: LEVEL EVENT\n"
"                             k=v ...' (listening, device-listening, ready,\n"
"                             guest-connected, guest-disconnected, guest-refused,\n"
"                             device-connected, device-disconnected,\n"
"                             device-refused, stopping, stopped).\n"
"    -h, --help               This text.\n"
"        --version            The model's version and shared-memory ABI.\n"
"\n"
"EXIT STATUS\n"
"    0 stopped cleanly; 2 bad command line; 22 a socket could not be set up\n"
"    (another server already listens there: errno=98 in the listen-failed\n"
"    line); 24 internal error.\n"
"\n"
"EXAMPLES\n"
"    otattest-model server -s /tmp/ota/ivshmem.sock --device-socket=/tmp/ota/device.sock &\n"
"    otattest-model -d /tmp/ota/state --connect=/tmp/ota/device.sock &\n"
"    qemu-system-x86_64 ... -chardev socket,path=/tmp/ota/ivshmem.sock,id=ota \\\n"
"        -device ivshmem-doorbell,chardev=ota,vectors=2\n"
"    # the device dies and comes back; the guest's driver sees it go silent\n"
"    kill -KILL %2; otattest-model -d /tmp/ota/state --connect=/tmp/ota/device.sock &\n"
"\n"
"SEE ALSO\n"
"    otattest-model --help, docs/model.md (\"Split mode\"), docs/shm-abi.md\n";

enum {
	OPT_DEVICE_SOCKET = 0x100,
	OPT_LOG_LEVEL,
	OPT_VERSION,
};

#define SERVER_CMD "server"

static int parse_options(int argc, char **argv, struct model *m)
{
	static const struct option long_opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "device-socket", required_argument, NULL, OPT_DEVICE_SOCKET },
		{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 's':
			m->opt.socket_path = optarg;
			break;
		case OPT_DEVICE_SOCKET:
			m->opt.device_socket_path = optarg;
			break;
		case OPT_LOG_LEVEL:
			if (!log_level_parse(optarg, &m->opt.log_level))
				return cli_usage_error(SERVER_CMD,
						       "--log-level: '%s' is not error, warn, info or debug",
						       optarg);
			break;
		case 'h':
			fputs(help_text, stdout);
			exit(0);
		case OPT_VERSION:
			cli_print_version();
			exit(0);
		default:
			return cli_usage_error(SERVER_CMD, "unknown option (see --help)");
		}
	}
	if (optind < argc)
		return cli_usage_error(SERVER_CMD, "unexpected argument '%s'", argv[optind]);
	if (!m->opt.socket_path)
		return cli_usage_error(SERVER_CMD, "--socket is required");
	if (!m->opt.device_socket_path)
		return cli_usage_error(SERVER_CMD, "--device-socket is required");
	if (strcmp(m->opt.socket_path, m->opt.device_socket_path) == 0)
		return cli_usage_error(SERVER_CMD, "--socket and --device-socket must differ");
	return 0;
}

static int exit_code_for(ota_status_t st)
{
	return ota_class_exit_code(ota_status_class(st));
}

static int run(struct model *m)
{
	const char *failed;
	int r;

	if (model_event_new(m) < 0)
		return exit_code_for(OTA_HOST_INTERNAL);
	r = shm_create(&m->shm);
	if (r < 0) {
		log_error("shm-create-failed", "errno=%d", -r);
		return exit_code_for(OTA_HOST_INTERNAL);
	}
	failed = m->opt.socket_path;
	r = server_start(m);
	if (r >= 0) {
		failed = m->opt.device_socket_path;
		r = devsock_start(m);
	}
	if (r < 0) {
		log_error("listen-failed", "socket=%s errno=%d reason=\"%s\"", failed, -r,
			  strerror(-r));
		return exit_code_for(OTA_HOST_IO);
	}
	log_info("ready", "socket=%s device-socket=%s device-peer=%u", m->opt.socket_path,
		 m->opt.device_socket_path, OTA_SHM_DEVICE_PEER_ID);
	sd_notify(0, "READY=1\nSTATUS=waiting for QEMU and the device");

	r = sd_event_loop(m->event);
	sd_notify(0, "STOPPING=1");
	return r < 0 ? exit_code_for(OTA_HOST_INTERNAL) : m->exit_code;
}

int server_main(int argc, char **argv)
{
	static struct model m;
	int r;

	m.opt.role = MODEL_ROLE_SERVER;
	m.opt.log_level = LOG_LVL_INFO;
	m.server.seat = (struct seat)SEAT_CLOSED;
	m.server.device = (struct peer)PEER_INIT;
	m.server.guest = (struct peer)PEER_INIT;
	m.devsock.seat = (struct seat)SEAT_CLOSED;
	m.shm.fd = -1;
	m.storm.fd = -1;

	r = parse_options(argc, argv, &m);
	if (r)
		return r;
	log_set_ident("otattest-model server");
	log_set_level(m.opt.log_level);
	r = run(&m);
	devsock_stop(&m);
	server_stop(&m);
	shm_destroy(&m.shm);
	m.event = sd_event_unref(m.event);
	if (r == 0)
		log_info("stopped", "socket=%s", m.opt.socket_path);
	return r;
}
