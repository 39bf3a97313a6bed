#!/usr/bin/env bash
# Runtime matrix (scripts/runtimes.ts): the one smoke script on Node 20, 22, 24, Bun, Deno and
# Debian's chromium (playwright-core), each against a fresh sandbox on 127.0.0.1. The downloads
# (chromium from apt when missing, the runtimes through npx) are done first, with retries, so a
# slow mirror is not reported as a runtime failure. Cold machine, measured: about 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../lib/retry.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/retry.sh"

if [ ! -x /usr/bin/chromium ]; then
  retry bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'
fi
for runtime in node@22 node@24 bun@1 deno@2; do
  retry npx -y "$runtime" --version >/dev/null
done
npx --no-install tsx scripts/runtimes.ts
