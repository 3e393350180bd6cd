#!/usr/bin/env bash
# The README's run command: install what the app needs on a fresh Debian machine with Node 20 (Bun from
# npm; as root, the Debian packages the local sandbox uses), build the web app, and serve it on its
# embedded defaults at http://app.localhost:3000 (PORT, HOST, DATA_DIR and the rest are honoured).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v bun >/dev/null 2>&1 || npm install -g bun

need_apt=()
[ -x /usr/bin/bwrap ] || need_apt+=(bubblewrap)
[ -x /usr/bin/slirp4netns ] || need_apt+=(slirp4netns)
[ -x /usr/sbin/nft ] || need_apt+=(nftables)
[ -x /usr/sbin/ip ] || [ -x /usr/bin/ip ] || need_apt+=(iproute2)
# Each sandbox's disk quota is an ext4 image (mkfs.ext4) loop-mounted (mount, losetup).
[ -x /usr/sbin/mkfs.ext4 ] || need_apt+=(e2fsprogs)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "Note: the local sandbox needs root and ${need_apt[*]}; without them chat, preview and terminal say what is missing (or set SANDBOX_PROVIDER=e2b)." >&2
  fi
fi

bun install --frozen-lockfile
bun run build
# `bun run start` without the extra `bun run` process: exec hands this shell's pid to the server, so a
# signal to the process group reaches it once, not a second time forwarded by `bun run`.
exec bun api/src/index.ts
