# shellcheck shell=bash
# Sourced by the scripts: times their stages (install deps, configure,
# build, run) and prints the times when the command ends, also when a
# stage fails.
#
#   stage_begin "build"; ...; stage_end
#
# The first script that sources this creates the record (WEFT_STAGE_LOG)
# which the scripts it runs append to, and prints the table on exit.

if [[ -z ${WEFT_STAGE_LOG:-} ]]; then
  WEFT_STAGE_LOG=$(mktemp "${TMPDIR:-/tmp}/weft-stages.XXXXXX")
  export WEFT_STAGE_LOG
  StageOwner=1
else
  StageOwner=0
fi
StageName=
StageStart=0

# Milliseconds as "12.3 s".
stage_seconds() {
  printf '%d.%d s' $(($1 / 1000)) $(($1 % 1000 / 100))
}

stage_begin() {
  StageName=$1
  StageStart=$(date +%s%N)
}

# stage_end [note]: the note ("failed") follows the stage's name.
stage_end() {
  local Ms=$((($(date +%s%N) - StageStart) / 1000000))
  local Label=$StageName${1:+ ($1)}
  printf '%s\t%d\n' "$Label" "$Ms" >>"$WEFT_STAGE_LOG"
  echo "== $Label: $(stage_seconds "$Ms")"
  StageName=
}

# The EXIT trap; a script with a trap of its own calls it last, passing
# the exit status on: trap 'Status=$?; ...; stage_exit $Status' EXIT
stage_exit() {
  local Status=${1:-$?}
  if [[ -n $StageName ]]; then
    stage_end failed
  fi
  if [[ $StageOwner -eq 1 && -s $WEFT_STAGE_LOG ]]; then
    local Name Ms Total=0
    echo
    echo "== time per stage"
    while IFS=$'\t' read -r Name Ms; do
      printf '  %-22s %10s\n' "$Name" "$(stage_seconds "$Ms")"
      Total=$((Total + Ms))
    done <"$WEFT_STAGE_LOG"
    printf '  %-22s %10s\n' "total" "$(stage_seconds "$Total")"
  fi
  if [[ $StageOwner -eq 1 ]]; then
    rm -f "$WEFT_STAGE_LOG"
  fi
  exit "$Status"
}
trap stage_exit EXIT
