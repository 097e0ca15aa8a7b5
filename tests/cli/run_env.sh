#!/usr/bin/env bash
# `mpiguide env` where the build's path holds a space: the line it prints must preload the library
# when pasted into a shell (the loader splits LD_PRELOAD at spaces even when quoted, and ignores
# what it cannot open: the application would run untuned with exit status 0).
#   run_env.sh CLI LIB WORKDIR
set -u
cli=$1 lib=$2 work=$3
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
rm -rf "$work" && mkdir -p "$work/with space" || exit 1
cp "$cli" "$lib" "$work/with space/" || exit 1
"$work/with space/$(basename "$cli")" env >"$work/env.out" 2>&1 || { cat "$work/env.out"; die "mpiguide env failed"; }
cat "$work/env.out"
# the example's first line: the variables (its trailing backslash continues to the launcher)
line=$(grep -m1 -E '^  (LD_|MPIGUIDE_)' "$work/env.out" | sed 's/ *\\$//')
[[ -n $line ]] || die "no preload line"
maps=$(cd "$work" && eval "$line cat /proc/self/maps" 2>"$work/ld.err")
cat "$work/ld.err"
grep -q "with space/$(basename "$lib")" <<<"$maps" || die "the printed line does not preload the library: $line"
grep -q "cannot be preloaded" "$work/ld.err" && die "the loader ignored part of LD_PRELOAD: $(cat "$work/ld.err")"
"$work/with space/$(basename "$cli")" env --lib >/dev/null 2>"$work/lib.err"
grep -q "warning: the library's path holds a space" "$work/lib.err" || die "env --lib does not warn of the space"
ok "the printed line preloads the library from a path with a space"
finish
