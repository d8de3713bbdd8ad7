#!/usr/bin/env bash
# Cubicle's stand-in for linuxdeploy, the tool Tauri's AppImage bundler runs as
#   OUTPUT=<file> linuxdeploy --appimage-extract-and-run --verbosity N --appdir <AppDir> \
#     --plugin gtk --output appimage
# after it has laid out the AppDir (binary, .desktop, icons, AppRun). The real linuxdeploy
# is downloaded from GitHub at bundle time, which a machine with only package registries
# cannot reach; scripts/package.sh packs this script with an AppImage runtime (from the
# crates.io package `appimage`) into the file the bundler looks for instead.
#
# What it does: squash the AppDir (squashfs-tools) and put the type-2 runtime in front of
# it. What it does not do: copy the system libraries into the AppDir (linuxdeploy and
# its gtk plugin would): the AppImage uses the host's WebKitGTK 4.1 / GTK 3.
set -euo pipefail
die() { printf 'linuxdeploy (Cubicle stand-in): %s\n' "$*" >&2; exit 1; }

HERE=$(dirname "$(readlink -f "$0")")
RUNTIME="$HERE/runtime-x86_64"
appdir="" output=""
while (($#)); do
  case $1 in
    --appdir) appdir=${2:-}; shift 2 ;;
    --output) output=${2:-}; shift 2 ;;
    --plugin | --verbosity) shift 2 ;;
    --appimage-extract-and-run) shift ;;
    *) die "unexpected argument '$1' (a newer Tauri CLI? see scripts/package.sh)" ;;
  esac
done
[[ $output == appimage ]] || die "only '--output appimage' is supported (got '$output')"
[[ -n ${OUTPUT:-} ]] || die "OUTPUT (the AppImage to write) is not set"
[[ -d $appdir ]] || die "no AppDir at '$appdir'"
[[ -x $appdir/AppRun ]] || die "$appdir/AppRun is missing or not executable"
[[ -f $RUNTIME ]] || die "the AppImage runtime is missing beside this script ($RUNTIME)"
command -v mksquashfs >/dev/null || die "mksquashfs not found (Debian: apt-get install squashfs-tools)"

sqfs=$(mktemp)
trap 'rm -f "$sqfs" "$OUTPUT.partial"' EXIT
# gzip: the runtime reads zlib and xz squashfs; gzip packs a large debug binary much faster.
mksquashfs "$appdir" "$sqfs" -root-owned -noappend -no-progress -quiet -comp gzip >/dev/null
cat "$RUNTIME" "$sqfs" >"$OUTPUT.partial"
chmod 755 "$OUTPUT.partial"
mv -f "$OUTPUT.partial" "$OUTPUT"
echo "linuxdeploy (Cubicle stand-in): wrote $OUTPUT"
