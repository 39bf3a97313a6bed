#!/usr/bin/env bash
# The TypeScript matrix: the packed package compiled by a strict consumer (strict,
# exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck false) with TypeScript 5.4.5 (the
# lowest supported), 5.9.3, 6.0.3 and 7.0.2, each under nodenext, bundler and node10 resolution (node10
# up to 6.0: TypeScript 7 removed it), every entry imported.
set -euo pipefail
cd "$(dirname "$0")/../.."
# CI built dist/ before this step.
npx --no-install tsx scripts/types-matrix.ts
