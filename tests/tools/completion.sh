#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bash completion (scripts/completion/otattest) as bash-completion
# loads it, against the man pages (an independent list): every command
# otattestctl(8) and otimage(1) document is offered, every option
# otattest-verify(1) documents, a command's own options (otattestctl
# attest --n, otimage sign --o), and file names after an option that
# takes a file. Prints "N passed, N failed".   B= for the build directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
B=${B:-build}
suite=completion
. tests/interop/tap.sh
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || fail_early "$bc missing (bash-completion: make deps)"
make -s B="$B" "$B/otattestctl" "$B/otimage" "$B/otattest-verify" >/dev/null || fail_early "cannot build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/ca.pem" "$work/cab.pem"

# complete LINE: the words offered for LINE as typed, the cursor at its end.
complete_line() {
	bash --norc --noprofile -c '
		. "$1"; . "$2"; shift 2
		l=$2/$1
		read -ra COMP_WORDS <<<"$l"
		[[ $l == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$l COMP_POINT=${#l}
		_otattest
		printf "%s\n" "${COMPREPLY[@]}" | sort -u' _ "$bc" "$root/scripts/completion/otattest" "$1" "$root/$B"
}
# The commands a man page documents in SECTION's .TP entries.
man_commands() { # PAGE SECTION
	awk -v s="$2" '$0 == ".SH " s {f = 1; next} /^\.SH / {f = 0} f' "$1" | grep -A1 '^\.TP' |
		grep -v '^\.TP\|^--$' | sed -E 's/\\-/-/g; s/^\.[A-Z]+ //; s/"//g' | awk '{print $1}' | sort -u
}

complete_line "otattestctl " >"$work/got"
man_commands docs/man/otattestctl.8 COMMANDS >"$work/want"
comm -13 "$work/got" "$work/want" >"$work/d"
ok $([ -s "$work/want" ] && [ ! -s "$work/d" ] && echo 0 || echo 1) \
	"otattestctl <TAB>: every command of otattestctl(8) ($(wc -l <"$work/want")) $(tr '\n' ' ' <"$work/d")"
[ "$(complete_line "otattestctl hist")" = history ]
ok $? "otattestctl hist<TAB>: history"
complete_line "otattestctl attest --n" | grep -qx -- --nonce
ok $? "otattestctl attest --n<TAB>: --nonce (the command's own option)"
complete_line "otattestctl --j" | grep -qx -- --json
ok $? "otattestctl --j<TAB>: --json"

complete_line "otimage " >"$work/got"
man_commands docs/man/otimage.1 COMMANDS >"$work/want"
diff "$work/got" "$work/want" >"$work/d"
ok $([ -s "$work/want" ] && echo $? || echo 1) "otimage <TAB>: exactly the commands of otimage(1) $(tr '\n' ' ' <"$work/d")"
[ "$(complete_line "otimage sign --o")" = "$(printf -- '--otp\n--out\n--owner-config')" ]
ok $? "otimage sign --o<TAB>: --otp --out --owner-config (sign's own options)"

complete_line "otattest-verify --" >"$work/got"
awk '$0 == ".SH OPTIONS" {f = 1; next} /^\.SH / {f = 0} f' docs/man/otattest-verify.1 | grep -A1 '^\.TP' |
	sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z-]*' | sort -u >"$work/want"
diff "$work/got" "$work/want" >"$work/d"
ok $? "otattest-verify --<TAB>: exactly the options of otattest-verify(1) ($(wc -l <"$work/want")) $(tr '\n' ' ' <"$work/d")"
(cd "$work" && complete_line "otattest-verify --ca ca") >"$work/got"
[ "$(cat "$work/got")" = "$(printf 'ca.pem\ncab.pem')" ]
ok $? "otattest-verify --ca ca<TAB>: file names ($(tr '\n' ' ' <"$work/got"))"
finish
