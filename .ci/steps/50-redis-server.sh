#!/usr/bin/env bash
# redis-server for the Redis tests, which start their own on free 127.0.0.1 ports
# (test/helpers/redis.ts): Debian's package, installed with apt-get when it is not on PATH, by the
# installer npm test's pretest runs too (scripts/test-tools.ts; CI runs as root). Without root or
# apt-get it fails with the one command to run; the tests never skip without redis-server.
set -euo pipefail
cd "$(dirname "$0")/../.."

npx --no-install tsx scripts/test-tools.ts
redis-server --version
