# Sourced by the scripts: puts the project's pinned tools first on PATH.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$root/tests/node_modules/.bin:$HOME/.cargo/bin:$PATH"
