#!/usr/bin/env bash
# Runs every test layer: type checks, lint (module boundaries, floating promises), unit (Node), component
# (Chromium), extension host and end-to-end (real VS Code via code-server). Prints one summary line
# "N passed, N failed" and fails on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

LOG_DIR=test-results/logs
mkdir -p "$LOG_DIR"
total_pass=0
total_fail=0
failed_stages=()
summary=()

# Reads the counts a stage printed (node:test spec reporter or mocha) from its log.
count_results() {
  local log=$1 pass fail
  pass=$(grep -aoE '^(ℹ|#) pass [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
  fail=$(grep -aoE '^(ℹ|#) fail [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
  pass=$((pass + $(grep -aoE '^ *[0-9]+ passing' "$log" | awk '{s+=$1} END {print s+0}')))
  fail=$((fail + $(grep -aoE '^ *[0-9]+ failing' "$log" | awk '{s+=$1} END {print s+0}')))
  echo "$pass $fail"
}

stage() {
  local name=$1; shift
  local log="$LOG_DIR/$name.log" start=$SECONDS status
  echo
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  read -r pass fail < <(count_results "$log")
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  if [ "$status" -ne 0 ]; then
    failed_stages+=("$name")
    # A stage that failed without reporting a failing test still counts as one failure.
    [ "$fail" -eq 0 ] && total_fail=$((total_fail + 1))
  fi
  # The load average at the stage's end: a stage much slower than its last run on a machine busy with something
  # else (a process left over from an earlier stage) shows it here.
  summary+=("$(printf '%-10s %-6s %4s passed %4s failed  %4ss  load %s' "$name" "$([ "$status" -eq 0 ] && echo ok || echo FAILED)" "$pass" "$fail" $((SECONDS - start)) "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)")")
}

# Type checks and lint are one process each (one core): lint runs beside the type checks, and its stage prints
# its output and takes its status once the type checks are done (its time is what was left to wait for).
npm run --silent lint > "$LOG_DIR/lint.out" 2>&1 &
lint_pid=$!
replay() {
  cat "$2"
  return "$1"
}
stage typecheck npm run --silent typecheck
lint_status=0
wait "$lint_pid" || lint_status=$?
stage lint replay "$lint_status" "$LOG_DIR/lint.out"
stage build node scripts/build.mjs
# Two unit files at a time (Node's default is one fewer than the cores: one on a 2-core CI machine); each file
# is its own process and owns its temp dirs and ports. Chromium-bound component files gain nothing from two.
stage unit node --import tsx --test --test-concurrency=2 --test-reporter=spec test/unit/*.test.ts
stage component node --import tsx --test --test-concurrency=1 --test-reporter=spec test/component/*.test.ts
stage exthost node scripts/run-exthost-tests.mjs
# Two e2e files at a time: each has its own code-server, workspace, ports and browser, and every wait ends on
# something the product shows, so they pass on a loaded machine (two at a time is such a machine); it takes the
# two stages from about 18 to about 14 minutes on a 2-core CI machine.
# The longest files start first, so the stage does not end on one long file running alone; the rest follow in
# name order (a new file runs even if it is not listed here).
LONG_E2E_FILES=(control steer security history truth v1v2 reload session)
longest_first() {
  local ordered=() file name
  for name in "${LONG_E2E_FILES[@]}"; do
    for file in "$@"; do [ "$file" = "test/e2e/$name.e2e.test.mjs" ] && ordered+=("$file"); done
  done
  for file in "$@"; do
    case " ${ordered[*]} " in *" $file "*) ;; *) ordered+=("$file") ;; esac
  done
  printf '%s\n' "${ordered[@]}"
}
mapfile -t e2e_files < <(longest_first test/e2e/*.e2e.test.mjs)
stage e2e node --test --test-concurrency=2 --test-reporter=spec "${e2e_files[@]}"
# The default (`auto`) speaks ACP v2 with the demo agent; the files whose paths differ by protocol version run
# again at v1 so every v1 path stays tested end to end (v2.e2e and changesReview.e2e pin v2 themselves, so a
# second run would repeat the first; v1v2.e2e pins both). The
# rest do not depend on the version: the keybinding and workbench checks, the first-run welcome, a chat page that
# fails to load, Reload Webviews (the page is rebuilt from the store's snapshot, whatever the wire spoke), the
# hostile-agent checks (a notification and the trust gate, the same at both versions), the packaged-extension check
# and the replayed real agents (truth.e2e: a replayed transcript answers v1 whatever is offered), cost.e2e (its
# usage and notification paths do not depend on the version; it passes at v1 too), and history.e2e (two of its
# tests open recorded transcripts whatever the setting; the other two restore a session from the history file,
# whose lines the store replays the same way at both versions, as the unit tests of each version's store show).
v1_files=()
for file in test/e2e/*.e2e.test.mjs; do
  case $file in */v2.e2e.test.mjs | */changesReview.e2e.test.mjs | */v1v2.e2e.test.mjs | */vsix.e2e.test.mjs | */cancelKey.e2e.test.mjs | */security.e2e.test.mjs | */smoke.e2e.test.mjs | */truth.e2e.test.mjs | */cost.e2e.test.mjs | */reload.e2e.test.mjs | */welcome.e2e.test.mjs | */pageLoad.e2e.test.mjs | */history.e2e.test.mjs) ;; *) v1_files+=("$file") ;; esac
done
mapfile -t v1_files < <(longest_first "${v1_files[@]}")
SUBCHATS_E2E_PROTOCOL=1 stage e2e-v1 node --test --test-concurrency=2 --test-reporter=spec "${v1_files[@]}"

echo
echo "=== Summary"
printf '%s\n' "${summary[@]}"
echo "Screenshots: test-results/screenshots/   Logs: $LOG_DIR/"
echo
echo "${total_pass} passed, ${total_fail} failed"
if [ "${#failed_stages[@]}" -gt 0 ]; then
  echo "Failed stages: ${failed_stages[*]}"
  exit 1
fi
