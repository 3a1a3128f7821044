#!/usr/bin/env bash
# Offline preflight of a change, for every stack in stacks/: the plan of BASE_REF and of
# the working tree (HEAD), the policy pack over HEAD's plan, and the diff between the
# two, collected into one markdown report. No Pulumi CLI and no credentials: safe to run
# on pull requests from forks, and locally:
#
#   scripts/plan_all.sh BASE_REF OUT_DIR        e.g. scripts/plan_all.sh origin/main build/preflight
#
# Writes OUT_DIR/<stack>.base.json, OUT_DIR/<stack>.head.json, OUT_DIR/report.md, plus
# OUT_DIR/comment.md (the report, cut to fit a pull-request comment), OUT_DIR/<stack>.diff.json
# and OUT_DIR/logs/ (each command's output).
#
# The base is checked out with `git worktree` and planned with its own code and its own
# venv (`make venv` there; HEAD's venv is reused when requirements.txt is the same). When
# the base cannot be planned (ref unknown, no preflight yet, its venv or plan fails, or
# the stack is new) its plan is taken as empty, so the diff shows every resource as a
# create, and the report says why.
#
# Exit status: 0 when every HEAD plan was recorded, diffed and passed the policy pack;
# 1 otherwise (the report is written either way); 2 on bad usage.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BASE_REF OUT_DIR" >&2
  exit 2
fi
BASE_REF=$1
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$2/logs"
OUT=$(cd "$2" && pwd)
LOGS=$OUT/logs
HEAD_PY=$ROOT/venv/bin/python
COMMENT_LIMIT=60000 # GitHub refuses comments over 65536 characters

log() { echo "plan_all: $*" >&2; }

# HEAD's venv first: everything below (diff, policy, reading JSON) runs on it.
log "make venv (head)"
if ! make -C "$ROOT" --no-print-directory venv >"$LOGS/head-venv.log" 2>&1; then
  cat "$LOGS/head-venv.log" >&2
  log "cannot create the venv of the working tree"
  exit 1
fi

WORK=$(mktemp -d)
BASE_DIR=$WORK/base
cleanup() {
  if [[ -d $BASE_DIR ]]; then
    rm -f "$BASE_DIR/venv" 2>/dev/null || true # only when it is our symlink to HEAD's venv
    git -C "$ROOT" worktree remove --force "$BASE_DIR" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# Why every base plan is empty, if it is; empty while the base can be planned.
base_unavailable=""
base_label=$BASE_REF
if base_sha=$(git -C "$ROOT" rev-parse --verify --quiet "${BASE_REF}^{commit}"); then
  base_label=$(git -C "$ROOT" rev-parse --short "$base_sha")
  log "git worktree add $base_label"
  if ! git -C "$ROOT" worktree add --detach "$BASE_DIR" "$base_sha" >"$LOGS/base-worktree.log" 2>&1; then
    base_unavailable="\`git worktree add\` of the base failed (logs/base-worktree.log)"
  else
    if cmp -s "$ROOT/requirements.txt" "$BASE_DIR/requirements.txt"; then
      ln -s "$ROOT/venv" "$BASE_DIR/venv" # same pins: skip installing the SDKs twice
    fi
    if [[ ! -f $BASE_DIR/preflight/plan.py ]]; then
      base_unavailable="the base has no \`preflight plan\` yet"
    else
      log "make venv (base)"
      if ! make -C "$BASE_DIR" --no-print-directory venv >"$LOGS/base-venv.log" 2>&1; then
        base_unavailable="\`make venv\` failed in the base (logs/base-venv.log)"
      fi
    fi
  fi
else
  base_unavailable="the base ref \`$BASE_REF\` is not a commit here (shallow clone? use fetch-depth: 0)"
fi

stacks_in() { # the stack names of a checkout, one a line
  local file
  for file in "$1"/stacks/Pulumi.*.yaml; do
    [[ -e $file ]] || continue
    file=${file##*/Pulumi.}
    echo "${file%.yaml}"
  done
}
STACKS=()
while IFS= read -r stack; do
  STACKS+=("$stack")
done < <({
  stacks_in "$ROOT"
  if [[ -z $base_unavailable ]]; then stacks_in "$BASE_DIR"; fi
} | sort -u)

empty_plan() { # empty_plan STACK FILE
  printf '{"project": "anyscale-cloud", "stack": "%s", "resources": []}\n' "$1" >"$2"
}
count() { # the number of resources in a plan file
  "$HEAD_PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["resources"]))' "$1" 2>/dev/null || echo "?"
}
summary_of() { # the one-line summary of a diff JSON
  "$HEAD_PY" -c 'import json, sys; print(json.load(open(sys.argv[1])).get("summary", "see below"))' "$1" 2>/dev/null ||
    echo "see below"
}
fenced() { # a log file as a fenced block, last 60 lines
  echo '```'
  tail -n 60 "$1"
  echo '```'
}

failures=0
rows=()
sections="$WORK/sections.md"
: >"$sections"

for stack in "${STACKS[@]}"; do
  base_json=$OUT/$stack.base.json
  head_json=$OUT/$stack.head.json
  diff_json=$OUT/$stack.diff.json
  notes=()
  rm -f "$base_json" "$head_json" "$diff_json"

  # --- base -------------------------------------------------------------------
  if [[ -n $base_unavailable ]]; then
    empty_plan "$stack" "$base_json"
    notes+=("Base plan taken as empty: $base_unavailable.")
  elif [[ ! -f $BASE_DIR/stacks/Pulumi.$stack.yaml ]]; then
    empty_plan "$stack" "$base_json"
    notes+=("New stack: not in the base, so its plan is empty there.")
  else
    log "plan $stack (base)"
    if ! (cd "$BASE_DIR" && venv/bin/python -m preflight plan --stack "$stack" --json "$base_json" --quiet) \
      >"$LOGS/$stack.base.log" 2>&1; then
      empty_plan "$stack" "$base_json"
      notes+=("Base plan taken as empty: \`preflight plan\` failed on the base (logs/$stack.base.log).")
    fi
  fi

  # --- head -------------------------------------------------------------------
  head_ok=true
  removed=false
  if [[ ! -f $ROOT/stacks/Pulumi.$stack.yaml ]]; then
    removed=true
    empty_plan "$stack" "$head_json"
    notes+=("Stack removed by this change: its plan is empty here, so every resource shows as a delete.")
  else
    log "plan $stack (head)"
    if ! (cd "$ROOT" && "$HEAD_PY" -m preflight plan --stack "$stack" --json "$head_json" --quiet) \
      >"$LOGS/$stack.head.log" 2>&1; then
      head_ok=false
    fi
  fi

  {
    echo "## Stack \`$stack\`"
    echo
    for note in "${notes[@]+"${notes[@]}"}"; do echo "- $note"; done
    [[ ${#notes[@]} -eq 0 ]] || echo
  } >>"$sections"

  if ! $head_ok; then
    failures=$((failures + 1))
    rows+=("| \`$stack\` | $(count "$base_json") → **failed** | – | – |")
    {
      echo "**\`preflight plan --stack $stack\` failed on this change:**"
      echo
      fenced "$LOGS/$stack.head.log"
      echo
    } >>"$sections"
    continue
  fi

  # --- policy (HEAD only) -------------------------------------------------------
  if $removed; then
    policy="–"
  elif [[ ! -f $ROOT/preflight/policy.py ]]; then
    policy="not run"
    echo "- Policy: not run, \`preflight/policy.py\` is not in this tree yet." >>"$sections"
  else
    # The gate is the base's pack, run by the base's own code over this change's plan, so
    # that an edit to policy/ cannot weaken the check it is gated by; this change's pack
    # runs after it as advice only. Without a usable base, this change's pack is the gate.
    # (The workflow and this script are still the pull request's: docs/deploying.md, "What
    # a pull request's checks can promise", and .github/CODEOWNERS.)
    gate_dir=$ROOT gate_py=$HEAD_PY gate_pack="this change's pack"
    if [[ -z $base_unavailable && -f $BASE_DIR/preflight/policy.py ]]; then
      gate_dir=$BASE_DIR gate_py=$BASE_DIR/venv/bin/python gate_pack="the base's pack"
    fi
    log "policy $stack ($gate_pack)"
    if (cd "$gate_dir" && "$gate_py" -m preflight policy --plan "$head_json") >"$LOGS/$stack.policy.log" 2>&1; then
      policy="passed"
      {
        echo "<details><summary>Policy: passed ($gate_pack)</summary>"
        echo
        fenced "$LOGS/$stack.policy.log"
        echo "</details>"
      } >>"$sections"
    else
      policy="**failed**"
      failures=$((failures + 1))
      {
        echo "**Policy: failed** ($gate_pack; \`python -m preflight policy --plan $stack.head.json\`):"
        echo
        fenced "$LOGS/$stack.policy.log"
      } >>"$sections"
    fi
    if [[ $gate_dir != "$ROOT" ]]; then
      (cd "$ROOT" && "$HEAD_PY" -m preflight policy --plan "$head_json") >"$LOGS/$stack.policy-head.log" 2>&1 || true
      {
        echo "<details><summary>Policy of this change's pack (advice, not a gate)</summary>"
        echo
        fenced "$LOGS/$stack.policy-head.log"
        echo "</details>"
      } >>"$sections"
    fi
  fi
  echo >>"$sections"

  # --- diff -------------------------------------------------------------------
  log "diff $stack"
  if (cd "$ROOT" && "$HEAD_PY" -m preflight diff "$base_json" "$head_json" --format markdown --json "$diff_json") \
    >"$LOGS/$stack.diff.md" 2>"$LOGS/$stack.diff.err"; then
    changes=$(summary_of "$diff_json")
    cat "$LOGS/$stack.diff.md" >>"$sections"
  else
    changes="**diff failed**"
    failures=$((failures + 1))
    {
      echo "**\`preflight diff\` failed:**"
      echo
      fenced "$LOGS/$stack.diff.err"
    } >>"$sections"
  fi
  echo >>"$sections"
  rows+=("| \`$stack\` | $(count "$base_json") → $(count "$head_json") | $changes | $policy |")
done

head_label=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "working tree")
if [[ -n $(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
  head_label="$head_label + uncommitted changes"
fi

{
  echo "# Preflight: plan, policy and diff per stack"
  echo
  echo "Base \`$base_label\` → head \`$head_label\`. Recorded offline under Pulumi's mock runtime"
  echo "(\`python -m preflight\`): no cloud was asked, so values only the cloud knows read"
  echo "\`\${name.property}\` and secrets read \`[secret]\`."
  echo
  if [[ $failures -gt 0 ]]; then
    echo "> [!WARNING]"
    echo "> $failures check(s) failed: see below."
    echo
  fi
  echo "| stack | resources (base → head) | changes | policy |"
  echo "|---|---|---|---|"
  for row in "${rows[@]+"${rows[@]}"}"; do echo "$row"; done
  echo
  cat "$sections"
} >"$OUT/report.md"

if [[ $(wc -c <"$OUT/report.md") -le $COMMENT_LIMIT ]]; then
  cp "$OUT/report.md" "$OUT/comment.md"
else
  {
    # Whole lines only, and never inside a fenced block (a Mermaid diagram cut in half does
    # not render): a block left open by the cut goes whole.
    head -c "$COMMENT_LIMIT" "$OUT/report.md" | sed '$d' |
      awk '{ line[NR] = $0 } /^```/ { if (open) open = 0; else { open = 1; start = NR } }
        END { last = open ? start - 1 : NR; for (i = 1; i <= last; i++) print line[i] }'
    echo
    echo "_(cut to fit a comment: the full report is report.md in the workflow's \`preflight-plans\` artifact)_"
  } >"$OUT/comment.md"
fi

log "report: $OUT/report.md (${#STACKS[@]} stack(s), $failures failure(s))"
[[ $failures -eq 0 ]]
