#!/usr/bin/env bash
# pnr-fit.sh CMD...: runs a nextpnr command, its output on stdout, and stops it as soon as its
# utilisation report shows more cells of a kind than the device has. nextpnr-ice40 then fails by
# itself, but nextpnr-ecp5 (0.11) goes on into its analytical placer and never finishes (docs/
# synthesis.md 13). The stop adds one line, "ERROR: does not fit: KIND USED/AVAILABLE", which
# collect.py reports with the utilisation line; exit 1. Otherwise the command's exit status.
set -uo pipefail
exec {out}< <(exec "$@" 2>&1)
pid=$!
trap 'kill "$pid" 2>/dev/null; exit 130' INT TERM
re='(ICESTORM_LC|TRELLIS_COMB|TRELLIS_SLICE):[[:space:]]*([0-9]+)/[[:space:]]*([0-9]+)'
while IFS= read -r line <&"$out"; do
  printf '%s\n' "$line"
  if [[ $line =~ $re ]] && (( BASH_REMATCH[2] > BASH_REMATCH[3] )); then
    echo "ERROR: does not fit: ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}/${BASH_REMATCH[3]} (stopped by pnr-fit.sh)"
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    exit 1
  fi
done
wait "$pid"
