# The official Node binaries, from the npm registry: the package node-linux-<arch>@<major> holds
# bin/node and include/node (the headers a native module builds against). Sourced by .ci/run;
# usable by hand: `source .ci/node.sh; PATH=$(install_node 24):$PATH`.

NODE_PREFIX=${NODE_PREFIX:-$(mktemp -d /tmp/ctrlrun-node.XXXXXX)}

install_node() { # install_node MAJOR: installs the newest MAJOR.x, prints its bin folder
  local arch dir
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
  dir="$NODE_PREFIX/$1"
  if [ ! -x "$dir/node_modules/node-linux-$arch/bin/node" ]; then
    mkdir -p "$dir"
    echo '{ "name": "ctrlrun-node", "private": true }' >"$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node-linux-$arch@$1" >/dev/null
  fi
  echo "$dir/node_modules/node-linux-$arch/bin"
}

use_node() { # use_node BIN_DIR: that node first on the PATH (npm and npx run on it)
  export PATH="$1:$PATH"
  # every npm install from here (the README test's npm ci too) builds against this Node's headers
  npm_config_nodedir=$(dirname "$1")
  export npm_config_nodedir
  hash -r
}

native_for_this_node() { # rebuilds better-sqlite3 when it was built for another Node's ABI
  [ -d node_modules/better-sqlite3 ] || return 0
  if ! node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
    echo "== rebuilding better-sqlite3 for node $(node --version)"
    npm rebuild better-sqlite3 >/dev/null
  fi
}
