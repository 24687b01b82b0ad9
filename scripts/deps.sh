#!/usr/bin/env bash
# Installs what the project needs and is missing, with apt-get (Debian). Says what it does.
# Tools: gcc, make (build); verilator, iverilog (simulation); yosys, nextpnr-ice40, icestorm
# (synthesis); gnuplot (plots); graphviz (lcan gen / lcan draw pictures); the tcmalloc library
# (tb/lcan-rtl preloads it into Verilator: its front end spends much of its time in glibc's malloc,
# docs/verification.md 6). Then the pinned Python
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
# libraries: package -> the file tb/lcan-rtl looks for
declare -A lib_of=([libtcmalloc-minimal4]=libtcmalloc_minimal.so.4)
for p in "${!lib_of[@]}"; do
  { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -q "${lib_of[$p]}" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all tools present (gcc make verilator iverilog yosys nextpnr-ice40 icestorm gnuplot graphviz tcmalloc)"
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
