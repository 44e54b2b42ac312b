#!/bin/bash
# First start: make the data folder, then apply MYSQL_DATABASE, MYSQL_USER/MYSQL_PASSWORD, the
# root password (MYSQL_ROOT_PASSWORD, MYSQL_RANDOM_ROOT_PASSWORD or MYSQL_ALLOW_EMPTY_PASSWORD) and
# the *.sql files of /docker-entrypoint-initdb.d on a server that listens on its socket only, as the
# official image does; then exec the real server, so that it is PID 1 and gets SIGTERM. Arguments
# starting with "-" are passed to the server.
set -euo pipefail

if [ "${1:0:1}" = '-' ]; then set -- mariadbd "$@"; fi
if [ "$1" != mariadbd ] && [ "$1" != mysqld ]; then exec "$@"; fi
shift
server=(mariadbd --user=mysql --bind-address=0.0.0.0 --skip-name-resolve "$@")

if [ ! -d /var/lib/mysql/mysql ]; then
  if [ -z "${MYSQL_ROOT_PASSWORD:-}" ] && [ -z "${MYSQL_RANDOM_ROOT_PASSWORD:-}" ] && [ -z "${MYSQL_ALLOW_EMPTY_PASSWORD:-}" ]; then
    echo 'entrypoint: set MYSQL_ROOT_PASSWORD, MYSQL_RANDOM_ROOT_PASSWORD or MYSQL_ALLOW_EMPTY_PASSWORD' >&2
    exit 1
  fi
  echo 'entrypoint: initialising the data folder'
  mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db --auth-root-authentication-method=normal >/dev/null
  # Galera off while initialising, as the official image does: this node's data is its own until it joins.
  "${server[@]}" --skip-networking --socket=/run/mysqld/init.sock --wsrep_on=OFF &
  init_pid=$!
  for _ in $(seq 1 60); do mariadb-admin --socket=/run/mysqld/init.sock ping --silent 2>/dev/null && break; sleep 0.5; done

  root_password="${MYSQL_ROOT_PASSWORD:-}"
  if [ -n "${MYSQL_RANDOM_ROOT_PASSWORD:-}" ]; then
    root_password="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
    echo "entrypoint: GENERATED ROOT PASSWORD: $root_password"
  fi
  escape() { printf '%s' "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/\\\\'/g"; }
  {
    # As the official image: root is root@localhost and root@%, with the password; the other root
    # accounts mariadb-install-db makes (127.0.0.1, ::1, the host name) have none and would match first.
    echo "DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1', 'root'@'$(hostname)';"
    echo "CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '$(escape "$root_password")';"
    echo "GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
    echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '$(escape "$root_password")';"
    if [ -n "${MYSQL_DATABASE:-}" ]; then
      echo "CREATE DATABASE IF NOT EXISTS \`${MYSQL_DATABASE}\`;"
    fi
    if [ -n "${MYSQL_USER:-}" ] && [ -n "${MYSQL_PASSWORD:-}" ]; then
      echo "CREATE USER '${MYSQL_USER}'@'%' IDENTIFIED BY '$(escape "$MYSQL_PASSWORD")';"
      if [ -n "${MYSQL_DATABASE:-}" ]; then echo "GRANT ALL ON \`${MYSQL_DATABASE}\`.* TO '${MYSQL_USER}'@'%';"; fi
    fi
    echo 'FLUSH PRIVILEGES;'
  } | mariadb --socket=/run/mysqld/init.sock --user=root
  for script in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$script" ] || continue
    echo "entrypoint: running $script"
    mariadb --socket=/run/mysqld/init.sock --user=root --password="$root_password" <"$script"
  done

  kill "$init_pid"
  wait "$init_pid"
  echo 'entrypoint: initialised; starting the server'
fi

exec "${server[@]}"
