#!/usr/bin/env bash
# Packaging: publint (warnings fail too) and Are The Types Wrong on the packed tarball, every entry.
# Profile node16: the package needs Node >= 20, so node10 resolution of subpaths is out of scope;
# node16 still checks both CJS and ESM resolution and the bundler resolution.
set -euo pipefail
cd "$(dirname "$0")/../.."
npx --no-install publint --strict
# CI built dist/ before this step: attw's `npm pack` skips the prepack script rather than build again.
npm_config_ignore_scripts=true npx --no-install attw --pack . --profile node16
