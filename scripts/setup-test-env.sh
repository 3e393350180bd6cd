#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine with Node 20: Bun (from npm), the project's
# packages, Debian's Chromium for the browser tests, and a running local PostgreSQL when one is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v bun >/dev/null 2>&1; then
  npm install -g bun
fi

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# The local sandbox (api/src/sandbox/local): bubblewrap, its network (slirp4netns, nftables, iproute2).
[ -x /usr/bin/bwrap ] || need_apt+=(bubblewrap)
[ -x /usr/bin/slirp4netns ] || need_apt+=(slirp4netns)
[ -x /usr/sbin/nft ] || need_apt+=(nftables)
[ -x /usr/sbin/ip ] || [ -x /usr/bin/ip ] || need_apt+=(iproute2)
# Each sandbox's disk quota is an ext4 image (mkfs.ext4) loop-mounted (mount, losetup).
[ -x /usr/sbin/mkfs.ext4 ] || need_apt+=(e2fsprogs)
# scripts/compose.test.ts validates docker-compose.yml and the Caddyfile offline with Debian's tools.
command -v docker-compose >/dev/null 2>&1 || need_apt+=(docker-compose)
command -v caddy >/dev/null 2>&1 || need_apt+=(caddy)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  fi
fi

bun install --frozen-lockfile

# Real PostgreSQL for the database suites, when the machine has a cluster (they also run on embedded PGlite).
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
# TLS on that cluster (Debian's snakeoil certificate, as a new Debian cluster has) for the sslmode=require cases.
if command -v pg_ctlcluster >/dev/null 2>&1 && command -v make-ssl-cert >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ "$(psql -U postgres -h 127.0.0.1 -Atc 'show ssl' 2>/dev/null)" = off ]; then
  [ -f /etc/ssl/private/ssl-cert-snakeoil.key ] || make-ssl-cert generate-default-snakeoil
  printf "ssl = on\nssl_cert_file = '/etc/ssl/certs/ssl-cert-snakeoil.pem'\nssl_key_file = '/etc/ssl/private/ssl-cert-snakeoil.key'\n" >"/etc/postgresql/$(ls /etc/postgresql | head -1)/main/conf.d/tls.conf"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main reload || true
fi
