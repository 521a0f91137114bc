# SPDX-License-Identifier: MIT
# The shipped metrics timer (issue 19, item 5) in the systemd guest:
# otattest-metrics.timer starts otattest-metrics.service (the shipped
# unit, its hardening untouched, pointed at the build's otattestctl), which
# writes /var/lib/prometheus/node-exporter/otattest.prom with the key
# names from /etc/otattest/key-names; Debian's prometheus-node-exporter,
# on loopback with only the textfile collector, serves the otattest
# series with node_textfile_scrape_error 0.
E2E_DESCRIPTION="otattest-metrics.timer writes the textfile; prometheus-node-exporter serves it without a scrape error"
E2E_MODE=systemd
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service
	build/systemd/otattest-metrics.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c systemd/otattest-metrics.timer qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

TEXTFILE_DIR=/var/lib/prometheus/node-exporter
EXPORTER=/usr/bin/prometheus-node-exporter

host_prepare() {
	[ -x "$EXPORTER" ] || { echo "$EXPORTER is missing: scripts/deps.sh installs prometheus-node-exporter"; return 1; }
	daemon_provision || return 1
	daemon_key_names
}

guest_setup() {
	local src=$E2E_SRC u
	daemon_guest_setup
	# The package's units, or the tree's pointed at its otattestctl; the
	# drop-ins only keep the boot from pulling in sysinit.target.
	if [ "$DAEMON_FROM" = tree ]; then
		sed "s|^ExecStart=[^ ]*|ExecStart=$src/build/otattestctl|" "$src/build/systemd/otattest-metrics.service" \
			>/etc/systemd/system/otattest-metrics.service
		cp "$src/systemd/otattest-metrics.timer" /etc/systemd/system/
	fi
	for u in otattest-metrics.service otattest-metrics.timer; do
		mkdir -p /etc/systemd/system/$u.d
		printf '[Unit]\nDefaultDependencies=no\n' >/etc/systemd/system/$u.d/e2e.conf
	done
}

scrape() {
	curl -sf --max-time 10 http://127.0.0.1:9100/metrics >/tmp/scrape.txt
}

guest_main() {
	local signer short exporter
	daemon_install_key_names
	signer=$(cat "$E2E_OUT/signer.id")
	short=${signer:0:16}
	daemon_start ready
	[ -d "$TEXTFILE_DIR" ] || e2e_fail "$TEXTFILE_DIR missing: prometheus-node-exporter is not installed"
	rm -f "$TEXTFILE_DIR/otattest.prom"

	# The timer's first run comes 5 s after it starts.
	systemctl start otattest-metrics.timer
	e2e_wait_for 30 "the timer's service to write otattest.prom" test -s "$TEXTFILE_DIR/otattest.prom"
	e2e_wait_for 10 "the service to finish" test "$(systemctl show -p ActiveState --value otattest-metrics.service)" = inactive
	e2e_assert_eq success "$(systemctl show -p Result --value otattest-metrics.service)" "otattest-metrics.service's result"
	e2e_assert_eq "root 644" "$(stat -c '%U %a' "$TEXTFILE_DIR/otattest.prom")" "owner and mode of otattest.prom"
	[ -z "$(find "$TEXTFILE_DIR" -name '.otattest.prom.*')" ] || e2e_fail "a temporary file was left behind"
	cp "$TEXTFILE_DIR/otattest.prom" /tmp/otattest.prom
	e2e_save /tmp/otattest.prom
	grep -q '^otattest_device_up{device="otattest0"} 1$' /tmp/otattest.prom || e2e_fail "otattest.prom: device not up"
	grep -q 'key="owner-2026"' /tmp/otattest.prom || e2e_fail "otattest.prom: no owner-2026 key label"
	grep -q "key_id=\"$signer\",key=\"$short\"" /tmp/otattest.prom || e2e_fail "otattest.prom: signer not as $short"
	# The unit ran as shipped: root without capabilities, one writable path.
	e2e_assert_eq "" "$(systemctl show -p CapabilityBoundingSet --value otattest-metrics.service)" "CapabilityBoundingSet"
	e2e_assert_eq "$TEXTFILE_DIR" "$(systemctl show -p ReadWritePaths --value otattest-metrics.service)" "ReadWritePaths"
	journalctl --no-pager -o short-monotonic -u otattest-metrics.service >/tmp/metrics-journal.txt 2>&1 || true
	e2e_save /tmp/metrics-journal.txt

	# Debian's node exporter: loopback, the textfile collector alone.
	ip link set lo up
	"$EXPORTER" --web.listen-address=127.0.0.1:9100 --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TEXTFILE_DIR" >/tmp/exporter.log 2>&1 &
	exporter=$!
	e2e_wait_for 30 "prometheus-node-exporter to answer" scrape
	e2e_save /tmp/scrape.txt
	e2e_save /tmp/exporter.log
	grep -qx 'node_textfile_scrape_error 0' /tmp/scrape.txt || e2e_fail "scrape error: $(grep node_textfile_scrape_error /tmp/scrape.txt) $(tail -3 /tmp/exporter.log)"
	grep -q "^node_textfile_mtime_seconds{file=\"$TEXTFILE_DIR/otattest.prom\"}" /tmp/scrape.txt ||
		e2e_fail "the exporter did not read otattest.prom"
	grep -q '^otattest_device_up{device="otattest0"} 1$' /tmp/scrape.txt || e2e_fail "no otattest_device_up from the exporter"
	grep -q '^otattest_stage_key_info{.*key="owner-2026".*} 1$' /tmp/scrape.txt || e2e_fail "no key name label from the exporter"
	e2e_log "node exporter serves $(grep -c '^otattest_' /tmp/scrape.txt) otattest samples, node_textfile_scrape_error 0"
	kill "$exporter"
	daemon_save_journal
}
