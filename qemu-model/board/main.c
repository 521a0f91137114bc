// SPDX-License-Identifier: MIT
/*
 * otattest-model: the device behind QEMU's ivshmem-doorbell. Options,
 * --help, startup in the order the harness relies on, and shutdown, of
 * the whole model and of a split model's device process (--connect); the
 * split server is main_server.c, 'ctl' is ctl.c.
 *
 * Startup order: shared memory, the emulated hardware (state directory),
 * the ivshmem socket listening, the cold boot, and only then the control
 * socket. So "the control socket accepts" means "ready": the ivshmem
 * socket is up for QEMU and the device has booted (sd_notify READY=1
 * says the same to a service manager). A device process opens its state
 * directory, joins its server (which hands it the shared memory), cold
 * boots, and then opens the control socket: ready means the same.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/num.h>
#include <systemd/sd-daemon.h>

#include "cli.h"
#include "ctl.h"
#include "main_server.h"
#include "model.h"

static const char help_text[] =
"NAME\n"
"    otattest-model - the otattest device: QEMU ivshmem server and device peer\n"
"\n"
"SYNOPSIS\n"
"    otattest-model --state-dir=DIR [OPTION...]\n"
"    otattest-model --state-dir=DIR --connect=DEVICE-SOCKET [OPTION...]\n"
"    otattest-model server --socket=PATH --device-socket=DEVICE-SOCKET [OPTION...]\n"
"    otattest-model ctl [--json] [--timeout=SEC] (--control=PATH | --state-dir=DIR) REQUEST...\n"
"\n"
"DESCRIPTION\n"
"    Emulates the otattest root-of-trust device for a QEMU guest. The model is\n"
"    the ivshmem server that QEMU's stock ivshmem-doorbell device connects to,\n"
"    and it is also the device peer on that shared memory: it publishes the info\n"
"    block and the boot record there and serves the mailbox. The hardware\n"
"    (flash, OTP, retention RAM, key manager, KMAC, signer) is the software HAL,\n"
"    kept in the state directory; the firmware is compiled in. At start the\n"
"    device is powered on and cold boots. Wire QEMU to it with:\n"
"\n"
"        -chardev socket,path=SOCKET,id=ota\n"
"        -device ivshmem-doorbell,chardev=ota,vectors=2\n"
"\n"
"    One guest at a time: while one is connected, another connection is greeted\n"
"    with protocol version -1 and closed (QEMU exits: \"server sent version -1,\n"
"    expecting 0\") and the log says guest-refused.\n"
"\n"
"    The control socket accepts connections once the ivshmem socket listens\n"
"    and the cold boot is done: connect to it (or run 'ctl ... status') to wait\n"
"    for the model. SIGTERM or SIGINT stop it cleanly with the state kept; the\n"
"    state directory survives SIGKILL at any moment.\n"
"\n"
"    Split mode. Killing the model above takes QEMU's ivshmem connection with\n"
"    it, and QEMU can only meet a restarted model on a re-plugged device. With\n"
"    --connect the model is only the device: a separate 'otattest-model server'\n"
"    process serves QEMU and keeps the shared memory, and this process joins it\n"
"    on the server's device socket as the device peer (the server gives it the\n"
"    device's peer id, the memory, the device's eventfds and the guest's). It\n"
"    may be killed at any moment and started again, like firmware that crashes\n"
"    and reboots while the host keeps its PCI function: every start is a\n"
"    power-on and a cold boot on the state directory; the info block and the\n"
"    record in shared memory are rewritten (their seqlock counters carry on\n"
"    from where the last device left them), the mailbox answer region cleared.\n"
"    Doorbells rung while no device runs are lost. See 'otattest-model server\n"
"    --help'.\n"
"\n"
"OPTIONS\n"
"    -d, --state-dir=DIR     Persistent hardware state (created if missing):\n"
"                            flash.bin, otp.bin, retention.bin, host.bin.\n"
"    -s, --socket=PATH       ivshmem server socket (default DIR/ivshmem.sock).\n"
"    -c, --control=PATH      Control socket (default DIR/control.sock).\n"
"        --connect=DEVICE-SOCKET\n"
"                            Split mode: be the device process of the server\n"
"                            whose device socket this is, instead of serving\n"
"                            QEMU; not with --socket (the server has it).\n"
"        --load-flash=FILE   Program FILE into flash before power-on, as a\n"
"                            factory programmer does (no NOR rules); persisted.\n"
"        --load-otp=FILE     Program FILE (1024 bytes) into OTP likewise.\n"
"        --flash-size=BYTES  Flash size of a new device (default 4 MiB); an\n"
"                            existing flash.bin keeps its size.\n"
"        --no-fsync          Skip fsync in the state directory (throwaway\n"
"                            directories: a SIGKILL stays safe, a host crash not).\n"
"        --core=CORE         Who runs the firmware: host (default), the stages\n"
"                            compiled into the model; or rv32, the stage images\n"
"                            on the emulated rv32imc core: the mask ROM at every\n"
"                            reset, then the ROM_EXT and BL0 images from flash\n"
"                            that the stage before verified (docs/model.md).\n"
"        --rom-image=FILE    The mask ROM for --core=rv32, an rv32 ELF executable\n"
"                            (build/rv32/rom.elf).\n"
"        --log-level=LEVEL   error, warn, info (default) or debug. One line per\n"
"                            event on stderr: 'otattest-model: LEVEL EVENT k=v ...'.\n"
"    -h, --help              This text.\n"
"        --version           The model's version and shared-memory ABI.\n"
"\n"
"FAULT KNOBS\n"
"    Each is also a control request 'fault NAME VALUE'; VALUE 'off' clears it.\n"
"        --fault-delay=MS        Answer every mailbox request MS ms late\n"
"                                (0..600000). A request that arrives meanwhile\n"
"                                gets MBOX_BUSY at once.\n"
"        --fault-drop=on         Read requests and never run or answer them.\n"
"        --fault-corrupt-record=OFFSET[:XOR]\n"
"                                XOR (default 0xff) into byte OFFSET of the record\n"
"                                as shown in shared memory (offset 0 = the record's\n"
"                                first byte). Up to 8; applies at once and to every\n"
"                                later record.\n"
"        --fault-corrupt-response=OFFSET[:XOR]\n"
"                                The same for every response payload.\n"
"        --fault-record-length=N Report N in the record region's length field,\n"
"                                e.g. more than the region holds.\n"
"        --fault-response-length=N\n"
"                                Report N in every response header's length.\n"
"        --fault-irq-storm=COUNT[,HZ[,VECTOR]]\n"
"                                Ring the guest COUNT times at HZ (default 1000)\n"
"                                on VECTOR 0, 1 or all (default) with nothing\n"
"                                pending; runs at every guest connection.\n"
"        --fault-die-at-flash-write=N\n"
"                                Cut power during the Nth flash write (program or\n"
"                                erase) from now: the page is left torn and the\n"
"                                model kills itself with SIGKILL.\n"
"        --fault-flash-tear=HOW  How much of that write lands, a prefix of what a\n"
"                                program writes or of the page an erase erases:\n"
"                                half (default; 'off' restores it), none, byte,\n"
"                                word (32 bits), all-but-word, all (done but never\n"
"                                acknowledged) or a byte count 0..2048. The log's\n"
"                                fault-power-loss line says which write tore and\n"
"                                how much of it landed and changed.\n"
"        --fault-flash-latency=US\n"
"                                Each flash erase or program takes US\n"
"                                microseconds (0..1000000), as a real NOR part\n"
"                                does: a rotation or an update then lasts long\n"
"                                enough for the host to see it happen.\n"
"\n"
"CONTROL PROTOCOL\n"
"    A UNIX stream socket. One request line in, one reply line out:\n"
"    'ok key=value ...' or 'error NAME message', NAME a status name from\n"
"    status.h or 'usage'. Requests:\n"
"        help                    The request names.\n"
"        status                  state, detail, boot-status, boots, guest,\n"
"                                guest-peer, record-generation, shm-generation,\n"
"                                event-counter, last-seq, requests, answered,\n"
"                                refused, dropped, flash-writes, pending, ...\n"
"        power-cycle             Power off and on: a cold boot. Replies with\n"
"                                boot-status and record-generation.\n"
"        install rom_ext|bl0 a|b PATH\n"
"                                Erase the slot and program the image file at PATH\n"
"                                into it through the flash controller (what an\n"
"                                update agent's flash write does).\n"
"        otp floor rom_ext|bl0 SVN   Raise an anti-rollback floor (never lower).\n"
"        otp epoch N             Raise the identity epoch.\n"
"        otp revoke creator|owner INDEX\n"
"                                Revoke a creator (OTP) or owner (by owner config\n"
"                                index) root key.\n"
"        otp lifecycle dev|prod|prod_end\n"
"                                Leave test_unlocked (manufacturing) for good: the\n"
"                                fuse programmer's last step of personalization.\n"
"                                Any other move is OTP_LIFECYCLE_TRANSITION.\n"
"                                OTP edits count from the next boot.\n"
"        fault                   Every knob's value.\n"
"        fault NAME VALUE|off    Set or clear one knob (names as above).\n"
"        fault clear             Clear every knob.\n"
"        compromise FIELD VALUE  Play a compromised runtime until the next reset:\n"
"                                edit its RAM copy of the boot record (what\n"
"                                GET_RECORD serves and ATTEST signs). FIELD:\n"
"                                bl0-path, bl0-scheme, bl0-depth, bl0-root-key\n"
"                                (flip), min-svn, epoch, floor-bl0, lifecycle.\n"
"        stop                    Stop cleanly, state kept (like SIGTERM).\n"
"\n"
"    'otattest-model ctl' sends one request (its words joined by spaces) and\n"
"    prints the reply; --json prints it as a JSON object instead.\n"
"\n"
"EXIT STATUS\n"
"    0 stopped cleanly (ctl: reply was ok); 2 bad command line (ctl: 'usage'\n"
"    reply); otherwise the exit code of the failure's status class (status.h:\n"
"    19 device unavailable, 22 I/O, ...). Killed by SIGKILL when a\n"
"    die-at-flash-write fault fires. With --connect: 17 the server already has\n"
"    a device (MODEL_DEVICE_REFUSED); 19 no server answers at DEVICE-SOCKET, or\n"
"    it went away (MODEL_NO_SERVER).\n"
"\n"
"EXAMPLES\n"
"    otattest-model -d /tmp/dev --load-flash=flash.img --load-otp=otp.img &\n"
"    otattest-model ctl -d /tmp/dev status\n"
"    otattest-model ctl -d /tmp/dev install bl0 b bl0-v2.img\n"
"    otattest-model ctl -d /tmp/dev fault delay 250\n"
"    otattest-model server -s /tmp/ivshmem.sock --device-socket=/tmp/device.sock &\n"
"    otattest-model -d /tmp/dev --connect=/tmp/device.sock &\n"
"\n"
"SEE ALSO\n"
"    docs/model.md, docs/shm-abi.md\n";

enum {
	OPT_CONNECT = 0x100,
	OPT_LOAD_FLASH,
	OPT_LOAD_OTP,
	OPT_FLASH_SIZE,
	OPT_NO_FSYNC,
	OPT_LOG_LEVEL,
	OPT_VERSION,
	OPT_CORE,
	OPT_ROM_IMAGE,
	OPT_FAULT_BASE = 0x200, /* + index into fault_names */
};

static char *join_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = malloc(len);

	if (p)
		snprintf(p, len, "%s/%s", dir, name);
	return p;
}

static int parse_options(int argc, char **argv, struct model *m)
{
	static struct option long_opts[32] = {
		{ "state-dir", required_argument, NULL, 'd' },
		{ "socket", required_argument, NULL, 's' },
		{ "control", required_argument, NULL, 'c' },
		{ "connect", required_argument, NULL, OPT_CONNECT },
		{ "load-flash", required_argument, NULL, OPT_LOAD_FLASH },
		{ "load-otp", required_argument, NULL, OPT_LOAD_OTP },
		{ "flash-size", required_argument, NULL, OPT_FLASH_SIZE },
		{ "no-fsync", no_argument, NULL, OPT_NO_FSYNC },
		{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "core", required_argument, NULL, OPT_CORE },
		{ "rom-image", required_argument, NULL, OPT_ROM_IMAGE },
	};
	static char fault_opt_names[16][40];
	unsigned base = 13, i;
	char err[256];
	int c;

	/* --fault-NAME for every knob, from the one list fault.c keeps. */
	for (i = 0; fault_names[i] && base + i < 31; i++) {
		snprintf(fault_opt_names[i], sizeof(fault_opt_names[i]), "fault-%s", fault_names[i]);
		long_opts[base + i] = (struct option){ fault_opt_names[i], required_argument, NULL,
						       OPT_FAULT_BASE + (int)i };
	}

	while ((c = getopt_long(argc, argv, "d:s:c:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			m->opt.state_dir = optarg;
			break;
		case 's':
			m->opt.socket_path = optarg;
			break;
		case 'c':
			m->opt.control_path = optarg;
			break;
		case OPT_CONNECT:
			m->opt.connect_path = optarg;
			m->opt.role = MODEL_ROLE_DEVICE;
			break;
		case OPT_LOAD_FLASH:
			m->opt.load_flash = optarg;
			break;
		case OPT_LOAD_OTP:
			m->opt.load_otp = optarg;
			break;
		case OPT_FLASH_SIZE:
			if (otu_parse_u32(optarg, OTU_DEC_OR_HEX, 1, UINT32_MAX, &m->opt.flash_size) < 0)
				return cli_usage_error(NULL, "--flash-size: '%s' is not a size in bytes", optarg);
			break;
		case OPT_NO_FSYNC:
			m->opt.no_fsync = true;
			break;
		case OPT_CORE:
			if (strcmp(optarg, "rv32") != 0 && strcmp(optarg, "host") != 0)
				return cli_usage_error(NULL, "--core: '%s' is not rv32 or host", optarg);
			m->opt.core_rv32 = strcmp(optarg, "rv32") == 0;
			break;
		case OPT_ROM_IMAGE:
			m->opt.rom_image = optarg;
			break;
		case OPT_LOG_LEVEL:
			if (!log_level_parse(optarg, &m->opt.log_level))
				return cli_usage_error(NULL, "--log-level: '%s' is not error, warn, info or debug",
						   optarg);
			break;
		case 'h':
			fputs(help_text, stdout);
			exit(0);
		case OPT_VERSION:
			cli_print_version();
			exit(0);
		default:
			if (c >= OPT_FAULT_BASE && c < OPT_FAULT_BASE + 16) {
				const char *name = fault_names[c - OPT_FAULT_BASE];

				if (fault_set(&m->faults, name, optarg, err, sizeof(err)) < 0)
					return cli_usage_error(NULL, "%s", err);
				break;
			}
			return cli_usage_error(NULL, "unknown option (see --help)");
		}
	}
	if (optind < argc)
		return cli_usage_error(NULL, "unexpected argument '%s'", argv[optind]);
	if (!m->opt.state_dir)
		return cli_usage_error(NULL, "--state-dir is required");
	if (m->opt.core_rv32 && !m->opt.rom_image)
		return cli_usage_error(NULL, "--core=rv32 needs --rom-image (the mask ROM, build/rv32/rom.elf)");
	if (m->opt.role == MODEL_ROLE_DEVICE) {
		/* The server serves QEMU. */
		if (m->opt.socket_path)
			return cli_usage_error(NULL, "--socket: with --connect the server serves QEMU");
	} else if (!m->opt.socket_path) {
		m->opt.socket_path = join_path(m->opt.state_dir, "ivshmem.sock");
		if (!m->opt.socket_path)
			return cli_usage_error(NULL, "out of memory");
	}
	if (!m->opt.control_path)
		m->opt.control_path = join_path(m->opt.state_dir, "control.sock");
	if (!m->opt.control_path)
		return cli_usage_error(NULL, "out of memory");
	return 0;
}

static int exit_code_for(ota_status_t st)
{
	return ota_class_exit_code(ota_status_class(st));
}

static int run(struct model *m)
{
	ota_status_t boot;
	int r;

	if (model_event_new(m) < 0)
		return exit_code_for(OTA_HOST_INTERNAL);

	/* A device process gets its memory from the server (link_connect). */
	if (m->opt.role == MODEL_ROLE_WHOLE) {
		r = shm_create(&m->shm);
		if (r < 0) {
			log_error("shm-create-failed", "errno=%d", -r);
			return exit_code_for(OTA_HOST_INTERNAL);
		}
	}
	r = device_open(m);
	if (r < 0)
		return exit_code_for(OTA_HOST_IO);
	if (m->faults.die_at_flash_write)
		device_set_flash_fault(m, m->faults.die_at_flash_write);
	device_set_flash_tear(m);
	device_set_flash_latency(m);
	if (m->opt.role == MODEL_ROLE_DEVICE) {
		r = link_connect(m);
		if (r < 0)
			return exit_code_for(r == -EBUSY ? OTA_MODEL_DEVICE_REFUSED : OTA_MODEL_NO_SERVER);
	} else {
		r = server_start(m);
		if (r < 0) {
			log_error("listen-failed", "socket=%s errno=%d reason=\"%s\"", m->opt.socket_path,
				  -r, strerror(-r));
			return exit_code_for(OTA_HOST_IO);
		}
	}
	boot = device_power_cycle(m);
	r = watchdog_start(m);
	if (r < 0) {
		log_error("watchdog-start-failed", "errno=%d", -r);
		return exit_code_for(OTA_HOST_INTERNAL);
	}
	r = control_start(m);
	if (r < 0) {
		log_error("listen-failed", "socket=%s errno=%d reason=\"%s\"", m->opt.control_path,
			  -r, strerror(-r));
		return exit_code_for(OTA_HOST_IO);
	}
	if (m->opt.role == MODEL_ROLE_DEVICE)
		log_info("ready", "boot-status=%s connect=%s control=%s", status_str(boot),
			 m->opt.connect_path, m->opt.control_path);
	else
		log_info("ready", "boot-status=%s socket=%s control=%s", status_str(boot),
			 m->opt.socket_path, m->opt.control_path);
	sd_notifyf(0, "READY=1\nSTATUS=boot %s", status_str(boot));

	r = sd_event_loop(m->event);
	sd_notify(0, "STOPPING=1");
	return r < 0 ? exit_code_for(OTA_HOST_INTERNAL) : m->exit_code;
}

static void teardown(struct model *m)
{
	storm_stop(m);
	watchdog_stop(m);
	mbox_cancel_pending(m);
	m->mbox.delay_src = sd_event_source_disable_unref(m->mbox.delay_src);
	control_stop(m);
	if (m->opt.role == MODEL_ROLE_DEVICE)
		link_close(m);
	else
		server_stop(m);
	device_close(m);
	shm_destroy(&m->shm);
	m->event = sd_event_unref(m->event);
}

int main(int argc, char **argv)
{
	static struct model m;
	int r;

	if (argc > 1 && strcmp(argv[1], "ctl") == 0)
		return ctl_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "server") == 0)
		return server_main(argc - 1, argv + 1);

	m.opt.log_level = LOG_LVL_INFO;
	m.server.seat = (struct seat)SEAT_CLOSED;
	m.server.device = (struct peer)PEER_INIT;
	m.server.guest = (struct peer)PEER_INIT;
	ivshmem_client_init(&m.link.cl);
	m.control.listen_fd = -1;
	for (unsigned i = 0; i < CONTROL_MAX_CLIENTS; i++)
		m.control.client[i].fd = -1;
	m.shm.fd = -1;
	m.storm.fd = -1;

	r = parse_options(argc, argv, &m);
	if (r)
		return r;
	log_set_level(m.opt.log_level);
	r = run(&m);
	teardown(&m);
	if (r == 0)
		log_info("stopped", "state-dir=%s", m.opt.state_dir);
	return r;
}
