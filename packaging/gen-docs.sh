#!/usr/bin/env bash
# The man pages and the bash completion of mpiguide, made from the built command itself, so that
# they cannot say something else than `--help`:
#   man/man1/mpiguide.1            the command list of `mpiguide --help`
#   man/man1/mpiguide-<cmd>.1      `mpiguide <cmd> --help`, its options in bold
#   man/man7/libmpiguide.7         every environment variable, from the table in docs/library.md
#   options/<cmd>.opts             the options of each command, as the two above show them
#   bash-completion/mpiguide       subcommands and their options; collective and algorithm names
#                                  from `mpiguide list --csv` when Tab is pressed
# A command's options come from its option table (MPIGUIDE_CLI_OPTIONS=1 makes mg_opt_parse print
# it, src/cli/cmd_opts.c); a command that parses its arguments by hand (profile) has them read
# from its help text (the options of its usage lines and those that start an option line, as
# tests/install/run_docs.sh reads a help text), never from every --name it mentions: a help text
# names options of other commands too (campaign's describes check's). tests/install/run_docs.sh fails
# when a table and a help text disagree, and when the completion offers another set than the table.
# The help texts cite docs/NAME.md of the sources; the man pages cite the installed file instead,
# DOC_DIR/NAME.md (the package mpiguide-doc's /usr/share/doc/mpiguide by default).
# Usage: packaging/gen-docs.sh MPIGUIDE_EXE SOURCE_DIR OUT_DIR [DOC_DIR]
set -euo pipefail
exe=$1 src=$2 out=$3 docdir=${4:-/usr/share/doc/mpiguide}
version=$("$exe" --version | awk '{print $2}')
mkdir -p "$out/man/man1" "$out/man/man7" "$out/bash-completion" "$out/options"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The subcommands and their one-line summaries: the table of `mpiguide --help`.
"$exe" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ && $1 != "version" {n = $1; $1 = ""; sub(/^ +/, ""); print n "\t" $0}
                     on && /^$/ {on = 0}' >"$tmp/commands"
[[ -s $tmp/commands ]] || { echo "gen-docs: no command list in '$exe --help'" >&2; exit 1; }

# options CMD: one option a line (--name<TAB>-x<TAB>flag|arg|list) into $tmp/CMD.opts.
options() {
  local cmd=$1 table
  table=$(MPIGUIDE_CLI_OPTIONS=1 "$exe" "$cmd" --help 2>/dev/null || true)
  if [[ $table == "# mpiguide options"* ]]; then
    printf '%s\n' "$table" | tail -n +2 >"$tmp/$cmd.opts"
    # an option of the help's usage lines that the table lacks may start a mode with a table of its
    # own (verify --lib-settings): its options join the command's
    local o mode
    for o in $("$exe" "$cmd" --help 2>&1 | awk '/^usage: / {u = 1} u && !/^(usage: |       )/ {u = 0} u' |
      grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
      grep -q -- "^$o	" "$tmp/$cmd.opts" && continue
      mode=$(MPIGUIDE_CLI_OPTIONS=1 "$exe" "$cmd" "$o" x --help 2>/dev/null || true)
      [[ $mode == "# mpiguide options"* ]] && printf '%s\n' "$mode" | tail -n +2 >>"$tmp/$cmd.opts"
    done
    awk '!s[$1]++' "$tmp/$cmd.opts" >"$tmp/$cmd.u" && mv "$tmp/$cmd.u" "$tmp/$cmd.opts"
  else # no table (the command parses by hand): the options its help text defines
    "$exe" "$cmd" --help 2>&1 | awk '/^usage: / {u = 1} u && !/^(usage: |       )/ {u = 0} u {print; next}
                                    /^ +(-[a-zA-Z], )?--[a-z]/ {print $1 " " $2}' |
      { grep -oE -- '--[a-z][a-z0-9-]*' || true; } | awk '!s[$0]++ {print $0 "\t-\tflag"}' >"$tmp/$cmd.opts"
  fi
}

# Roff from plain text, line by line, in no-fill mode: backslashes and leading dots escaped, the
# options of $1 (a .opts file) in bold wherever they stand.
# A help text's docs/NAME.md (a file of the sources) becomes the installed DOC_DIR/NAME.md.
roff_text() {
  sed -E "s#(^|[^A-Za-z0-9_./-])docs/([A-Za-z0-9_-]+[.]md)#\\1$docdir/\\2#g" | awk -v optsfile="$1" '
    BEGIN { while ((getline l < optsfile) > 0) { split(l, f, "\t"); long[++n] = f[1] } }
    {
      gsub(/\\/, "\\e")
      line = $0; res = ""
      # bold every --name of the table, as a whole word
      while (match(line, /--[a-z][a-z0-9-]*/)) {
        w = substr(line, RSTART, RLENGTH); known = 0
        for (i = 1; i <= n; i++) if (long[i] == w) known = 1
        pre = substr(line, 1, RSTART - 1)
        gsub(/-/, "\\-", w)
        res = res pre (known ? "\\fB" w "\\fR" : w)
        line = substr(line, RSTART + RLENGTH)
      }
      res = res line
      if (res ~ /^[.\047]/) res = "\\&" res
      print res
    }'
}

th() { printf '.TH %s %s "" "mpiguide %s" "mpiguide manual"\n' "$1" "$2" "$version"; }

# mpiguide(1)
{
  th MPIGUIDE 1
  printf '.SH NAME\nmpiguide \\- check an MPI library against the self-consistent MPI performance guidelines\n'
  printf '.SH SYNOPSIS\n\\fBmpiguide\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n.br\n\\fBmpiguide\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR\n'
  printf '.SH DESCRIPTION\n'
  printf 'mpiguide measures whether an MPI library'"'"'s collectives are slower than equivalent compositions of\n'
  printf 'other MPI operations (mock-ups), and replaces them where they are, through libmpiguide(7).\n'
  printf '.SH COMMANDS\n'
  while IFS=$'\t' read -r c summary; do
    printf '.TP\n.BR "%s" " (mpiguide\\-%s(1))"\n' "$c" "$c"
    printf '%s\n' "$summary" | sed 's/\\/\\e/g; s/^[.'"'"']/\\\&&/'
  done <"$tmp/commands"
  printf '.TP\n.B version\nprint the mpiguide version\n'
  printf '.SH ENVIRONMENT\nThe variables of the library: libmpiguide(7).\n'
  printf '.SH SEE ALSO\n'
  sed 's/\t.*//; s/.*/.BR mpiguide\\-& (1),/' "$tmp/commands"
  printf '.BR libmpiguide (7)\n'
} >"$out/man/man1/mpiguide.1"

# mpiguide-CMD(1), one per command
while IFS=$'\t' read -r c summary; do
  options "$c"
  "$exe" "$c" --help >"$tmp/$c.help" 2>&1 || true
  cp "$tmp/$c.opts" "$out/options/$c.opts" # what the pages and the completion show (tests/install/run_docs.sh)
  {
    th "MPIGUIDE\\-${c^^}" 1
    printf '.SH NAME\nmpiguide\\-%s \\- %s\n' "$c" "$(printf '%s' "$summary" | sed 's/\\/\\e/g')"
    printf '.SH SYNOPSIS\n.nf\n'
    # the usage lines: "usage: X" and the lines aligned under it
    awk '/^usage: / {on = 1; sub(/^usage: /, ""); print; next} on && /^       [^ ]/ {sub(/^       /, ""); print; next}
         {on = 0}' "$tmp/$c.help" | roff_text "$tmp/$c.opts"
    printf '.fi\n.SH DESCRIPTION\n.nf\n'
    awk '/^usage: / {on = 1; next} on && /^       [^ ]/ {next} {on = 0; print}' "$tmp/$c.help" |
      sed '/./,$!d' | roff_text "$tmp/$c.opts"
    printf '.fi\n.SH SEE ALSO\n.BR mpiguide (1),\n.BR libmpiguide (7)\n'
  } >"$out/man/man1/mpiguide-$c.1"
done <"$tmp/commands"

# libmpiguide(7): the table of docs/library.md, "| `VAR` | meaning | default |"
{
  th LIBMPIGUIDE 7
  printf '.SH NAME\nlibmpiguide \\- run MPI collectives as guideline mock-ups, through the PMPI interface\n'
  printf '.SH SYNOPSIS\n.nf\nLD_PRELOAD=$(mpiguide env \\-\\-lib ./app) MPIGUIDE_PROFILE=tuned.prof mpirun ... ./app\n'
  printf 'cc ... \\-lmpiguide \\-lmpi\n.fi\n'
  printf '.SH DESCRIPTION\nlibmpiguide defines the MPI collectives and point-to-point operations and calls the MPI\n'
  printf 'library through PMPI. With no variable set it passes every call through; the variables below\n'
  printf 'force algorithms, run a tuning profile or trace the calls. It must be built for the MPI library\n'
  printf 'the application uses (\\fBmpiguide env \\-\\-lib\\fR \\fIAPP\\fR finds that one).\n'
  printf '.SH ENVIRONMENT\nAll variables are read once, at MPI_Init or MPI_Init_thread, and must be equal on every rank.\n'
  awk -F' [|] ' '/^[|] variable [|]/ {on = 1; next} on && /^[|]---/ {next} on && !/^[|]/ {exit}
    on {
      v = $1; sub(/^[|] */, "", v); gsub(/`/, "", v)
      d = $3; sub(/ *[|]$/, "", d)
      m = $2; if (m !~ /[.]$/) m = m "."; if (d != "") m = m " Default: " d "."
      while (match(m, /\[[^]]*\]\([^)]*\)/)) { t = substr(m, RSTART + 1); sub(/\].*/, "", t)
        m = substr(m, 1, RSTART - 1) t substr(m, RSTART + RLENGTH) }
      gsub(/`/, "", m); gsub(/\\/, "\\e", m)
      print ".TP\n.B " v "\n" m
    }' "$src/docs/library.md"
  printf '.SH SEE ALSO\n.BR mpiguide (1),\n.BR mpiguide\\-env (1);\nthe documentation: %s/library.md (package mpiguide\\-doc).\n' "$docdir"
} >"$out/man/man7/libmpiguide.7"

# bash completion
{
  printf '# bash completion for mpiguide %s, generated by packaging/gen-docs.sh from the option tables.\n' "$version"
  printf '# Collective and algorithm names are asked from `mpiguide list --csv` when they are completed.\n'
  printf '_mpiguide_names() { "$1" list --csv 2>/dev/null | awk -F, -v k="$2" '"'"'NR > 1 && !s[$k]++ {print $k}'"'"'; }\n'
  printf '_mpiguide() {\n'
  printf '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} exe=${COMP_WORDS[0]} opts= words= arg=\n'
  printf '  COMPREPLY=()\n'
  printf '  if ((COMP_CWORD == 1)); then\n'
  printf '    COMPREPLY=($(compgen -W "%s version --help --version" -- "$cur")); return\n' "$(cut -f1 "$tmp/commands" | tr '\n' ' ' | sed 's/ $//')"
  printf '  fi\n  case ${COMP_WORDS[1]} in\n'
  while IFS=$'\t' read -r c _; do
    all=$(awk -F'\t' '!s[$1]++ {printf "%s%s", (n++ ? " " : ""), $1} $2 != "-" && !s[$2]++ {printf " %s", $2}' "$tmp/$c.opts")
    witharg=$(awk -F'\t' '$3 != "flag" && !s[$1]++ {printf "%s%s", (n++ ? "|" : ""), $1}
                          $3 != "flag" && $2 != "-" && !s[$2]++ {printf "|%s", $2}' "$tmp/$c.opts")
    extra=
    [[ $c == profile ]] && extra=' ((COMP_CWORD == 2)) && words="validate merge upgrade"'
    [[ $c == site ]] && extra=' ((COMP_CWORD == 2)) && words="publish rollback status which"'
    printf '  %s) opts="%s"; arg="%s";%s ;;\n' "$c" "$all" "$witharg" "$extra"
  done <"$tmp/commands"
  printf '  esac\n'
  printf '  case $prev in\n'
  printf '  -c | --coll | --collectives) words=$(_mpiguide_names "$exe" 1) ;;\n'
  printf '  -a | --alg | -m | --mockups) words=$(_mpiguide_names "$exe" 2) ;;\n'
  printf '  *)\n'
  printf '    if [[ -n $arg && $prev == -* ]] && [[ "|$arg|" == *"|$prev|"* ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi\n'
  printf '    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi\n'
  printf '    if [[ ${COMP_WORDS[1]} == list ]]; then words=$(_mpiguide_names "$exe" 1); fi ;;\n'
  printf '  esac\n'
  printf '  if [[ -n $words ]]; then # a comma-separated list: complete its last item\n'
  printf '    local head=; [[ $cur == *,* ]] && head=${cur%%,*},\n'
  printf '    COMPREPLY=($(compgen -P "$head" -W "$words" -- "${cur##*,}")); return\n'
  printf '  fi\n'
  printf '  COMPREPLY=($(compgen -f -- "$cur"))\n'
  printf '}\ncomplete -F _mpiguide mpiguide\n'
} >"$out/bash-completion/mpiguide"
