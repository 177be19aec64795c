#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on loopback for the audit-log tests and print its
# SQLAlchemy URL. Installs Debian's postgresql when it is missing. Stop it with
# `pg_ctl -D <dir>/data stop` (the directory is printed on stderr, and written to the
# file $VERIFIER_PG_DIR_FILE names, if set).
set -euo pipefail
# a free port unless one is given: another server (or an earlier run) may hold 5432x
port="${1:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    (apt-get install -y -q postgresql >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null; }) >&2
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
dir="$(mktemp -d /tmp/verifier-pg.XXXXXX)"
if [ -n "${VERIFIER_PG_DIR_FILE:-}" ]; then echo "$dir" > "$VERIFIER_PG_DIR_FILE"; fi
as_pg=()
if [ "$(id -u)" = 0 ]; then  # the server refuses to run as root
    chown postgres: "$dir"
    as_pg=(runuser -u postgres --)
fi
cd "$dir"  # a working directory the postgres user may enter
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -A trust -U verifier >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
echo "postgres data in $dir" >&2
echo "postgresql+psycopg://verifier@127.0.0.1:$port/postgres"
