#!/usr/bin/env bash
# redis-server for the Redis tests, which start their own on free 127.0.0.1 ports
# (test/helpers/redis.ts): Debian's package, installed with apt-get when it is not on PATH. CI runs
# as root. Runs before the test step; the tests never skip without it, they fail with the install
# command. A developer without it can run this step with sudo, or `sudo apt-get install redis-server`.
set -euo pipefail

# shellcheck source=../lib/retry.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/retry.sh"

if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "redis-server is not on PATH and installing it needs root: sudo bash $0" >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "redis-server is not on PATH and there is no apt-get to install it: install redis-server (Redis >= 7) yourself" >&2
    exit 1
  fi
  echo "redis-server not on PATH: apt-get install redis-server"
  retry bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null'
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "apt-get installed redis-server but it is still not on PATH" >&2
    exit 1
  fi
fi
redis-server --version
