#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#
#   Integrations/Scripts/with-postgres.sh swift test --traits Postgres --scratch-path .build-integrations \
#     --filter CarlosPostgresTests
#
# Installs PostgreSQL from Debian's packages when it is missing (as root), creates a
# cluster in a temporary folder, starts it on 127.0.0.1 on a free port (as the
# `postgres` user when run as root), exports DATABASE_URL and
# PGHOST/PGPORT/PGUSER/PGDATABASE, runs the command, then stops the server and
# removes the folder whatever the command's outcome. Exits with the command's status.
#
# CARLOS_PG_LEAST_PRIVILEGE=1: the command runs as a role that may only read and write
# rows. CarlosPostgres's SQL/least-privilege.sql is run first (as the cluster's
# superuser), then DATABASE_URL names the role `carlos_app` (a member of
# carlos_cache_user, whose row-level security allows the namespaces `carlos_app` and
# `carlos_app.*`), CARLOS_TEST_NAMESPACE_PREFIX is `carlos_app.`, and
# CARLOS_ADMIN_DATABASE_URL names the superuser.
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
if [ "${CARLOS_PG_LEAST_PRIVILEGE:-0}" = 1 ]; then
  PSQL="$("$CLUSTER" bin)/psql"
  SQL="$(cd "$(dirname "$0")/.." && pwd)/CarlosPostgres/SQL/least-privilege.sql"
  "$PSQL" -q -v ON_ERROR_STOP=1 -f "$SQL" >&2
  "$PSQL" -q -v ON_ERROR_STOP=1 -c "CREATE ROLE carlos_app LOGIN IN ROLE carlos_cache_user" >&2
  export CARLOS_ADMIN_DATABASE_URL="$DATABASE_URL"
  export DATABASE_URL="postgres://carlos_app@127.0.0.1:$PORT/postgres"
  export CARLOS_TEST_NAMESPACE_PREFIX="carlos_app."
fi
echo "with-postgres: PostgreSQL on $DATABASE_URL" >&2
set +e
"$@"
STATUS=$?
set -e
exit $STATUS
