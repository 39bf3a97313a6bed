#!/usr/bin/env bash
# API reference: TypeDoc must build with zero warnings (typedoc.json treats warnings as errors and
# requires every exported symbol, property and method to be documented).
set -euo pipefail
npm run docs
