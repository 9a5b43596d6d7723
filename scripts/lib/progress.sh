# Progress lines for the long steps of `npm start` and the test setup: each step says what it does, how long the
# whole run has taken so far, and every 20 s that it is still at it (npm's rebuilds print nothing for minutes).
# Sourced; the caller sets PROGRESS_TAG (e.g. "start").
progress_started=${progress_started:-$SECONDS}

log() { printf '[%s %3ss] %s\n' "${PROGRESS_TAG:-progress}" "$((SECONDS - progress_started))" "$*"; }

# step "what it does" command...: runs the command with a heartbeat; a failure says which step and stops the script.
step() {
  local what=$1
  shift
  log "$what…"
  (while sleep 20; do log "$what: still running"; done) &
  local beat=$! rc=0
  "$@" || rc=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    log "$what: failed (exit $rc)"
    exit "$rc"
  fi
}
