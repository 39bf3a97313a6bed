#!/usr/bin/env bash
# Runtime matrix (scripts/runtimes.ts): the one smoke script on Node 20, 22, 24, 26, Bun, Deno, headless
# Chromium (playwright-core), Cloudflare's workerd and Vercel's Edge Runtime, each against a fresh
# sandbox on 127.0.0.1; workerd and the Edge Runtime also serve examples/worker.ts against the
# sandbox CLI. workerd and edge-runtime are pinned devDependencies (npm ci installed them; they
# download nothing at run time). The other downloads (Chromium from apt when none is on PATH or
# CHROMIUM_PATH, by scripts/test-tools.ts; the runtimes through npx) are done first, with retries, so
# a slow mirror is not reported as a runtime failure. Cold machine, measured: about 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../lib/retry.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/retry.sh"

# Chromium (and redis-server) from apt when missing: the installer npm test's pretest runs too.
npx --no-install tsx scripts/test-tools.ts
for runtime in node@22 node@24 node@26 bun@1 deno@2; do
  retry npx -y "$runtime" --version >/dev/null
done
npx --no-install tsx scripts/runtimes.ts
