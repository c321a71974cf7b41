#!/usr/bin/env bash
# Installs the Debian packages battlecore needs to build, test and benchmark, and only those
# that are missing. Runs as root, or through sudo when not root.
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libfmt-dev libcli11-dev
  clang libclang-rt-14-dev
  lld  # links the programs (the test build's many) far faster than ld.bfd
  libcpp-httplib-dev
  chromium  # the HTML report test and the monitor's browser test
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
# The browser tests need node and npm; any install of them will do (Debian's by default).
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

# The browser tests' npm packages (tests/browser/package-lock.json), when not there yet.
browser_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/browser"
install_browser_packages() {
  if [ ! -d "$browser_dir/node_modules/playwright-core" ]; then
    echo "install-deps: npm ci in tests/browser"
    npm ci --prefix "$browser_dir" --no-audit --no-fund --loglevel=error
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  install_browser_packages
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: missing packages (${missing[*]}) and neither root nor sudo is available" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_browser_packages
