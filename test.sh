#!/usr/bin/env bash
# Set up handfoot with its test tools in .venv and run every test:
# ruff (lint), mypy --strict (types), then pytest (unit, property and doctests): every
# test with the modules compiled by the install (see setup.py), then again as pure Python
# (HANDFOOT_PURE=1), all but the tests marked "served": those of the server and the pages,
# whose own code is never compiled (the pure engine under a server is still played through
# by tests/server/test_server.py). Where the install is pure Python, the first pass is already
# every test on pure Python and is the only one.
# The research extra (PettingZoo, OpenSpiel, Ray: docs/research.md) and the load test's
# (bench: aiohttp) are installed too.
set -euo pipefail
cd "$(dirname "$0")"
echo "== set up ($(date +%T))"
if [ ! -x .venv/bin/pytest ] || [ pyproject.toml -nt .venv/.installed-test ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test,research,bench]'
  touch .venv/.installed-test
fi
echo "== ruff ($(date +%T))"
.venv/bin/ruff check src tests
echo "== mypy --strict ($(date +%T))"
.venv/bin/mypy
echo "== pytest, the compiled modules where the install compiled them ($(date +%T))"
compiled=$(.venv/bin/python -c "from handfoot.compiled import running_compiled as c; print(int(c()))")
if [ "$compiled" = 1 ]; then echo "compiled"; else echo "pure Python"; fi
.venv/bin/pytest "$@"
if [ "$compiled" = 1 ]; then
  echo "== pytest, pure Python (HANDFOOT_PURE=1: the tests on the modules' source, but the served ones) ($(date +%T))"
  HANDFOOT_PURE=1 .venv/bin/pytest -m "not served" "$@"
fi
echo "== done ($(date +%T))"
