#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#
#   Integrations/Scripts/with-postgres.sh swift test --package-path Integrations/CarlosPostgres
#
# Installs PostgreSQL from Debian's packages when it is missing (as root), creates a
# cluster in a temporary folder, starts it on 127.0.0.1 on a free port (as the
# `postgres` user when run as root), exports DATABASE_URL and
# PGHOST/PGPORT/PGUSER/PGDATABASE, runs the command, then stops the server and
# removes the folder whatever the command's outcome. Exits with the command's status.
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [arguments...]" >&2
  exit 64
fi
CLUSTER="$(cd "$(dirname "$0")" && pwd)/pg-cluster.sh"
"$CLUSTER" install
DIR=$(mktemp -d "${TMPDIR:-/tmp}/carlos-pg.XXXXXX")
trap '"$CLUSTER" remove "$DIR"' EXIT INT TERM
PORT=$("$CLUSTER" port)
"$CLUSTER" start "$DIR" "$PORT"
DB_USER=$("$CLUSTER" user)
export PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=$DB_USER PGDATABASE=postgres
export DATABASE_URL="postgres://$DB_USER@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL on $DATABASE_URL" >&2
set +e
"$@"
STATUS=$?
set -e
exit $STATUS
