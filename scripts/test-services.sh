#!/usr/bin/env bash
# What the tests need, started when it is installed but not running; otherwise one sentence
# naming what to install or set, and a failure. Run by `npm run validate` and `npm test` (the
# README's test command) and by `.ci/run`; quiet when everything is already there.
#
#   PostgreSQL  SUMMON_TEST_PG_URL, else postgres://postgres@127.0.0.1:5432 (test-database-templates.ts)
#   Redis       SUMMON_TEST_REDIS_URL, else redis://127.0.0.1:6379 (engine-harness.ts, redis-test-prefix.ts)
#   X1-X4       bubblewrap and socat: agents' commands run sandboxed, the git gateway carried in
#   X2          curl and openssl: the egress tests drive the real curl through the proxy
set -euo pipefail

stop() {
  echo "test services: $*" >&2
  exit 1
}

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v socat >/dev/null 2>&1 || missing+=(socat)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ ${#missing[@]} -eq 0 ] || stop "install ${missing[*]} (the sandbox and egress tests run them)."

pg_url="${SUMMON_TEST_PG_URL:-}"
redis_url="${SUMMON_TEST_REDIS_URL:-}"

command -v pg_isready >/dev/null 2>&1 ||
  stop "install PostgreSQL (its client tools, pg_isready, check that the server answers), or set SUMMON_TEST_PG_URL to a server that runs."
command -v redis-cli >/dev/null 2>&1 ||
  stop "install Redis (redis-server and redis-cli), or set SUMMON_TEST_REDIS_URL to a server that runs."

if [ -n "$pg_url" ]; then
  pg_up() { pg_isready -d "$pg_url" -q 2>/dev/null; }
else
  pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
fi
if [ -n "$redis_url" ]; then
  redis_up() { redis-cli -u "$redis_url" ping 2>/dev/null | grep -q PONG; }
else
  redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }
fi

if ! pg_up; then
  [ -z "$pg_url" ] || stop "SUMMON_TEST_PG_URL does not answer: start that PostgreSQL, or unset it to use one on 127.0.0.1:5432."
  cluster=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$cluster" ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
    stop "start PostgreSQL on 127.0.0.1:5432 (user postgres), or set SUMMON_TEST_PG_URL to one that runs."
  fi
  echo "test services: starting PostgreSQL $cluster"
  pg_ctlcluster --skip-systemctl-redirect "$cluster" main start ||
    stop "PostgreSQL $cluster is installed but could not be started here: run 'sudo pg_ctlcluster $cluster main start', or set SUMMON_TEST_PG_URL."
fi
if ! redis_up; then
  [ -z "$redis_url" ] || stop "SUMMON_TEST_REDIS_URL does not answer: start that Redis, or unset it to use one on 127.0.0.1:6379."
  command -v redis-server >/dev/null 2>&1 ||
    stop "install Redis (redis-server) or start one on 127.0.0.1:6379, or set SUMMON_TEST_REDIS_URL to one that runs."
  echo "test services: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir "${TMPDIR:-/tmp}" >/dev/null
fi

for _ in $(seq 1 30); do pg_up && redis_up && break; sleep 1; done
pg_up || stop "PostgreSQL did not come up within 30 s${pg_url:+ at SUMMON_TEST_PG_URL} (see its log)."
redis_up || stop "Redis did not come up within 30 s${redis_url:+ at SUMMON_TEST_REDIS_URL}."
