#!/usr/bin/env bash
# The shipped Prometheus alert rules (systemd/otattest-alerts.yml) with
# Debian's promtool: they load (promtool check rules), and each alert -
# device down, metrics stale, tag mismatch, boot needing attention,
# reverted trial, below the policy SVN - fires on the series `otattestctl
# metrics` writes and not before (promtool test rules,
# tests/tools/otattest-alerts.test.yml). The unit test must be able to
# fail: a rule file whose device-down alert never fires fails it.
# Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."

suite="prometheus-rules"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
command -v promtool >/dev/null || fail_early "promtool not found (Debian package prometheus; scripts/deps.sh)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

promtool check rules systemd/otattest-alerts.yml >"$work/check.out" 2>&1
ok $? "promtool check rules: $(grep -o "SUCCESS.*" "$work/check.out")"
promtool test rules tests/tools/otattest-alerts.test.yml >"$work/test.out" 2>&1
ok $? "promtool test rules: every alert fires when it should and not before"

# The same test against rules whose device-down alert is broken must fail.
mkdir -p "$work/systemd" "$work/tests/tools"
sed 's/expr: otattest_device_up == 0/expr: otattest_device_up == 2/' systemd/otattest-alerts.yml \
	>"$work/systemd/otattest-alerts.yml"
cp tests/tools/otattest-alerts.test.yml "$work/tests/tools/"
if (cd "$work" && promtool test rules tests/tools/otattest-alerts.test.yml) >"$work/neg.out" 2>&1; then
	ok 1 "a broken device-down rule fails the test"
else
	grep -q OtattestDeviceDown "$work/neg.out"
	ok $? "a broken device-down rule fails the test (OtattestDeviceDown named)"
fi

# Every metric the rules read is one otattestctl writes (or the operator's policy series).
for m in $(grep -o 'otattest_[a-z_]*' systemd/otattest-alerts.yml | sort -u); do
	case $m in otattest_policy_min_svn) continue ;; esac
	grep -q "\"$m\"\\|\"$m{\\|$m{\\|$m \\\\" daemon/otattestctl/metrics.c
	ok $? "the rules' metric $m is written by daemon/otattestctl/metrics.c"
done
finish
