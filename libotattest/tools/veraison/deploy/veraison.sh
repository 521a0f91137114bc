#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Veraison's services with the otattest scheme, on loopback, in one
# directory: its config, sqlite stores, EAR signing key, logs and pids.
# What `make veraison` built (build/veraison) runs; nothing is installed.
#
#   veraison.sh start DIR   write DIR/config.yaml, create the stores and the
#                           EAR key, start vts, provisioning, verification
#                           and management; wait until each answers; print
#                           the provisioning and verification URLs
#   veraison.sh stop DIR    stop the services this script started in DIR
#
# Ports: free ones the kernel picks, unless VERAISON_PORTS="vts prov verif
# mgmt" is set. DIR/env has the URLs for scripts: PROVISIONING_URL,
# VERIFICATION_URL, MANAGEMENT_URL.
#
# VERAISON_POLICY=FILE: otattest-verify's policy file for the otattest
# scheme (its plugin reads OTATTEST_POLICY from the vts's environment).
#
# VERAISON_TLS=1: HTTPS for the three APIs and mutual TLS between the
# services and vts, as Veraison's own deployments run them, with a CA and
# a certificate per service made here with openssl (DIR/certs); DIR/env
# then also has TLS_CA, the CA clients give otattest-veraison --tls-ca.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
VERAISON_BUILD=${VERAISON_BUILD:-$top/build/veraison}
services=(vts-service provisioning-service verification-service management-service)

die() { echo "veraison.sh: $*" >&2; exit 1; }

free_ports() {
	python3 -c '
import socket
socks = []
for _ in range(4):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))'
}

start() {
	local dir=$1
	for s in "${services[@]}"; do
		[ -x "$VERAISON_BUILD/bin/$s" ] || die "$VERAISON_BUILD/bin/$s is missing: run make veraison"
	done
	[ -x "$VERAISON_BUILD/plugins/scheme-otattest.plugin" ] || die "the otattest plugin is missing: run make veraison"
	mkdir -p "$dir/stores" "$dir/logs" "$dir/plugins"
	dir=$(cd "$dir" && pwd)
	# Only otattest's plugin: Veraison loads every binary in the directory.
	ln -sf "$VERAISON_BUILD/plugins/scheme-otattest.plugin" "$dir/plugins/"
	read -r vts prov verif mgmt <<<"${VERAISON_PORTS:-$(free_ports)}"
	for t in ta en po; do
		rm -f "$dir/stores/$t-store.sql"
		sqlite3 "$dir/stores/$t-store.sql" \
			'CREATE TABLE kvstore (kv_key text NOT NULL, kv_val text NOT NULL);'
	done
	"$VERAISON_BUILD/bin/otattest-veraison" ear-key --out "$dir/ear-key.jwk" --pub "$dir/ear-key.pub.pem"
	local scheme=http tls=false
	if [ "${VERAISON_TLS:-0}" = 1 ]; then
		make_certs "$dir/certs"
		scheme=https tls=true
	fi
	cat >"$dir/config.yaml" <<-YAML
	# Written by veraison.sh: loopback only, $scheme; a test and development
	# deployment (docs/veraison.md says what a production one changes).
	logging:
	  level: info
	  output-paths: [stdout]
	provisioning:
	  listen-addr: 127.0.0.1:$prov
	  protocol: $scheme
	  cert: $dir/certs/provisioning.crt
	  cert-key: $dir/certs/provisioning.key
	verification:
	  listen-addr: 127.0.0.1:$verif
	  protocol: $scheme
	  cert: $dir/certs/verification.crt
	  cert-key: $dir/certs/verification.key
	management:
	  listen-addr: 127.0.0.1:$mgmt
	  protocol: $scheme
	  cert: $dir/certs/management.crt
	  cert-key: $dir/certs/management.key
	vts:
	  server-addr: 127.0.0.1:$vts
	  listen-addr: 127.0.0.1:$vts
	  tls: $tls
	  cert: $dir/certs/vts.crt
	  cert-key: $dir/certs/vts.key
	  ca-certs: [$dir/certs/rootCA.crt]
	ear-signer:
	  alg: ES256
	  key: $dir/ear-key.jwk
	plugin:
	  backend: go-plugin
	  go-plugin:
	    dir: $dir/plugins/
	ta-store:
	  backend: sql
	  sql: {driver: sqlite3, datasource: $dir/stores/ta-store.sql}
	en-store:
	  backend: sql
	  sql: {driver: sqlite3, datasource: $dir/stores/en-store.sql}
	po-store:
	  backend: sql
	  sql: {driver: sqlite3, datasource: $dir/stores/po-store.sql}
	po-agent:
	  backend: opa
	auth:
	  backend: none
	YAML
	cat >"$dir/env" <<-ENV
	PROVISIONING_URL=$scheme://127.0.0.1:$prov
	VERIFICATION_URL=$scheme://127.0.0.1:$verif
	MANAGEMENT_URL=$scheme://127.0.0.1:$mgmt
	ENV
	if [ "$tls" = true ]; then echo "TLS_CA=$dir/certs/rootCA.crt" >>"$dir/env"; fi
	local s
	for s in "${services[@]}"; do
		# Each in its own session so stop can end it and its plugins.
		(cd "$dir" && OTATTEST_POLICY=${VERAISON_POLICY:-} exec setsid "$VERAISON_BUILD/bin/$s" \
			--config "$dir/config.yaml" >"$dir/logs/$s.log" 2>&1) &
		echo $! >"$dir/$s.pid"
		[ "$s" = vts-service ] && wait_port "$dir" "$s" "$vts"
	done
	wait_port "$dir" provisioning-service "$prov"
	wait_port "$dir" verification-service "$verif"
	wait_port "$dir" management-service "$mgmt"
	cat "$dir/env"
}

# make_certs DIR: a CA and, per service, a P-256 certificate for
# 127.0.0.1 good for TLS servers and clients (vts asks the others for
# theirs).
make_certs() {
	local d=$1 s
	mkdir -p "$d"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
		-subj "/CN=veraison.sh test CA" -keyout "$d/rootCA.key" -out "$d/rootCA.crt" 2>/dev/null
	for s in vts provisioning verification management; do
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$s" \
			-keyout "$d/$s.key" -out "$d/$s.csr" 2>/dev/null
		openssl x509 -req -in "$d/$s.csr" -CA "$d/rootCA.crt" -CAkey "$d/rootCA.key" \
			-CAcreateserial -days 30 -out "$d/$s.crt" \
			-extfile <(printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n') \
			2>/dev/null
	done
}

# Wait up to 30 s for a service's port to accept connections.
wait_port() {
	local dir=$1 s=$2 port=$3 i
	for ((i = 0; i < 300; i++)); do
		if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then
			return 0
		fi
		kill -0 "$(cat "$dir/$s.pid")" 2>/dev/null || { tail -20 "$dir/logs/$s.log" >&2; die "$s exited"; }
		sleep 0.1
	done
	tail -20 "$dir/logs/$s.log" >&2
	die "$s does not answer on 127.0.0.1:$port"
}

stop() {
	local dir=$1 s pid
	for s in "${services[@]}"; do
		[ -f "$dir/$s.pid" ] || continue
		pid=$(cat "$dir/$s.pid")
		# The service's session: it and the scheme plugins it started.
		kill -TERM -- "-$pid" 2>/dev/null || true
		rm -f "$dir/$s.pid"
	done
}

case "${1:-}" in
start) [ $# = 2 ] || die "usage: veraison.sh start DIR"; start "$2" ;;
stop) [ $# = 2 ] || die "usage: veraison.sh stop DIR"; stop "$2" ;;
*) die "usage: veraison.sh start|stop DIR" ;;
esac
