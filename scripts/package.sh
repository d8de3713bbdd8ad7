#!/usr/bin/env bash
# Builds Cubicle's Linux packages with Tauri's bundler — a .deb and an AppImage — then checks
# them. Not signed.
#   scripts/package.sh            from the debug build (the one set-up and the tests already
#                                 make, so little is rebuilt): what the test command checks
#   scripts/package.sh --release  from an optimised build: the packages to give people (about
#                                 half the memory of the debug build's code at start-up; a
#                                 first release build takes 10-15 min on 2 cores)
#   scripts/package.sh --verify [--release]   only verify the bundles already built
# Bundles land in target/<debug|release>/bundle/deb/ and …/bundle/appimage/.
#
# The AppImage without GitHub: Tauri's AppImage bundler downloads linuxdeploy and AppRun from
# GitHub at bundle time. Here, instead, the type-2 AppImage runtime comes from the crates.io
# package `appimage` (fetched with cargo, sha256-checked), mksquashfs from Debian's
# squashfs-tools, and scripts/package/{linuxdeploy.sh,AppRun} are put where the bundler looks
# for its tools, in a cache dir of our own (XDG_CACHE_HOME=target/package-tools/cache).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# Where cargo (and so the Tauri CLI) builds: honours CARGO_TARGET_DIR and cargo config.
TARGET=$(cargo metadata --no-deps --format-version 1 | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
VERIFY_ONLY=0
PROFILE=debug
for arg in "$@"; do
  case $arg in
    --verify) VERIFY_ONLY=1 ;;
    --release) PROFILE=release ;;
    *) echo "usage: scripts/package.sh [--verify] [--release]" >&2; exit 2 ;;
  esac
done
BUNDLE=$TARGET/$PROFILE/bundle
TOOLS=$TARGET/package-tools
TAURI_TOOLS=$TOOLS/cache/tauri

# The runtime: crates.io `appimage` 0.4.0 ships assets/runtime-x86_64 (AppImageKit runtime 8bbf694).
RUNTIME_CRATE=appimage
RUNTIME_CRATE_VERSION=0.4.0
RUNTIME_CRATE_SHA256=567a4da6b94a2ac20a27620933c80fc14cf475b5fe7d7b137d20eb237d6b1920
RUNTIME_SHA256=328e0d745c5c6817048c27bc3e8314871703f8f47ffa81a37cb06cd95a94b323
# The linuxdeploy build the Tauri CLI asks for (tauri-bundler's LINUXDEPLOY_COMMIT_HASH): the
# file name the stand-in must have. A CLI that wants another one fails the check below.
LINUXDEPLOY_TAG=07333c6

step() { printf '\n[%s] == %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { printf '[package] error: %s\n' "$*" >&2; exit 1; }
ok() { printf '[package] ok: %s\n' "$*"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { du -h "$1" | cut -f1; }

conf() { node -p "require('./tauri.conf.json').$1"; }
PRODUCT=$(conf productName)
VERSION=$(conf version)
BIN=$(conf mainBinaryName)
DEB="$BUNDLE/deb/${PRODUCT}_${VERSION}_amd64.deb"
APPIMAGE="$BUNDLE/appimage/${PRODUCT}_${VERSION}_amd64.AppImage"

# ---- the AppImage tools, from registries only ----
fetch_runtime() {
  local runtime=$TOOLS/runtime-x86_64
  if [[ -f $runtime && $(sha "$runtime") == "$RUNTIME_SHA256" ]]; then
    ok "AppImage runtime cached ($runtime)"
    return
  fi
  # cargo is the ordinary client for crates.io; a throwaway manifest (its own workspace)
  # makes it download the package into its registry cache.
  local manifest=$TOOLS/fetch-runtime
  mkdir -p "$manifest"
  cat >"$manifest/Cargo.toml" <<EOF
[package]
name = "cubicle-fetch-appimage-runtime"
version = "0.0.0"
edition = "2021"
publish = false
[lib]
path = "lib.rs"
[dependencies]
$RUNTIME_CRATE = "=$RUNTIME_CRATE_VERSION"
[workspace]
EOF
  : >"$manifest/lib.rs"
  cargo fetch --quiet --manifest-path "$manifest/Cargo.toml" \
    || die "cargo could not fetch the crate $RUNTIME_CRATE $RUNTIME_CRATE_VERSION (is crates.io reachable?)"
  local crate
  crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$RUNTIME_CRATE-$RUNTIME_CRATE_VERSION.crate" 2>/dev/null | head -n 1)
  [[ -f $crate ]] || die "cargo fetched, but $RUNTIME_CRATE-$RUNTIME_CRATE_VERSION.crate is not in the registry cache"
  [[ $(sha "$crate") == "$RUNTIME_CRATE_SHA256" ]] || die "sha256 mismatch for $crate"
  tar -xzOf "$crate" "$RUNTIME_CRATE-$RUNTIME_CRATE_VERSION/assets/runtime-x86_64" >"$runtime.partial"
  [[ $(sha "$runtime.partial") == "$RUNTIME_SHA256" ]] || die "sha256 mismatch for the runtime in $crate"
  mv -f "$runtime.partial" "$runtime"
  ok "AppImage runtime from crates.io $RUNTIME_CRATE $RUNTIME_CRATE_VERSION (sha256 $RUNTIME_SHA256)"
}

prepare_appimage_tools() {
  [[ $(uname -m) == x86_64 ]] || die "the AppImage step knows x86_64 only (the runtime's one architecture)"
  command -v mksquashfs >/dev/null || die "mksquashfs not found (Debian: apt-get install squashfs-tools)"
  local cli
  cli=$(ls node_modules/@tauri-apps/cli-linux-x64-gnu/*.node 2>/dev/null | head -n 1)
  [[ -f $cli ]] || die "the Tauri CLI is not installed (npm ci at the repo root)"
  grep -qaF "$LINUXDEPLOY_TAG" "$cli" \
    || die "this Tauri CLI no longer asks for linuxdeploy $LINUXDEPLOY_TAG: read tauri-bundler's appimage/linuxdeploy.rs and update LINUXDEPLOY_TAG"
  mkdir -p "$TOOLS" "$TAURI_TOOLS"
  fetch_runtime
  # The stand-in must be an ELF (the bundler overwrites bytes 8-10 of it, the AppImage magic,
  # which would break a script's #! line): pack it as an AppImage of its own with the runtime.
  local shim=$TOOLS/linuxdeploy.AppDir
  rm -rf "$shim" && mkdir -p "$shim"
  install -m 755 scripts/package/linuxdeploy.sh "$shim/AppRun"
  install -m 755 "$TOOLS/runtime-x86_64" "$shim/runtime-x86_64"
  mksquashfs "$shim" "$TOOLS/linuxdeploy.sqfs" -root-owned -noappend -no-progress -quiet >/dev/null
  cat "$TOOLS/runtime-x86_64" "$TOOLS/linuxdeploy.sqfs" >"$TAURI_TOOLS/linuxdeploy-$LINUXDEPLOY_TAG-x86_64.AppImage"
  chmod 755 "$TAURI_TOOLS/linuxdeploy-$LINUXDEPLOY_TAG-x86_64.AppImage"
  install -m 755 scripts/package/AppRun "$TAURI_TOOLS/AppRun-x86_64"
  # Present so the bundler does not try to download it; the stand-in uses no output plugin.
  echo "not used: Cubicle's linuxdeploy stand-in writes the AppImage itself" \
    >"$TAURI_TOOLS/linuxdeploy-plugin-appimage.AppImage"
  ok "bundler tools in $TAURI_TOOLS"
}

# ---- checks ----
check_deb() {
  [[ -f $DEB ]] || die "no .deb at $DEB"
  local info contents root
  info=$(dpkg-deb --info "$DEB")
  printf '%s\n' "$info" | sed -n 's/^ *\(Package\|Version\|Architecture\|Depends\|Installed-Size\):/  &/p'
  grep -q "^ *Package: $BIN$" <<<"$info" || die ".deb: package name is not $BIN"
  grep -q "^ *Version: $VERSION$" <<<"$info" || die ".deb: version is not $VERSION"
  grep -q "libwebkit2gtk-4.1-0" <<<"$info" || die ".deb: does not depend on libwebkit2gtk-4.1-0"
  grep -q "bubblewrap" <<<"$info" || die ".deb: does not depend on bubblewrap (the employees' sandbox)"
  grep -q "slirp4netns" <<<"$info" || die ".deb: does not depend on slirp4netns (an online box's network)"
  contents=$(dpkg-deb --contents "$DEB" | awk '{sub(/^\.\//, "", $6); print $6}')
  for f in "usr/bin/$BIN" "usr/share/applications/$PRODUCT.desktop" \
    "usr/share/icons/hicolor/32x32/apps/$BIN.png" "usr/share/icons/hicolor/128x128/apps/$BIN.png"; do
    grep -qxF "$f" <<<"$contents" || die ".deb does not contain $f"
  done
  ok ".deb contains the binary, the .desktop file and the icons"
  root=$(mktemp -d)
  dpkg -x "$DEB" "$root"
  grep -q "^Exec=$BIN" "$root/usr/share/applications/$PRODUCT.desktop" || die ".desktop: Exec is not $BIN"
  grep -q "^Icon=$BIN" "$root/usr/share/applications/$PRODUCT.desktop" || die ".desktop: Icon is not $BIN"
  if ldd "$root/usr/bin/$BIN" | grep "not found"; then die ".deb binary: libraries not found"; fi
  local v
  v=$("$root/usr/bin/$BIN" --version) || die ".deb binary: --version failed"
  [[ $v == "$PRODUCT $VERSION" ]] || die ".deb binary: --version printed '$v'"
  ok ".deb extracted (dpkg -x): all libraries found, '$BIN --version' → $v"
  rm -rf "$root"
}

check_appimage() {
  [[ -f $APPIMAGE && -x $APPIMAGE ]] || die "no executable AppImage at $APPIMAGE"
  [[ $(head -c 4 "$APPIMAGE" | od -An -c | tr -d ' ') == '177ELF' ]] || die "the AppImage is not an ELF file"
  local dir v
  dir=$(mktemp -d)
  (cd "$dir" && "$APPIMAGE" --appimage-extract >/dev/null) || die "--appimage-extract failed"
  for f in "usr/bin/$BIN" AppRun "$PRODUCT.desktop" .DirIcon "$PRODUCT.png"; do
    [[ -e $dir/squashfs-root/$f ]] || die "the AppImage does not contain $f"
  done
  [[ -x $dir/squashfs-root/AppRun ]] || die "AppRun in the AppImage is not executable"
  ok "AppImage --appimage-extract: binary, AppRun, .desktop and icon present"
  if ldd "$dir/squashfs-root/usr/bin/$BIN" | grep "not found"; then die "AppImage binary: libraries not found"; fi
  v=$("$dir/squashfs-root/AppRun" --version) || die "AppRun --version failed"
  [[ $v == "$PRODUCT $VERSION" ]] || die "AppRun --version printed '$v'"
  # Through the runtime itself (without FUSE: extract to /tmp and run).
  v=$("$APPIMAGE" --appimage-extract-and-run --version) || die "the AppImage did not run (extract-and-run)"
  [[ $v == "$PRODUCT $VERSION" ]] || die "the AppImage printed '$v'"
  ok "AppImage runs: '--appimage-extract-and-run --version' → $v"
  rm -rf "$dir"
}

if ((!VERIFY_ONLY)); then
  step "AppImage tools (runtime from crates.io, mksquashfs from Debian)"
  prepare_appimage_tools
  profile_flag=()
  [[ $PROFILE == debug ]] && profile_flag=(--debug)
  step "tauri build ${profile_flag[*]} --bundles deb,appimage ($PROFILE build)"
  started=$(date +%s)
  # --no-binary-patching: leave target/$PROFILE/$BIN as cargo built it (other runs may be using it).
  XDG_CACHE_HOME=$TOOLS/cache npx tauri build "${profile_flag[@]}" --ci --no-sign --no-binary-patching \
    --features custom-protocol --bundles deb,appimage
  echo "tauri build took $(($(date +%s) - started)) s"
fi

step "check the .deb"
check_deb
step "check the AppImage"
check_appimage

step "bundles"
printf '%-8s %6s  %s\n' deb "$(size "$DEB")" "$DEB" AppImage "$(size "$APPIMAGE")" "$APPIMAGE"
