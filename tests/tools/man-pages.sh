#!/usr/bin/env bash
# The man pages against the programs: otattest-verify(1) documents exactly
# the options `otattest-verify --help` lists (both ways), and man(1)
# formats it without a warning; every command otattestctl(8) documents is
# one `otattestctl --help` lists, and every option of otattestctl --help
# is in the man page. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
verify=${VERIFY:-$B/otattest-verify}
ctl=${OTATTESTCTL:-$B/otattestctl}
make -s "$verify" "$ctl" >/dev/null || { echo "man-pages: cannot build"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() {
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok - $2"; else fail=$((fail + 1)); echo "not ok - $2"; fi
}

# Long options a --help text lists at the start of its option lines.
help_options() { grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z][a-z-]*' | sort -u; }
# Long options a man page's .TP entries (between two sections) name.
man_options() { # PAGE FROM-SECTION TO-SECTION
	awk -v a="$2" -v b="$3" '$0 == ".SH " a {f = 1; next} /^\.SH / {f = 0} f' "$1" |
		grep -A1 '^\.TP' | grep -v '^\.TP\|^--$' | sed 's/\\-/-/g' |
		grep -oE -- '--[a-z][a-z-]*' | sort -u
}

page=docs/man/otattest-verify.1
"$verify" --help | sed -n '/^OPTIONS/,/^[A-Z]/p' | help_options >"$work/vh"
man_options "$page" OPTIONS "POLICY FILE" >"$work/vm"
diff "$work/vh" "$work/vm" >"$work/vd"
ok $? "otattest-verify(1) documents exactly the options of --help ($(wc -l <"$work/vh") options)$(sed 's/^/ /' "$work/vd" | tr '\n' ' ')"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>"$work/warn" >"$work/v.txt"
ok $([ $? = 0 ] && [ ! -s "$work/warn" ] && echo 0 || echo 1) "man formats otattest-verify(1) without a warning $(head -c 200 "$work/warn")"
grep -q '^NAME' "$work/v.txt" && grep -qE 'otattest-verify +- +check otattest attestation evidence' "$work/v.txt"
ok $? "otattest-verify(1) renders its NAME line"

page=docs/man/otattestctl.8
"$ctl" --help | sed -n '/^Commands:/,/^Options:/p' | grep -oE '^  [a-z][a-z-]+' | sed 's/^ *//' | sort -u >"$work/ch"
awk '/^\.SH COMMANDS/ {f = 1; next} /^\.SH / {f = 0} f' "$page" | grep -A1 '^\.TP' |
	grep -v '^\.TP\|^--$' | sed -E 's/\\-/-/g; s/^\.[A-Z]+ //; s/"//g' | awk '{print $1}' | sort -u >"$work/cm"
comm -13 "$work/ch" "$work/cm" >"$work/cd"
ok $([ ! -s "$work/cd" ] && echo 0 || echo 1) "every command otattestctl(8) documents is in otattestctl --help $(tr '\n' ' ' <"$work/cd")"
grep -qx history "$work/cm"
ok $? "otattestctl(8) documents history"
"$ctl" --help | sed -n '/^Options:/,/^$/p' | help_options >"$work/oh"
man_options "$page" OPTIONS AUTHORIZATION >"$work/om"
comm -23 "$work/oh" "$work/om" >"$work/od"
ok $([ ! -s "$work/od" ] && echo 0 || echo 1) "every option of otattestctl --help is in otattestctl(8) $(tr '\n' ' ' <"$work/od")"

# otimage(1) and otattest-veraison(1): exactly the commands each program lists.
otimage=${OTIMAGE:-$B/otimage}
make -s "$otimage" >/dev/null || { echo "man-pages: cannot build $otimage"; fail=$((fail + 1)); }
man_cmds() { # PAGE
	awk '/^\.SH COMMANDS/ {f = 1; next} /^\.SH / {f = 0} f' "$1" | grep -A1 '^\.TP' |
		grep -v '^\.TP\|^--$' | sed -E 's/\\-/-/g; s/^\.[A-Z]+ //; s/"//g' | awk '{print $1}' | sort -u
}
"$otimage" --help | sed -n '/^COMMANDS/,/^[A-Z]/p' | grep -oE '^    [a-z][a-z-]+' | tr -d ' ' | sort -u >"$work/ih"
man_cmds docs/man/otimage.1 >"$work/im"
diff "$work/ih" "$work/im" >"$work/id"
ok $? "otimage(1) documents exactly the commands of otimage --help ($(wc -l <"$work/ih")) $(tr '\n' ' ' <"$work/id")"
# otattest-veraison lists its commands when run without one (Go source: the table in main.go).
sed -n 's/^\t{"\([a-z-]*\)", .*/\1/p' libotattest/tools/veraison/cmd/otattest-veraison/main.go | sort -u >"$work/gh"
man_cmds docs/man/otattest-veraison.1 >"$work/gm"
diff "$work/gh" "$work/gm" >"$work/gd"
ok $([ -s "$work/gh" ] && diff -q "$work/gh" "$work/gm" >/dev/null && echo 0 || echo 1) \
	"otattest-veraison(1) documents exactly the commands of its command table ($(wc -l <"$work/gh")) $(tr '\n' ' ' <"$work/gd")"
for page in docs/man/otimage.1 docs/man/otattest-veraison.1; do
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>"$work/warn" >/dev/null
	ok $([ $? = 0 ] && [ ! -s "$work/warn" ] && echo 0 || echo 1) "man formats $page without a warning $(head -c 200 "$work/warn")"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
