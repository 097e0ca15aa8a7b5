#!/usr/bin/env bash
# One source for a command's options: its option table (the X-macro list in cmd_*.c, printed by
# MPIGUIDE_CLI_OPTIONS=1; with the table of a mode that has its own, verify --lib-settings) against
# its --help text and its man page (made from both by
# packaging/gen-docs.sh at build time, into <build>/generated/docs). Fails when
#   - an option of a table is missing from the command's --help (a new option nobody described),
#   - an option the help text defines (at the start of an option line, or in the usage lines) is
#     not in the table (a described option that does not exist),
#   - a line of the --help text is missing from the rendered man page (a stale page; its docs/NAME.md
#     cited as the installed /usr/share/doc/mpiguide/NAME.md),
#   - a man page cites docs/ (a file of the sources) or an installed NAME.md that docs/ lacks,
#   - the bash completion offers for a command other options than the command accepts: its option
#     table (with the tables of its modes), or for a command without one the options its help text
#     defines,
#   - a MPIGUIDE_ variable the library reads (getenv in src/) is missing from libmpiguide(7)
#     (whose source is the variable table of docs/library.md).
# Environment (tests/install/CMakeLists.txt): MG_BUILD MG_SRC MG_WORKDIR.
set -u
: "${MG_BUILD:?}" "${MG_SRC:?}" "${MG_WORKDIR:?}"
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
exe=$MG_BUILD/mpiguide gen=$MG_BUILD/generated/docs
[[ -x $exe && -d $gen/man ]] || die "no $exe or $gen/man: build the project first"

cmds=$("$exe" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ && $1 != "version" {print $1} on && /^$/ {on = 0}')
[[ -n $cmds ]] || die "no command list in mpiguide --help"
ntables=0
for c in $cmds; do
  "$exe" "$c" --help >"$c.help" 2>&1
  MPIGUIDE_CLI_OPTIONS=1 "$exe" "$c" --help >"$c.table" 2>&1
  if [[ $(head -1 "$c.table") == "# mpiguide options" ]]; then
    ntables=$((ntables + 1))
    # the options the pages and the completion show: the table's, and those of a mode's own table
    opts=$gen/options/$c.opts missing= extra=
    stale=$(tail -n +2 "$c.table" | grep -vxFf "$opts")
    [[ -z $stale ]] || fail "mpiguide $c: options not in the generated pages: $(cut -f1 <<<"$stale" | tr '\n' ' ')"
    while IFS=$'\t' read -r long short _; do
      grep -qE -- "(^|[^a-z0-9-])$long([^a-z0-9-]|$)" "$c.help" || missing+=" $long"
      if [[ $short != - ]] && ! grep -qE -- "(^|[ [|])$short([ ,=|]|$)" "$c.help"; then missing+=" $short"; fi
    done <"$opts"
    # the options the help text defines: the first of an option line, and those of the usage lines
    defined=$(awk '/^usage: / {u = 1} u && !/^(usage: |       )/ {u = 0} u {print; next}
                   /^ +(-[a-zA-Z], )?--[a-z]/ {print $1 " " $2}' "$c.help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
    for o in $defined; do
      grep -q -- "^$o	" "$opts" || extra+=" $o"
    done
    if [[ -z $missing$extra ]]; then ok "mpiguide $c: the option table and --help agree ($(($(wc -l <"$c.table") - 1)) options)"
    else
      [[ -z $missing ]] || fail "mpiguide $c: in the option table, not in --help:$missing"
      [[ -z $extra ]] || fail "mpiguide $c: defined in --help, not in the option table:$extra"
    fi
  fi
  page=$gen/man/man1/mpiguide-$c.1
  if [[ ! -s $page ]]; then fail "no man page $page"; continue; fi
  MANWIDTH=250 man -l "$page" 2>"$c.man.err" | sed 's/^ *//; s/ *$//; s/  */ /g' >"$c.man"
  lost=$(sed -E 's#(^|[^A-Za-z0-9_./-])docs/([A-Za-z0-9_-]+[.]md)#\1/usr/share/doc/mpiguide/\2#g' "$c.help" |
    sed 's/^usage: //; s/^ *//; s/ *$//; s/  */ /g; /^$/d' | while IFS= read -r l; do
    grep -qF -- "$l" "$c.man" || echo "$l"
  done)
  if [[ -z $lost && ! -s $c.man.err ]]; then ok "mpiguide-$c(1) renders and says what --help says"
  else fail "mpiguide-$c(1) differs from --help: $(head -3 <<<"$lost") $(head -3 "$c.man.err")"; fi
done
# The completion's options of each command (its "CMD) opts=..." line) against what the command accepts:
# the words of its option table and of its modes' tables (an option of the usage lines that has a table
# of its own, verify --lib-settings), or without a table the options its help text defines.
comp=$gen/bash-completion/mpiguide
for c in $cmds; do
  offered=$(sed -n "s/^  $c) opts=\"\([^\"]*\)\".*/\1/p" "$comp" | tr ' ' '\n' | sed '/^$/d' | sort -u)
  if [[ $(head -1 "$c.table") == "# mpiguide options" ]]; then
    tables=$(tail -n +2 "$c.table")
    for o in $(awk '/^usage: / {u = 1} u && !/^(usage: |       )/ {u = 0} u' "$c.help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
      grep -q -- "^$o	" <<<"$tables" && continue
      mode=$(MPIGUIDE_CLI_OPTIONS=1 "$exe" "$c" "$o" x --help 2>/dev/null || true)
      [[ $mode == "# mpiguide options"* ]] && tables+=$'\n'$(tail -n +2 <<<"$mode")
    done
    # an option in two tables: its first row (the pages describe the command's, not the mode's)
    accepted=$(awk -F'\t' 'NF && !s[$1]++ {print $1; if ($2 != "-") print $2}' <<<"$tables" | sort -u)
  else
    accepted=$(awk '/^usage: / {u = 1} u && !/^(usage: |       )/ {u = 0} u {print; next}
                    /^ +(-[a-zA-Z], )?--[a-z]/ {print $1 " " $2}' "$c.help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
  fi
  if [[ -z $offered ]]; then fail "the completion has no options for mpiguide $c"
  elif [[ $offered == "$accepted" ]]; then ok "the completion offers exactly the options mpiguide $c accepts ($(wc -l <<<"$offered"))"
  else fail "the completion of mpiguide $c: offered, not accepted: $(comm -23 <(echo "$offered") <(echo "$accepted") | tr '\n' ' ')" \
    "accepted, not offered: $(comm -13 <(echo "$offered") <(echo "$accepted") | tr '\n' ' ')"; fi
done
# The man pages cite the installed documentation, never the sources' docs/, and only files it has.
srcref=$(grep -l 'docs/' "$gen"/man/man*/* 2>/dev/null)
[[ -z $srcref ]] && ok "no man page cites docs/ of the sources" || fail "man pages citing docs/: $srcref"
cited=$(cat "$gen"/man/man*/* | grep -oE '/usr/share/doc/mpiguide/[A-Za-z0-9_-]+[.]md' | sort -u)
bad=
for d in $cited; do [[ -f $MG_SRC/docs/${d##*/} ]] || bad+=" $d"; done
[[ -n $cited && -z $bad ]] && ok "the man pages cite $(wc -l <<<"$cited") installed documents, each one of docs/" ||
  fail "the man pages cite documents docs/ lacks:$bad (cited: $(echo $cited))"
((ntables >= 8)) && ok "$ntables commands have an option table" || fail "only $ntables commands print an option table"

# libmpiguide(7): every variable the library and its algorithms read
vars=$(grep -rhoE 'getenv\("MPIGUIDE_[A-Z_]+"\)' "$MG_SRC/src" --include=*.c --exclude-dir=cli |
  grep -oE 'MPIGUIDE_[A-Z_]+' | sort -u)
MANWIDTH=120 man -l "$gen/man/man7/libmpiguide.7" >lib7.txt 2>lib7.err
missing=
for v in $vars; do grep -qE "^ +$v\$" lib7.txt || missing+=" $v"; done
if [[ -n $vars && -z $missing && ! -s lib7.err ]]; then ok "libmpiguide(7) describes every variable read in src/: $(echo $vars)"
else fail "libmpiguide(7) (from the table in docs/library.md) lacks:$missing $(head -2 lib7.err)"; fi
finish
