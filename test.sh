#!/usr/bin/env bash
# Set up handfoot with its test tools in .venv and run every test:
# ruff (lint), mypy --strict (types), then pytest (unit, property and doctests), twice:
# with the modules compiled by the install (see setup.py) and as pure Python.
# The research extra (PettingZoo, OpenSpiel, Ray: docs/research.md) and the load test's
# (bench: aiohttp, uvloop) are installed too.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/pytest ] || [ pyproject.toml -nt .venv/.installed-test ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test,research,bench]'
  touch .venv/.installed-test
fi
echo "== ruff"
.venv/bin/ruff check src tests
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest (the compiled modules, where the install compiled them)"
.venv/bin/python -c "from handfoot.compiled import running_compiled as c; print('compiled' if c() else 'pure Python')"
.venv/bin/pytest "$@"
echo "== pytest, pure Python (HANDFOOT_PURE=1: the same tests on the modules' source)"
HANDFOOT_PURE=1 .venv/bin/pytest "$@"
