#!/usr/bin/env bash
# The compose stack (deploy/compose/docker-compose.yml):
#   deploy/compose.sh up [--build]     build what is missing (base images included), start, wait until it answers
#   deploy/compose.sh build            build the four images and the tools image now (through Docker's
#                                      layer cache: only what changed is redone); base images if missing
#   deploy/compose.sh down [-v]        stop and remove (-v: the volumes too)
#   deploy/compose.sh ps | logs [ARGS] docker-compose ps / logs
#   deploy/compose.sh admin ARGS...    the admin CLI (npm run admin) against the stack's databases
#   deploy/compose.sh compose ARGS...  any docker-compose command with the stack's files and env
# Environment: COMPOSE_PROJECT_NAME (quire), GATEWAY_PORTS (8081,8082: gateway A and B on
# 127.0.0.1), PROXY_PORT (8083), QUIRE_TAG (latest), BASE_IMAGES=local|official (local: made by
# deploy/images/build-base.sh, as our machines have no registry; official: node/postgres/redis
# from Docker Hub), COMPOSE_SUBNET (172.30.57.0/24; a /24, the proxy takes its .250 = PROXY_ADDRESS)
# for a second stack at once.
# Secrets: deploy/compose/.env (git-ignored), made with random values on the first `up`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/deploy/compose"
export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-quire}"
GATEWAY_PORTS="${GATEWAY_PORTS:-8081,8082}"
export GATEWAY_A_PORT="${GATEWAY_PORTS%%,*}" GATEWAY_B_PORT="${GATEWAY_PORTS##*,}"
export PROXY_PORT="${PROXY_PORT:-8083}" QUIRE_TAG="${QUIRE_TAG:-latest}"
export COMPOSE_SUBNET="${COMPOSE_SUBNET:-172.30.57.0/24}"
# The proxy's fixed address, the only one the gateways believe X-Forwarded-For from.
if [ -z "${PROXY_ADDRESS:-}" ]; then net="${COMPOSE_SUBNET%/*}"; export PROXY_ADDRESS="${net%.*}.250"; fi
# The public address the wiki reports (siteinfo server, URLs in pages): the proxy's.
export WIKI_SERVER="${WIKI_SERVER:-http://127.0.0.1:$PROXY_PORT}"
BASE_IMAGES="${BASE_IMAGES:-local}"
if [ "$BASE_IMAGES" = local ]; then
  export BUILD_IMAGE=quire-base/node-build:20 BASE_IMAGE=quire-base/node:20 POSTGRES_IMAGE=quire-base/postgres:15 REDIS_IMAGE=quire-base/redis:7
fi
env_file="$dir/.env"
log() { echo "compose.sh: $*" >&2; }

# A Docker engine: machines without systemd (ours) have dockerd installed but not running, so start
# it (as root) when nothing answers. Debian's docker.io, docker-compose and debootstrap are needed.
ensure_docker() {
  local missing=()
  command -v docker >/dev/null || missing+=(docker.io)
  docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null || missing+=(docker-compose)
  [ "$BASE_IMAGES" != local ] || command -v debootstrap >/dev/null || missing+=(debootstrap)
  if [ ${#missing[@]} -gt 0 ]; then
    log "missing: ${missing[*]} (apt-get install ${missing[*]})"
    exit 1
  fi
  docker info >/dev/null 2>&1 && return
  if ! command -v dockerd >/dev/null || [ "$(id -u)" != 0 ]; then
    log "no Docker engine answers (start dockerd, or run as root so compose.sh starts it)"
    exit 1
  fi
  log "starting dockerd (log: /tmp/quire-dockerd.log)"
  nohup dockerd >/tmp/quire-dockerd.log 2>&1 &
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && return; sleep 1; done
  log "dockerd did not answer within 60 s; see /tmp/quire-dockerd.log"
  exit 1
}
ensure_docker
if docker compose version >/dev/null 2>&1; then compose_bin=(docker compose); else compose_bin=(docker-compose); fi
compose() { "${compose_bin[@]}" -f "$dir/docker-compose.yml" --env-file "$env_file" "$@"; }

make_env() {
  [ -f "$env_file" ] && return
  local rnd
  rnd() { node -e "process.stdout.write(require('crypto').randomBytes(24).toString('hex'))"; }
  # In a subshell: the umask that keeps the secrets private must not leak into the image builds
  # that follow (a base image built under umask 077 made /app unreadable to the services' uid 1000).
  (umask 077 && printf 'SECRET_KEY=%s\nPOSTGRES_PASSWORD=%s\n' "$(rnd)" "$(rnd)" >"$env_file")
  chmod 0600 "$env_file"
  log "made $env_file (random SECRET_KEY and POSTGRES_PASSWORD)"
}

# Builds an image unless it exists (or always with --build). $1 tag, $2 Dockerfile, rest: docker build options.
build_image() {
  local tag="$1" file="$2"; shift 2
  if [ "$rebuild" = 0 ] && docker image inspect "$tag" >/dev/null 2>&1; then return; fi
  log "building $tag"
  local t0=$SECONDS
  docker build -q --network host -f "$root/$file" -t "$tag" \
    --build-arg "BUILD_IMAGE=${BUILD_IMAGE:-node:20-bookworm-slim}" --build-arg "BASE_IMAGE=${BASE_IMAGE:-node:20-bookworm-slim}" "$@" "$root" >/dev/null
  log "built $tag in $((SECONDS - t0)) s ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1/1e6}'))"
}

build_all() {
  if [ "$BASE_IMAGES" = local ]; then "$root/deploy/images/build-base.sh"; fi
  build_image "quire-auth:$QUIRE_TAG" services/auth/Dockerfile
  build_image "quire-content:$QUIRE_TAG" services/content/Dockerfile
  build_image "quire-search:$QUIRE_TAG" services/search/Dockerfile
  build_image "quire-gateway:$QUIRE_TAG" gateway/Dockerfile
  # The compile stage (every workspace built, dev tools included) runs the admin CLI; cached.
  build_image "quire-tools:$QUIRE_TAG" gateway/Dockerfile --target build
}

# Waits until the proxy and both gateways answer siteinfo.
wait_ready() {
  local deadline=$((SECONDS + ${UP_TIMEOUT:-300})) url
  for port in "$PROXY_PORT" "$GATEWAY_A_PORT" "$GATEWAY_B_PORT"; do
    url="http://127.0.0.1:$port/w/api.php?action=query&meta=siteinfo&format=json"
    until curl -fs -o /dev/null --max-time 5 "$url" 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then log "no answer from $url"; compose ps >&2; return 1; fi
      sleep 1
    done
  done
}

rebuild=0
cmd="${1:-}"
shift || true
case "$cmd" in
  up)
    [ "${1:-}" = --build ] && { rebuild=1; shift; }
    make_env
    t0=$SECONDS
    build_all
    t1=$SECONDS
    compose up -d --no-build "$@" >&2
    wait_ready
    log "stack $COMPOSE_PROJECT_NAME answers: proxy http://127.0.0.1:$PROXY_PORT, gateways :$GATEWAY_A_PORT and :$GATEWAY_B_PORT (build $((t1 - t0)) s, start $((SECONDS - t1)) s)"
    ;;
  build)
    t0=$SECONDS
    rebuild=1
    build_all
    log "images built in $((SECONDS - t0)) s"
    ;;
  down) make_env; compose down "$@" ;;
  ps) make_env; compose ps "$@" ;;
  logs) make_env; compose logs "$@" ;;
  compose) make_env; compose "$@" ;;
  admin)
    make_env
    set -a; . "$env_file"; set +a
    docker run --rm -i --network "${COMPOSE_PROJECT_NAME}_default" --read-only --tmpfs /tmp --user 1000:1000 \
      -e LOG_LEVEL=warn -e SECRET_KEY -e "REDIS_URL=redis://redis:6379" -e "KV_PREFIX=quire:" \
      -e "AUTH_DATABASE_URL=postgres://quire:${POSTGRES_PASSWORD}@postgres:5432/auth" -e "CONTENT_GRPC_ADDR=dns:///content:50052" \
      -e "SEARCH_GRPC_ADDR=dns:///search:50053" -e DATA_DIR=/tmp/data \
      "quire-tools:$QUIRE_TAG" node --conditions=quire-dist scripts/dist/admin.js "$@"
    ;;
  *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
