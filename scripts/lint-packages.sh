#!/usr/bin/env bash
# The two packages as a registry would serve them: each is packed (from the built dist/), then
# arethetypeswrong checks the types of every entry (node10, node16 from CommonJS and ESM, bundler)
# and publint checks package.json against the packed files (strict: warnings and suggestions fail).
# Run by .ci/run; by hand after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/runtime/index.js ] || npm run build >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for dir in . ./packages/cli; do
  tarball="$work/$(npm pack "$dir" --ignore-scripts --silent --pack-destination "$work" | tail -1)"
  echo "-- $(basename "$tarball")"
  node_modules/.bin/attw "$tarball" --format table-flipped || status=1
  node_modules/.bin/publint run "$tarball" --strict --level suggestion || status=1
done
exit "$status"
