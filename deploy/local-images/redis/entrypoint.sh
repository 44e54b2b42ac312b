#!/bin/sh
# `redis-server ARGS` runs with protected mode off and the arguments after it; anything else as is.
if [ "$1" = redis-server ]; then
  shift
  exec redis-server --bind '* -::*' --protected-mode no --dir /var/lib/redis "$@"
fi
exec "$@"
