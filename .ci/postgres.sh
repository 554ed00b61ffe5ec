# Starts a throwaway PostgreSQL on 127.0.0.1 (installing Debian's package when missing) and exports
# CTRLRUN_TEST_PG_URL for the tests. Sourced by .ci/run; usable by hand: `source .ci/postgres.sh; start_postgres`.
# The tests' server skips fsync (faster, and a test never crashes the machine); `PG_FSYNC=on
# start_postgres` starts one that flushes, for the stores bench's claims/s with a disk flush.

find_pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  return 1
}

start_postgres() {
  local bin
  if ! bin=$(find_pg_bin); then
    echo "== installing PostgreSQL from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq postgresql >/dev/null
    bin=$(find_pg_bin)
  fi
  # A free loopback port, unless one is given.
  PG_PORT="${PG_PORT:-$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}"
  PG_DATA=$(mktemp -d /tmp/ctrlrun-pg.XXXXXX)
  export PG_DATA PG_BIN="$bin"
  chown postgres:postgres "$PG_DATA" 2>/dev/null || true
  local as=(); [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$bin/initdb" -D "$PG_DATA" -U postgres -A trust >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DATA -c max_connections=200 -c fsync=${PG_FSYNC:-off}" start >/dev/null
  export CTRLRUN_TEST_PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  echo "== postgres up at 127.0.0.1:$PG_PORT"
}

stop_postgres() {
  [ -n "${PG_DATA:-}" ] || return 0
  local as=(); [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$PG_DATA"
}
