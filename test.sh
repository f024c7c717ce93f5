#!/usr/bin/env bash
# Set up handfoot with its test tools in .venv and run every test:
# ruff (lint), mypy --strict (types), then pytest (unit, property and doctests).
# The research extra (PettingZoo, OpenSpiel, Ray: docs/research.md) is installed too.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/pytest ] || [ pyproject.toml -nt .venv/.installed-test ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test,research]'
  touch .venv/.installed-test
fi
echo "== ruff"
.venv/bin/ruff check src tests
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
.venv/bin/pytest "$@"
