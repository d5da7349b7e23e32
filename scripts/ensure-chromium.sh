#!/usr/bin/env bash
# Part of `npm test`: the real-browser tests need a system Chromium (puppeteer never downloads one).
# Finds it, installs Debian's `chromium` when running as root, or says exactly what to install.
set -euo pipefail
for candidate in "${PUPPETEER_EXECUTABLE_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no Chromium found, installing Debian's chromium (apt-get install -y chromium)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
cat >&2 <<'MSG'
ensure-chromium: no Chromium found. The real-browser tests need one. Install it with
    sudo apt-get install -y chromium        (Debian/Ubuntu: /usr/bin/chromium)
or point PUPPETEER_EXECUTABLE_PATH at an installed Chromium/Chrome, then run `npm test` again.
MSG
exit 1
