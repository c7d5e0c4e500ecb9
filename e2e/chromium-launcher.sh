#!/usr/bin/env bash
# Starts Debian's Chromium for Playwright with each feature list merged into one switch. Chromium
# keeps only the last --disable-features (and --enable-features) it is given, and Playwright passes
# its own list before the one e2e/chromium.ts adds: passed as they come, ours would silently drop
# Playwright's (HttpsUpgrades, PaintHolding and the rest). Every other argument goes through as is.
set -euo pipefail
disabled=""
enabled=""
rest=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled="${disabled:+$disabled,}${arg#--disable-features=}" ;;
    --enable-features=*) enabled="${enabled:+$enabled,}${arg#--enable-features=}" ;;
    *) rest+=("$arg") ;;
  esac
done
[ -n "$disabled" ] && rest+=("--disable-features=$disabled")
[ -n "$enabled" ] && rest+=("--enable-features=$enabled")
exec "${CHROMIUM_PATH:-/usr/bin/chromium}" "${rest[@]}"
