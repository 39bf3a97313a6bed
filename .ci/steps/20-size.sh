#!/usr/bin/env bash
# Size ceilings (scripts/size.ts), min+gzip: whole SDK <= 31 kB, what a static-token browser client
# loads first <= 27 kB, telephony-sdk/webhooks verify + sign <= 2 kB and whole entry <= 5.6 kB; the
# webhooks entry free of ky, zod and static node builtins. Entries whose source is missing are skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
npx --no-install tsx scripts/size.ts
