#!/bin/sh
# The layout check (CTest layout.check, docs/architecture.md "How the layers are enforced"):
#   1. every #include "<folder>/..." in src/ and include/ points to the file's own folder or to
#      one on an earlier line of src/LAYERS (the layers, bottom to top);
#   2. every folder of src/ is listed in src/LAYERS;
#   3. no .c/.h file in src/ has more than MAX_LINES lines;
#   4. no function in src/ has a body (the lines strictly between its braces) of more than
#      MAX_BODY lines.
# Each problem is one line "file:line: ..." on stderr; the exit status is 1 when there is any.
# Usage: scripts/check-layers.sh [ROOT]   (ROOT: the source tree, default: this script's parent)
# POSIX sh and awk only.
MAX_LINES=${MAX_LINES:-700}
MAX_BODY=${MAX_BODY:-120}
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
[ -f src/LAYERS ] || { echo "check-layers: no src/LAYERS in $root" >&2; exit 2; }

files=$(find src include -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
status=0

# 1 and 2: the include arrows.
dirs=$(find src -mindepth 1 -maxdepth 1 -type d | sed 's|^src/||' | LC_ALL=C sort)
# shellcheck disable=SC2086
awk -v dirs="$dirs" '
  FNR == 1 && FILENAME == "src/LAYERS" { nl = 0 }
  FILENAME == "src/LAYERS" {
    sub(/#.*/, "")
    if (NF == 0) next
    nl++
    for (i = 1; i <= NF; i++) {
      if ($i in level) { printf "src/LAYERS:%d: folder %s listed twice\n", FNR, $i; bad = 1 }
      level[$i] = nl
    }
    next
  }
  FNR == 1 {
    if (!checked_dirs) {
      checked_dirs = 1
      n = split(dirs, d, "\n")
      for (i = 1; i <= n; i++)
        if (d[i] != "" && !(d[i] in level)) {
          printf "src/%s: folder not in src/LAYERS (add it to the layer it belongs to)\n", d[i]; bad = 1
        }
    }
    f = FILENAME
    if (f ~ /^include\//) from = "include"
    else { from = f; sub(/^src\//, "", from); sub(/\/.*/, "", from) }
  }
  /^[ \t]*#[ \t]*include[ \t]*"[A-Za-z0-9_]+\// {
    to = $0
    sub(/^[^"]*"/, "", to); sub(/\/.*/, "", to)
    if (to == from) next
    if (!(to in level)) { printf "%s:%d: includes %s/, a folder not in src/LAYERS\n", f, FNR, to; bad = 1; next }
    if (level[to] >= level[from]) {
      printf "%s:%d: %s includes %s (%s), which is not below it in src/LAYERS\n", f, FNR, from, to, \
             level[to] == level[from] ? "same layer" : "a higher layer"
      bad = 1
    }
  }
  END { exit bad }
' src/LAYERS $files >&2 || status=1

# 3 and 4: file sizes and function bodies. Comments, strings, character constants and
# preprocessor lines are blanked before the braces are counted; a function is a brace at depth 0
# whose header (the code since the previous top-level ";" or "}") has a ")" and no "=".
for f in $files; do
  case $f in src/*) ;; *) continue ;; esac
  awk -v maxl="$MAX_LINES" -v maxb="$MAX_BODY" '
    {
      line = $0; code = ""; n = length(line); i = 1
      if (pp) { pp = (line ~ /\\$/); next }
      if (!incom && line ~ /^[ \t]*#/) { pp = (line ~ /\\$/); next }
      while (i <= n) {
        c = substr(line, i, 1); c2 = substr(line, i, 2)
        if (incom) { if (c2 == "*/") { incom = 0; i += 2; code = code " " } else i++; continue }
        if (c2 == "/*") { incom = 1; i += 2; continue }
        if (c2 == "//") break
        if (c == "\"" || c == "\047") {
          q = c; i++
          while (i <= n && substr(line, i, 1) != q) i += (substr(line, i, 1) == "\\") ? 2 : 1
          i++; code = code q q; continue
        }
        code = code c; i++
      }
      for (i = 1; i <= length(code); i++) {
        c = substr(code, i, 1)
        if (c == "{") {
          if (depth == 0) {
            isfn = (head ~ /\)/ && head !~ /=/)
            if (isfn) {
              name = head; sub(/\(.*/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
              fstart = hstart ? hstart : FNR; fopen = FNR
            }
          }
          depth++
        } else if (c == "}") {
          depth--
          if (depth == 0) {
            if (isfn && FNR - fopen - 1 > maxb)
              printf "%s:%d: function %s has a body of %d lines (at most %d)\n", FILENAME, fstart, name, FNR - fopen - 1, maxb
            if (isfn && FNR - fopen - 1 > maxb) bad = 1
            isfn = 0; head = ""; hstart = 0
          }
        } else if (depth == 0) {
          if (c == ";") { head = ""; hstart = 0 }
          else if (c !~ /[ \t]/) { if (!hstart) hstart = FNR; head = head c }
          else head = head c
        }
      }
      if (depth == 0 && head != "") head = head " "
    }
    END {
      if (NR > maxl) { printf "%s:%d: %d lines (at most %d): split it\n", FILENAME, NR, NR, maxl; bad = 1 }
      exit bad
    }
  ' "$f" >&2 || status=1
done
exit $status
