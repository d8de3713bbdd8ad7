#!/usr/bin/env bash
# The Rust supply chain, checked with cargo-deny against deny.toml:
#   scripts/supply-chain.sh policy       licences, sources and bans (no database needed)
#   scripts/supply-chain.sh advisories   known vulnerabilities (RustSec advisory database)
# The advisory database is a git repository. It comes from, in this order:
#   CUBICLE_ADVISORY_DB=PATH   a local copy (a clone or a bare mirror of rustsec/advisory-db)
#   the network                cargo deny fetches it, for at most CUBICLE_ADVISORY_FETCH_SECONDS (60)
#   an earlier fetch           if its newest commit is at most 90 days old
# With none of these the advisories are NOT checked: that is said loudly, with the reason,
# and the step passes unless CUBICLE_REQUIRE_ADVISORIES=1, where it fails.
set -uo pipefail
cd "$(dirname "$0")/.."

banner() { # banner LINE...
  printf '\n%s\n' "################################################################################"
  printf '### %s\n' "$@"
  printf '%s\n\n' "################################################################################"
}

if ! cargo deny --version >/dev/null 2>&1; then
  echo "cargo-deny is not installed: run scripts/setup.sh --test" >&2
  exit 1
fi

policy() {
  cargo deny --locked --log-level warn check licenses sources bans
}

# Advisories against a local copy. cargo-deny clones its database with the git command;
# git's `insteadOf` sends that clone to the local copy (no network), into a throwaway
# root named by a copy of deny.toml whose only change is db-path.
advisories_from_local() {
  local src=$1 gitdir url root config rc
  gitdir=$(git -C "$src" rev-parse --absolute-git-dir 2>/dev/null) || {
    echo "CUBICLE_ADVISORY_DB=$src is not a git repository (a clone of rustsec/advisory-db)" >&2
    return 1
  }
  local head date age_days
  head=$(git --git-dir="$gitdir" rev-parse --verify -q main) || {
    echo "CUBICLE_ADVISORY_DB=$src has no branch main" >&2
    return 1
  }
  date=$(git --git-dir="$gitdir" log -1 --format=%cI main)
  age_days=$(( ($(date +%s) - $(git --git-dir="$gitdir" log -1 --format=%ct main)) / 86400 ))
  echo "advisory database: $src, commit $head of $date ($age_days days old)"
  if ((age_days > 90)); then
    banner "WARNING: this advisory database is $age_days days old: advisories published since" \
      "$date are NOT checked. Use a fresh copy of rustsec/advisory-db."
  fi
  url=$(sed -n 's/^db-urls = \["\([^"]*\)"\]$/\1/p' deny.toml)
  [[ -n "$url" ]] || { echo "deny.toml names no single advisory database (db-urls)" >&2; return 1; }
  root=$(mktemp -d /tmp/cubicle-advisory-db.XXXXXX)
  config="$root/deny.toml"
  sed -e "s|^db-urls = .*|&\ndb-path = \"$root/dbs\"|" deny.toml >"$config"
  GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.file://$gitdir.insteadOf" GIT_CONFIG_VALUE_0="$url" \
    cargo deny --locked --log-level warn --config "$config" check advisories
  rc=$?
  rm -rf "$root"
  return $rc
}

# The age in days of the advisory database in git dir $1: that of its newest commit (the
# database gets new ones most days). The time of the last fetch says nothing, as git
# touches FETCH_HEAD even when a fetch fails.
db_age_days() {
  echo $(( ($(date +%s) - $(git --git-dir="$1" log -1 --format=%ct HEAD)) / 86400 ))
}
# "commit H of DATE (N days old)" for the advisory database in git dir $1.
describe_db() {
  local head
  head=$(git --git-dir="$1" rev-parse --verify -q HEAD) || return 1
  echo "commit $head of $(git --git-dir="$1" log -1 --format=%cI HEAD) ($(db_age_days "$1") days old)"
}

# The copy cargo-deny keeps in its default place ($CARGO_HOME/advisory-dbs), if any.
fetched_db() {
  local d
  for d in "${CARGO_HOME:-$HOME/.cargo}"/advisory-dbs/advisory-db-*/; do
    [[ -d "$d/.git" ]] && { echo "${d%/}/.git"; return 0; }
  done
  return 1
}

advisories() {
  if [[ -n "${CUBICLE_ADVISORY_DB:-}" ]]; then
    advisories_from_local "$CUBICLE_ADVISORY_DB"
    return
  fi
  local secs=${CUBICLE_ADVISORY_FETCH_SECONDS:-60} log why db about=""
  log=$(mktemp)
  echo "fetching the RustSec advisory database (at most $secs s)…"
  if GIT_TERMINAL_PROMPT=0 timeout "$secs" cargo deny --log-level error fetch db >"$log" 2>&1; then
    rm -f "$log"
    db=$(fetched_db) && echo "advisory database: fetched, $(describe_db "$db")"
    cargo deny --locked --offline --log-level warn check advisories
    return
  fi
  why=$(grep -v '^\s*$' "$log" | tail -3 | tr '\n' ' ')
  [[ -n "$why" ]] || why="no answer within $secs s"
  rm -f "$log"
  # An earlier fetch still serves while it is at most 90 days old (cargo-deny's own limit).
  if db=$(fetched_db) && about=$(describe_db "$db") && (($(db_age_days "$db") <= 90)); then
    echo "could not fetch the advisory database ($why)"
    echo "advisory database: the copy fetched earlier, $about"
    cargo deny --locked --offline --log-level warn check advisories
    return
  fi
  banner "RUST ADVISORIES WERE NOT CHECKED." \
    "The RustSec advisory database could not be fetched:" \
    "  $why" \
    "and there is no earlier copy of at most 90 days${about:+ (the earlier one: $about)}." \
    "Licences, sources and bans are a step of their own and need no database." \
    "To check advisories here, set CUBICLE_ADVISORY_DB to a clone of" \
    "rustsec/advisory-db (git clone https://github.com/rustsec/advisory-db)."
  [[ "${CUBICLE_REQUIRE_ADVISORIES:-}" == 1 ]] && { echo "CUBICLE_REQUIRE_ADVISORIES=1: failing" >&2; return 1; }
  return 0
}

case "${1:-}" in
  policy) policy ;;
  advisories) advisories ;;
  *) echo "usage: $0 policy|advisories" >&2; exit 2 ;;
esac
