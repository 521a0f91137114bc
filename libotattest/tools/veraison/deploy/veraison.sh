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
# scheme, through Veraison's policy management: `otattest-veraison
# policy-rego FILE` turns it into Rego, which start creates and activates
# for scheme OTATTEST with the management API once the services answer.
# VERAISON_POLICY_VIA=env instead hands the file to the plugin in
# OTATTEST_POLICY (the vts's environment), the developer fallback.
#
# VERAISON_STORE=postgres: the three stores (trust anchors, endorsements,
# policies) as tables of a PostgreSQL database (Veraison's pgx driver)
# instead of sqlite files: a cluster of Debian's postgresql made for this
# deployment in a directory of its own under /tmp (owned by the postgres
# user, since PostgreSQL refuses to run as root), trust authentication on
# 127.0.0.1 only; stop removes it.
#
# VERAISON_VERIFIERS=2: two verification-service instances (the second with
# its own config, DIR/config-2.yaml) behind Debian's haproxy, which owns
# VERIFICATION_URL: round robin for new sessions, and a session's later
# requests to the instance that made it (Veraison keeps a session in that
# instance's memory): the session id of the response's Location is stuck
# to its server, the request path's id looked up. Not with VERAISON_TLS.
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
	local store_yaml t
	if [ "${VERAISON_STORE:-sqlite}" = postgres ]; then
		local pg
		pg=$(pg_start "$dir")
		store_yaml=$(for t in ta en po; do
			printf '%s-store:\n  backend: sql\n  sql: {driver: pgx, datasource: "%s", tablename: %s_store}\n' \
				"$t" "postgres://postgres@127.0.0.1:$pg/veraison?sslmode=disable" "$t"
		done)
	else
		for t in ta en po; do
			rm -f "$dir/stores/$t-store.sql"
			sqlite3 "$dir/stores/$t-store.sql" \
				'CREATE TABLE kvstore (kv_key text NOT NULL, kv_val text NOT NULL);'
		done
		store_yaml=$(for t in ta en po; do
			printf '%s-store:\n  backend: sql\n  sql: {driver: sqlite3, datasource: %s}\n' \
				"$t" "$dir/stores/$t-store.sql"
		done)
	fi
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
	$store_yaml
	po-agent:
	  backend: opa
	auth:
	  backend: none
	YAML
	local public=$verif verif2 lb
	if [ "${VERAISON_VERIFIERS:-1}" = 2 ]; then
		[ "$tls" = false ] || die "VERAISON_VERIFIERS=2 is not made for VERAISON_TLS=1"
		command -v haproxy >/dev/null || die "haproxy is not installed (Debian's haproxy)"
		read -r verif2 lb _ _ <<<"$(free_ports)"
		public=$lb
		sed "s/^  listen-addr: 127.0.0.1:$verif\$/  listen-addr: 127.0.0.1:$verif2/" "$dir/config.yaml" \
			>"$dir/config-2.yaml"
		cat >"$dir/haproxy.cfg" <<-CFG
		# Written by veraison.sh: two verification instances, one URL.
		defaults
		  mode http
		  timeout connect 5s
		  timeout client 60s
		  timeout server 60s
		frontend verification
		  bind 127.0.0.1:$lb
		  default_backend verifiers
		backend verifiers
		  balance roundrobin
		  stick-table type string len 64 size 1m expire 10m
		  # Location: session/<id>; a session's requests: /challenge-response/v1/session/<id>
		  stick store-response res.hdr(Location),field(2,/)
		  stick match path,field(5,/)
		  server v1 127.0.0.1:$verif
		  server v2 127.0.0.1:$verif2
		CFG
	fi
	cat >"$dir/env" <<-ENV
	PROVISIONING_URL=$scheme://127.0.0.1:$prov
	VERIFICATION_URL=$scheme://127.0.0.1:$public
	MANAGEMENT_URL=$scheme://127.0.0.1:$mgmt
	ENV
	if [ "$tls" = true ]; then echo "TLS_CA=$dir/certs/rootCA.crt" >>"$dir/env"; fi
	local s policy_env=
	[ "${VERAISON_POLICY_VIA:-management}" = env ] && policy_env=${VERAISON_POLICY:-}
	for s in "${services[@]}"; do
		# Each in its own session so stop can end it and its plugins.
		(cd "$dir" && OTATTEST_POLICY=$policy_env exec setsid "$VERAISON_BUILD/bin/$s" \
			--config "$dir/config.yaml" >"$dir/logs/$s.log" 2>&1) &
		echo $! >"$dir/$s.pid"
		[ "$s" = vts-service ] && wait_port "$dir" "$s" "$vts"
	done
	if [ -n "${verif2:-}" ]; then
		(cd "$dir" && OTATTEST_POLICY=$policy_env exec setsid \
			"$VERAISON_BUILD/bin/verification-service" --config "$dir/config-2.yaml" \
			>"$dir/logs/verification-service-2.log" 2>&1) &
		echo $! >"$dir/verification-service-2.pid"
		(cd "$dir" && exec setsid haproxy -db -f "$dir/haproxy.cfg" >"$dir/logs/haproxy.log" 2>&1) &
		echo $! >"$dir/haproxy.pid"
	fi
	wait_port "$dir" provisioning-service "$prov"
	wait_port "$dir" verification-service "$verif"
	wait_port "$dir" management-service "$mgmt"
	if [ -n "${verif2:-}" ]; then
		wait_port "$dir" verification-service-2 "$verif2"
		wait_port "$dir" haproxy "$lb"
	fi
	if [ -n "${VERAISON_POLICY:-}" ] && [ -z "$policy_env" ]; then
		set_policy "$dir" "$scheme://127.0.0.1:$mgmt" "$VERAISON_POLICY"
	fi
	cat "$dir/env"
}

# set_policy DIR MANAGEMENT_URL FILE: the policy file as Rego, created and
# activated for the otattest scheme through Veraison's management API.
set_policy() {
	local dir=$1 url=$2 file=$3 uuid
	local curl=(curl -sf)
	[ -f "$dir/certs/rootCA.crt" ] && curl+=(--cacert "$dir/certs/rootCA.crt")
	"$VERAISON_BUILD/bin/otattest-veraison" policy-rego "$file" >"$dir/policy.rego" ||
		die "$file: not a policy otattest-veraison policy-rego takes"
	uuid=$("${curl[@]}" -X POST -H "Content-Type: application/vnd.veraison.policy.opa" \
		-H "Accept: application/vnd.veraison.policy+json" --data-binary @"$dir/policy.rego" \
		"$url/management/v1/policy/OTATTEST?name=otattest" | jq -r .uuid) ||
		die "the management service refused the policy (see $dir/logs/management-service.log)"
	"${curl[@]}" -o /dev/null -X POST "$url/management/v1/policy/OTATTEST/$uuid/activate" ||
		die "the management service did not activate policy $uuid"
}

# pg_start DIR: a PostgreSQL cluster for this deployment, its database
# "veraison" with the three stores' tables; prints its port. The cluster's
# directory is named in DIR/pgdir for stop.
pg_start() {
	local dir=$1 bin pgdir port as=() t
	bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	[ -x "$bin/initdb" ] || die "PostgreSQL is not installed (Debian's postgresql)"
	pgdir=$(mktemp -d /tmp/veraison-pg.XXXXXX)
	echo "$pgdir" >"$dir/pgdir"
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$pgdir"
		as=(runuser -u postgres --)
	fi
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"${as[@]}" "$bin/initdb" -D "$pgdir/data" -A trust -U postgres >"$pgdir/initdb.log" 2>&1 ||
		die "initdb failed: $pgdir/initdb.log"
	"${as[@]}" "$bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/postgres.log" -w \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $pgdir" start >/dev/null ||
		die "PostgreSQL did not start: $pgdir/postgres.log"
	psql -q -h 127.0.0.1 -p "$port" -U postgres -c 'CREATE DATABASE veraison' >/dev/null
	for t in ta en po; do
		psql -q -h 127.0.0.1 -p "$port" -U postgres -d veraison \
			-c "CREATE TABLE ${t}_store (kv_key text NOT NULL, kv_val text NOT NULL)" >/dev/null
	done
	echo "$port"
}

pg_stop() {
	local dir=$1 pgdir bin as=()
	[ -f "$dir/pgdir" ] || return 0
	pgdir=$(cat "$dir/pgdir")
	bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	[ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
	"${as[@]}" "$bin/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 || true
	case $pgdir in /tmp/veraison-pg.*) rm -rf "$pgdir" ;; esac
	rm -f "$dir/pgdir"
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
	for s in "${services[@]}" verification-service-2 haproxy; do
		[ -f "$dir/$s.pid" ] || continue
		pid=$(cat "$dir/$s.pid")
		# The service's session: it and the scheme plugins it started.
		kill -TERM -- "-$pid" 2>/dev/null || true
		rm -f "$dir/$s.pid"
	done
	pg_stop "$dir"
}

case "${1:-}" in
start) [ $# = 2 ] || die "usage: veraison.sh start DIR"; start "$2" ;;
stop) [ $# = 2 ] || die "usage: veraison.sh stop DIR"; stop "$2" ;;
*) die "usage: veraison.sh start|stop DIR" ;;
esac
