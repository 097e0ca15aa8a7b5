#!/bin/bash
# Browser test of the report (docs/report.md): Debian's headless Chromium loads the page offline and
#  - the page has no network reference (no http(s)://, <script>, @import, external url());
#  - no console message (errors) while loading: --enable-logging=stderr logs them as CONSOLE;
#  - no network request by the page (Chromium's net log, browser_check.py netlog);
#  - the DOM Chromium built holds every plot;
#  - a 1280 px wide screenshot is not blank (browser_check.py png).
# Usage: browser.sh MPIGUIDE_CLI DATA_DIR... ; exit 77 (CTest: skipped) when chromium is not installed.
set -u
cli=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (Debian: apt-get install -y chromium); browser test not run"
  exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d /tmp/mg-report-browser.XXXXXX)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../common/assert.sh
source "$here/../common/assert.sh"

"$cli" report "$@" -o "$work/report.html" || die "mpiguide report failed"
page=$work/report.html
if grep -nEi 'https?://|<script|@import|<link|url\([^#]' "$page"; then
  die "the page references something outside itself (lines above)"
fi
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars)

timeout 120 "$browser" "${flags[@]}" --user-data-dir="$work/profile1" --enable-logging=stderr --v=0 \
  --log-net-log="$work/net.json" --dump-dom "file://$page" >"$work/dom.html" 2>"$work/log.txt" ||
  die "chromium --dump-dom failed: $(tail -3 "$work/log.txt")"
if grep -E 'CONSOLE|Uncaught|Failed to load resource' "$work/log.txt"; then
  die "console messages while loading the page (above)"
fi
python3 "$here/browser_check.py" netlog "$work/net.json" || die "the page made network requests"
want=$(grep -c '<div class="plot"' "$page")
got=$(grep -c '<div class="plot"' "$work/dom.html")
[ "$want" -gt 0 ] && [ "$got" = "$want" ] || die "the DOM has $got plots, the page $want"
echo "DOM: $got plot panels, title: $(grep -o '<title>[^<]*' "$work/dom.html" | head -1 | cut -c8-)"

timeout 120 "$browser" "${flags[@]}" --user-data-dir="$work/profile2" --window-size=1280,1600 \
  --screenshot="$work/shot.png" "file://$page" >"$work/shot.log" 2>&1 ||
  die "chromium --screenshot failed: $(tail -3 "$work/shot.log")"
[ -s "$work/shot.png" ] || die "no screenshot"
python3 "$here/browser_check.py" png "$work/shot.png" || die "the screenshot is blank"
finish
