#!/usr/bin/env bash
# Set up handfoot in .venv (first time only) and run the main job.
# The main job is the game server: it prints the address to open in a browser.
# Extra arguments go to `handfoot serve` (--host, --port, --db).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/handfoot ] || [ pyproject.toml -nt .venv/.installed ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
  touch .venv/.installed
fi
exec .venv/bin/handfoot serve "$@"
