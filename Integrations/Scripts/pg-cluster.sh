#!/usr/bin/env bash
# Manages one throwaway PostgreSQL cluster in a folder (used by with-postgres.sh
# and by the tests that stop and restart a server):
#
#   pg-cluster.sh install          install PostgreSQL from Debian's packages if missing (as root)
#   pg-cluster.sh port             print a free TCP port on 127.0.0.1
#   pg-cluster.sh start DIR PORT   create the cluster in DIR if needed, start it on 127.0.0.1:PORT
#   pg-cluster.sh kill DIR         stop the server at once (immediate shutdown, like a crash)
#   pg-cluster.sh remove DIR       stop the server if running and delete DIR
#   pg-cluster.sh user             print the database user the cluster is created with
#   pg-cluster.sh bin              print the folder of the PostgreSQL programs (psql...)
#
# As root, the server runs as the `postgres` user: PostgreSQL refuses to run as root.
# PG_BIN may name the folder of initdb/pg_ctl; otherwise the newest
# /usr/lib/postgresql/*/bin, then the PATH.
set -euo pipefail

find_bin() {
  if [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/initdb" ]; then echo "$PG_BIN"; return 0; fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

need_bin() {
  BIN=$(find_bin) || {
    echo "pg-cluster: PostgreSQL server binaries (initdb, pg_ctl) not found; run '$0 install' or set PG_BIN" >&2
    exit 69
  }
}

RUN_AS=()
DB_USER=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  RUN_AS=(runuser -u postgres --)
  DB_USER=postgres
fi

# The server is a daemon: it must not keep the caller's descriptors (a caller that
# waits for the end of a pipe, or watches a descriptor to learn that its child
# exited, as Foundation's Process does, would wait forever). Closes every
# descriptor above 2 except bash's own script descriptor (255).
close_inherited() {
  local fd
  for fd in /proc/self/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
}

case "${1:-}" in
  install)
    if find_bin >/dev/null; then exit 0; fi
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "pg-cluster: PostgreSQL is not installed and cannot be installed here (needs root and apt-get)" >&2
      exit 69
    fi
    echo "pg-cluster: installing PostgreSQL from Debian's packages" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    find_bin >/dev/null || { echo "pg-cluster: no initdb after installing postgresql" >&2; exit 69; }
    ;;
  port)
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
    ;;
  user)
    echo "$DB_USER"
    ;;
  start)
    DIR=${2:?usage: pg-cluster.sh start DIR PORT}
    PORT=${3:?usage: pg-cluster.sh start DIR PORT}
    need_bin
    if [ "$(id -u)" -eq 0 ]; then
      id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    fi
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    [ ${#RUN_AS[@]} -gt 0 ] && chown postgres "$DIR"
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
      "${RUN_AS[@]}" "$BIN/initdb" -D "$DIR/data" -U "$DB_USER" --auth=trust --encoding=UTF8 \
        --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; exit 70; }
    fi
    close_inherited
    "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR -c fsync=off -c max_connections=300" \
      start >/dev/null || { cat "$DIR/server.log" >&2; exit 70; }
    ;;
  kill)
    DIR=${2:?usage: pg-cluster.sh kill DIR}
    need_bin
    "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null
    ;;
  remove)
    DIR=${2:?usage: pg-cluster.sh remove DIR}
    need_bin
    if [ -f "$DIR/data/postmaster.pid" ]; then
      "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$DIR"
    ;;
  bin)
    need_bin
    echo "$BIN"
    ;;
  *)
    echo "usage: $0 install | port | user | bin | start DIR PORT | kill DIR | remove DIR" >&2
    exit 64
    ;;
esac
