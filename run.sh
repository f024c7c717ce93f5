#!/usr/bin/env bash
# Set up handfoot in .venv (first time only) and run the main job.
# Until the game server exists, the main job is a whole game played by computer
# players, shown in the terminal. Extra arguments go to `handfoot watch`.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/handfoot ] || [ pyproject.toml -nt .venv/.installed ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
  touch .venv/.installed
fi
exec .venv/bin/handfoot watch "$@"
