#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml): `ctrlrun-gen check` once in each package that holds
# one of the given files. A package is the folder of the nearest ctrlrun.tools.yaml above a file,
# up to the repository's root. The whole package is checked, since some rules see the whole repo
# (tracing, the generated module's freshness). Files in no package are left alone. Exit: the worst
# of the checks (2 a configuration error, 1 findings, 0 none).
set -uo pipefail

declare -A seen=()
packages=()
for file in "$@"; do
  dir=$(cd "$(dirname -- "$file")" 2>/dev/null && pwd) || continue
  while :; do
    if [ -f "$dir/ctrlrun.tools.yaml" ]; then
      if [ -z "${seen[$dir]:-}" ]; then seen[$dir]=1; packages+=("$dir"); fi
      break
    fi
    # never above the repository (pre-commit runs hooks at its root)
    if [ "$dir" = "$PWD" ] || [ "$dir" = / ]; then break; fi
    dir=$(dirname -- "$dir")
  done
done

worst=0
for dir in "${packages[@]}"; do
  echo "ctrlrun-gen check in ${dir#"$PWD"/}"
  # npx exits 1 when the package is missing, as check does on findings: ask Node first
  if ! (cd "$dir" && node -e "require.resolve('ctrlrun-gen/package.json', { paths: [process.cwd()] })" 2>/dev/null); then
    echo "ctrlrun-gen is not installed for ${dir#"$PWD"/}: install it with \`npm i -D ctrlrun-gen ctrlrun-gen-cli\`" >&2
    worst=2
    continue
  fi
  (cd "$dir" && npx --no-install ctrlrun-gen check)
  code=$?
  if [ "$code" -gt "$worst" ]; then worst=$code; fi
done
exit "$worst"
