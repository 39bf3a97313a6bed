#!/usr/bin/env bash
# Runtime matrix (scripts/runtimes.ts): the one smoke script on Node 20, 22, 24, Bun, Deno, headless
# Chromium (playwright-core), Cloudflare's workerd and Vercel's Edge Runtime, each against a fresh
# sandbox on 127.0.0.1; workerd and the Edge Runtime also serve examples/worker.ts against the
# sandbox CLI. workerd and edge-runtime are pinned devDependencies (npm ci installed them; they
# download nothing at run time). The other downloads (Chromium from apt when none is on PATH or
# CHROMIUM_PATH, the runtimes through npx) are done first, with retries, so a slow mirror is not
# reported as a runtime failure. Cold machine, measured: about 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../lib/retry.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/retry.sh"

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium chromium-browser google-chrome >/dev/null 2>&1; then
  retry bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'
fi
for runtime in node@22 node@24 bun@1 deno@2; do
  retry npx -y "$runtime" --version >/dev/null
done
npx --no-install tsx scripts/runtimes.ts
