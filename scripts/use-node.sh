# shellcheck shell=bash
# `source scripts/use-node.sh [major]` (bash or zsh): this shell then runs the project's pinned
# Node.js (the primary line unless a major is given): its bin folder first on the PATH, and
# npm_config_nodedir at its headers, so that `npm ci` compiles any native addon for it rather than
# for the machine's own Node.js. The release is fetched once into a cache that `npm ci` does not
# empty (scripts/fetch-node.mjs, which pins the versions); sourcing again changes nothing. Prints
# nothing unless something fails. .ci/run sources it before installing.

__portfolio_use_node() {
  local root="$1" home
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "use-node: fetching the pinned Node.js needs a node and npm on the PATH (any version)" >&2
    return 1
  fi
  home=$(node "$root/scripts/fetch-node.mjs" "${2:-primary}") || return 1
  # Its bin first, and no other pinned line's bin left behind it (sourcing again changes nothing).
  local rest="$PATH:" entry kept=""
  while [ -n "$rest" ]; do
    entry=${rest%%:*}
    rest=${rest#*:}
    case "$entry" in
      "${home%/*}"/*/bin) ;;
      *) kept="${kept:+$kept:}$entry" ;;
    esac
  done
  export PATH="$home/bin${kept:+:$kept}"
  export npm_config_nodedir="$home"
  hash -r 2>/dev/null || true
}

# The folder of this file, found outside any function (where zsh's $0 would name the function).
__portfolio_use_node "$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)" "$@"
__portfolio_status=$?
unset -f __portfolio_use_node
if [ "$__portfolio_status" -ne 0 ]; then
  unset __portfolio_status
  return 1 2>/dev/null || exit 1
fi
unset __portfolio_status
