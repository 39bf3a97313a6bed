#!/usr/bin/env bash
# Next.js leg (scripts/nextjs.ts): the packed package in the app of test/fixtures/nextjs, built by
# `next build` and served by `next start` on 127.0.0.1: a signed delivery to an edge route and a
# node route, and the client listing calls from a route against the sandbox. next, react and
# react-dom are pinned devDependencies, installed from npm's cache; telemetry is off.
set -euo pipefail
cd "$(dirname "$0")/../.."

NEXT_TELEMETRY_DISABLED=1 npx --no-install tsx scripts/nextjs.ts
