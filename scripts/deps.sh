#!/usr/bin/env bash
# Install what otattest needs to build and test, from Debian's mirror, the
# npm registry and PyPI. Idempotent: installs only what is missing.
#   scripts/deps.sh          install missing packages (needs root)
#   scripts/deps.sh --check  exit 0 when nothing is missing, 1 otherwise
#   scripts/deps.sh --python only Python 3.11 (Debian's when there is none)
#                            and the pinned PyPI packages (tests/interop's
#                            Python checks; tests/tools/deps-chroot.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-install}
case $mode in
install | --check | --python) ;;
*) echo "usage: scripts/deps.sh [--check | --python]" >&2; exit 2 ;;
esac

# One package list for the whole project; why each is here:
packages=(
	build-essential pkg-config          # host toolchain
	check libsubunit-dev                # C unit tests
	libssl-dev openssl                  # OpenSSL 3 EVP; openssl verify in tests
	libsystemd-dev systemd dbus         # sd-bus/sd-event/sd-device/sd-journal; guest init and bus
	dbus-broker                         # the other system bus the e2e daemon scenarios run on (E2E_BUS)
	debhelper dh-dkms dkms lintian      # make deb: the Debian packages (debian/), judged by lintian
	abigail-tools                       # abidw/abidiff: libotattest.so's ABI against libotattest/abi/ (tests/tools/lib-abi.sh, make abi-baseline)
	debootstrap                         # tests/tools/deps-chroot.sh: this script on a minimal Debian 12
	bash-completion                     # tests/tools/completion.sh loads the completion as bash does
	libmnl-dev                          # generic netlink client
	libjson-c-dev                       # every JSON document the host programs print
	clang llvm libclang-rt-14-dev       # libFuzzer, sanitizers
	gcc-riscv64-unknown-elf             # rv32imc -Os size build of the firmware
	picolibc-riscv64-unknown-elf        # <string.h> for the rv32 build (mem*/str* only)
	libunicorn-dev                      # the emulated rv32 core (qemu-model/core, Unicorn 2.0.1); libelf-dev loads its images
	qemu-system-x86 qemu-system-data    # the guest machine (and the ivshmem spec)
	linux-image-amd64 linux-headers-amd64 # guest kernel + matching headers for kbuild
	linux-image-6.12-amd64 linux-headers-6.12-amd64 # the second kernel series the module is built and tested on (docs/kernel-abi.md)
	flex bison bc libelf-dev            # building the debug guest kernel from linux-source-6.12 (scripts/kernel-debug.sh)
	sparse                              # make C=1 on the module
	busybox-static cpio kmod xz-utils zstd # guest initramfs
	python3-cbor2 python3-cryptography python3-dbus # independent evidence checks
	python3-yaml python3-jsonschema     # the netlink spec: YNL reads and validates it
	linux-source-6.12                   # YNL's ynl-gen-c (kernel/netlink/ynl-gen.sh, ynl.sha256)
	swtpm swtpm-tools tpm2-abrmd tpm2-tools libtss2-dev # TPM comparison benchmark
	libtss2-tcti-tabrmd0                # ESAPI clients reach tpm2-abrmd through it
	valgrind                            # callgrind instruction counts in benchmarks
	jq                                  # JSON checks in shell tests
	prometheus-node-exporter            # e2e daemon-metrics-timer: Debian's exporter reads the shipped timer's textfile
	libfuse3-dev fuse3                  # test_daemon_bus_update: an install image on a FUSE file that never answers
	prometheus                          # promtool checks and tests the shipped alert rules (tests/tools/prometheus-rules.sh)
	dpkg-dev meson libglib2.0-dev libjson-glib-dev libxmlb-dev libjcat-dev libzstd-dev \
	libcurl4-gnutls-dev libusb-1.0-0-dev libarchive-dev liblzma-dev zlib1g-dev libsqlite3-dev \
	python3-jinja2 python3-packaging hwdata # fwupd 2.0.20 from Debian's source with the otattest plugin (scripts/fwupd-build.sh; deb-src, docs/update-agents.md)
	gcab                                # make cab: the cabinet fwupdmgr installs
	rauc rauc-service squashfs-tools    # e2e rauc-update: RAUC 1.8 with the otattest backend and install handler
	libglib2.0-dev-bin python3-dbus-next # e2e dbus-clients: gdbus-codegen's C client, the Python client
	python3.11 python3-pip python3-venv # the interop checks' Python (Debian 12's 3.11.2 serves): the PyPI pins below go into a venv when it is Debian's
	postgresql sqlite3 haproxy curl     # make bench-fleet: Veraison's stores in PostgreSQL (VERAISON_STORE=postgres) or sqlite, two verification instances behind haproxy (deploy/veraison.sh), the policy through its management API (curl)
)

# Toolchains no Debian 12 package provides at the version the tests need:
# each is checked first, and a missing one stops deps.sh at once with one
# message saying what is missing and where it comes from (never halfway
# through make test). Python is not one: Debian 12's python3.11 serves
# (the packages list has it; the PyPI pins go into a venv, below).
#   node, npm    node >= the newest "engines" minimum in tests/interop's
#                lock file (@noble/*: 20.19.0); Debian 12's nodejs is 18
#   go           Go >= the version go.mod names (libotattest/tools/veraison,
#                tests/interop/go): Debian 12's golang-go is 1.19
go_want=$(sed -n 's/^go //p' "$here/libotattest/tools/veraison/go.mod")
node_want=$(grep -o '"node": *">= *[0-9][0-9.]*"' "$here/tests/interop/package-lock.json" 2>/dev/null |
	grep -o '[0-9][0-9.]*' | sort -V | tail -n1)
# version_ok WANT HAVE: HAVE is at least WANT.
version_ok() {
	[ -n "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$1" ]
}
toolchains_missing=()
node_have=$(node --version 2>/dev/null | sed 's/^v//' || true)
if ! version_ok "${node_want:-0}" "$node_have"; then
	toolchains_missing+=("node >= ${node_want:-any} (have: ${node_have:-none}; Debian 12's nodejs is 18: nodejs.org's release or NodeSource's nodejs package)")
fi
command -v npm >/dev/null || toolchains_missing+=("npm (comes with that node)")
go_have=$(go env GOVERSION 2>/dev/null | sed 's/^go//' || true)
if ! version_ok "$go_want" "$go_have"; then
	toolchains_missing+=("go >= $go_want (have: ${go_have:-none}; Go's own release for linux-amd64 on PATH)")
fi
if [ "$mode" = --python ]; then
	packages=(python3.11 python3-pip python3-venv)
	toolchains_missing=()
fi
if [ ${#toolchains_missing[@]} -gt 0 ]; then
	msg=$(printf '%s; ' "${toolchains_missing[@]}")
	echo "deps: missing toolchains: ${msg%; }" >&2
	exit 1
fi

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

npm_dir="$here/tests/interop"
npm_missing=0
if [ -f "$npm_dir/package-lock.json" ] && [ "$mode" != --python ]; then
	# Each package package.json names must be installed, not just some.
	for dep in $(cd "$npm_dir" && node -p "Object.keys(require('./package.json').dependencies).join(' ')"); do
		[ -d "$npm_dir/node_modules/$dep" ] || npm_missing=1
	done
fi

# PyPI packages for tests/interop, each at exactly this version, for the
# python3.11 on PATH. One whose pip may install into it (a pyenv build)
# gets them in its own site-packages. Debian's is "externally managed"
# (PEP 668: its pip refuses), so they go into a virtual environment,
# $venv, and /usr/local/bin/python3.11 (before /usr/bin on Debian's PATH)
# runs the venv's: the tests' python3.11 is then it.
venv=/opt/otattest/python3.11
# externally_managed PY: PY's pip refuses to install into it (PEP 668).
externally_managed() {
	local stdlib
	stdlib=$("$1" -c 'import sysconfig; print(sysconfig.get_path("stdlib"))' 2>/dev/null) &&
		[ -f "$stdlib/EXTERNALLY-MANAGED" ] && [ "$("$1" -c 'import sys; print(sys.prefix == sys.base_prefix)')" = True ]
}
pypi=(
	PyJWT==2.15.1 cryptography==50.0.2  # ear_check.py: the EAR's ES256 JWT (PyJWT's ES256 needs cryptography)
	cwt==3.3.0 cbor2==5.9.0 pyhpke==0.6.5  # evidence_cwt.py: evidence v2 as a CWT (cwt's own dependencies pinned too)
	cddl-verifier==1.5.3 cbor-diag==1.2.0  # cddl_check.py: the specs' CDDL on evidence, CoRIM, EAR (docs/verifier.md, "Grammars")
)
py311=$(command -v python3.11 || true)
pypi_missing=()
for p in "${pypi[@]}"; do
	have=""
	[ -n "$py311" ] && have=$("$py311" -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' \
		"${p%%==*}" 2>/dev/null || true)
	[ "$have" = "${p#*==}" ] || pypi_missing+=("$p")
done

# The Go modules otattest-veraison is built from, as go.sum pins them, in
# Go's module cache: the package build (make deb, tests/tools/deb.sh) runs
# offline (GOPROXY=off, debian/rules) and takes them from there. The check
# asks Go offline; the install mode downloads them (the Go module proxy).
gomods_dir=libotattest/tools/veraison
gomods_missing=0
[ "$mode" = --python ] ||
	(cd "$here/$gomods_dir" && GOPROXY=off GOFLAGS=-mod=readonly go mod download) >/dev/null 2>&1 || gomods_missing=1

# scripts/fwupd-build.sh fetches Debian's fwupd source package: deb-src
# must be in the apt sources (Debian 12's debian.sources lists only deb).
debsrc_missing=0
[ "$mode" = --python ] ||
grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources ||
	grep -qs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list || debsrc_missing=1

if [ "$mode" = --check ]; then
	[ $debsrc_missing = 1 ] && echo "deps: no deb-src in the apt sources (scripts/fwupd-build.sh needs it)" >&2
	[ ${#missing[@]} -eq 0 ] && [ $npm_missing -eq 0 ] && [ ${#pypi_missing[@]} -eq 0 ] && [ $debsrc_missing = 0 ] &&
		[ $gomods_missing = 0 ] && exit 0
	[ ${#missing[@]} -gt 0 ] && echo "deps: missing Debian packages: ${missing[*]}" >&2
	[ $npm_missing -eq 1 ] && echo "deps: npm packages for tests/interop are not installed" >&2
	[ ${#pypi_missing[@]} -gt 0 ] && echo "deps: missing PyPI packages for python3.11: ${pypi_missing[*]}" >&2
	[ $gomods_missing = 1 ] && echo "deps: the Go modules of $gomods_dir/go.sum are not in Go's module cache (make deb builds offline)" >&2
	exit 1
fi

if [ $debsrc_missing = 1 ] && [ -f /etc/apt/sources.list.d/debian.sources ] && [ "$(id -u)" -eq 0 ]; then
	echo "deps: adding deb-src to /etc/apt/sources.list.d/debian.sources (Debian's fwupd source)"
	sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
	apt-get update -q
fi

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: need root to install: ${missing[*]}" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# dbus-broker's package makes itself this machine's system bus (an alias
	# dbus.service in /etc) from the next boot on. The tests only need it
	# installed: the e2e guest picks its bus per scenario. Keep the bus the
	# machine had.
	bus_alias=/etc/systemd/system/dbus.service
	had_alias=0
	[ -e "$bus_alias" ] || [ -L "$bus_alias" ] && had_alias=1
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
	if [ $had_alias = 0 ] && [ "$(readlink "$bus_alias" 2>/dev/null)" = /lib/systemd/system/dbus-broker.service ]; then
		rm -f "$bus_alias" /etc/systemd/user/dbus.service
		echo "deps: dbus-broker installed, not enabled: the system bus stays dbus-daemon"
	fi
fi

if [ $npm_missing -eq 1 ]; then
	echo "deps: installing pinned npm packages in tests/interop"
	# npm install with the lock installs exactly the locked versions and
	# leaves the lock alone. Not npm ci: cbor-x's optional native helper
	# (cbor-extract) names per-platform packages that the registry here
	# does not serve, so the lock cannot list them and npm ci calls it out
	# of sync. No install scripts: cbor-x's pure JavaScript decoder is the
	# one the tests use, and nothing is built from the network.
	(cd "$npm_dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

if [ ${#pypi_missing[@]} -gt 0 ]; then
	py311=$(command -v python3.11 || true) # Debian's, if apt just installed it
	if [ -z "$py311" ]; then
		echo "deps: python3.11 is not on PATH; cannot install ${pypi_missing[*]}" >&2
		exit 1
	fi
	if externally_managed "$py311"; then
		echo "deps: $py311 is externally managed (Debian's): the PyPI packages go into the venv $venv"
		[ -x "$venv/bin/python3.11" ] || "$py311" -m venv "$venv"
		if [ ! -e /usr/local/bin/python3.11 ]; then
			mkdir -p /usr/local/bin
			printf '#!/bin/sh\n# scripts/deps.sh: the venv with otattest'"'"'s pinned PyPI packages\nexec %s/bin/python3.11 "$@"\n' \
				"$venv" >/usr/local/bin/python3.11
			chmod 755 /usr/local/bin/python3.11
		fi
		py311=$venv/bin/python3.11
	fi
	echo "deps: installing pinned PyPI packages for $py311: ${pypi_missing[*]}"
	"$py311" -m pip install --quiet --disable-pip-version-check "${pypi_missing[@]}"
	[ "$(command -v python3.11)" = /usr/local/bin/python3.11 ] || [ "$py311" = "$(command -v python3.11)" ] ||
		echo "deps: note: python3.11 on PATH is $(command -v python3.11), not $py311" >&2
fi

if [ $gomods_missing = 1 ]; then
	echo "deps: downloading the Go modules of $gomods_dir/go.sum into Go's module cache"
	(cd "$here/$gomods_dir" && GOFLAGS=-mod=readonly go mod download)
fi

# The guest kernel and the headers the module is built against must match.
[ "$mode" = --python ] || "$here/scripts/kernel-version.sh" >/dev/null
echo "deps: all present"

