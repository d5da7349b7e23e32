#!/usr/bin/env bash
# Part of `npm test`: the real-browser tests need a system Chromium (puppeteer never downloads one),
# the fleet tests a real `redis-server` (Redis 7), the image tests (test/deploy/)
# rootful podman with runc, debootstrap and docker-compose. Finds them, installs Debian's packages
# when running as root, or says exactly what to install.
set -euo pipefail
image_tools=()
for tool in podman runc debootstrap docker-compose; do
  command -v "$tool" >/dev/null 2>&1 || image_tools+=("$tool")
done
if [ ${#image_tools[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: installing what the image test needs: ${image_tools[*]}..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${image_tools[@]}" >/dev/null
  else
    echo "ensure-chromium: the image test needs ${image_tools[*]}: sudo apt-get install -y ${image_tools[*]} (it runs as root)" >&2
  fi
fi
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: no redis-server found, installing Debian's redis-server..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq redis-server >/dev/null
  else
    echo "ensure-chromium: the fleet tests need redis-server: sudo apt-get install -y redis-server" >&2
    exit 1
  fi
fi
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
