#!/usr/bin/env bash
# Packaging: publint (warnings fail too) and Are The Types Wrong on the packed tarball, every entry.
# Every resolution attw knows, node10 included: `typesVersions` makes the subpath entries visible to it.
set -euo pipefail
cd "$(dirname "$0")/../.."
npx --no-install publint --strict
# CI built dist/ before this step: attw's `npm pack` skips the prepack script rather than build again.
npm_config_ignore_scripts=true npx --no-install attw --pack .
