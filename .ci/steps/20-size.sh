#!/usr/bin/env bash
# Size budgets (scripts/size.ts): whole SDK <= 29 kB, telephony-sdk/webhooks <= 2 kB gzip, and the
# webhooks entry free of ky, zod and static node builtins. Entries whose source is missing are skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
npx --no-install tsx scripts/size.ts
