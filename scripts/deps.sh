#!/usr/bin/env bash
# Installs what the project needs and is missing, with apt-get (Debian). Says what it does.
# Tools: gcc, make (build); verilator, iverilog (simulation); yosys, nextpnr-ice40, icestorm
# (synthesis); gnuplot (plots); graphviz (lcan gen / lcan draw pictures). Then the pinned Python
# tools from PyPI in build/venv (scripts/deps-py.sh: fusesoc). Idempotent: one line per part when
# all is present.
set -euo pipefail
declare -A pkg_of=(
  [gcc]=gcc [make]=make [verilator]=verilator [iverilog]=iverilog [yosys]=yosys
  [nextpnr-ice40]=nextpnr-ice40 [icepack]=fpga-icestorm [gnuplot]=gnuplot-nox [python3]=python3 [ccache]=ccache
  [dot]=graphviz
)
missing=()
for tool in "${!pkg_of[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("${pkg_of[$tool]}")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all tools present (gcc make verilator iverilog yosys nextpnr-ice40 icestorm gnuplot graphviz)"
  exec bash "$(dirname "$0")/deps-py.sh"
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
command -v apt-get >/dev/null 2>&1 || { echo "deps: apt-get not found; install by hand: ${missing[*]}" >&2; exit 1; }
echo "deps: installing with apt-get: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
exec bash "$(dirname "$0")/deps-py.sh"
