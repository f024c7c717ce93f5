"""The install compiles the hot path with mypyc, or leaves it pure Python; either way the
same source runs, and ``HANDFOOT_PURE=1`` or a source edited since the install runs it
from the source (handfoot.compiled)."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import handfoot
from handfoot import compiled

SRC = Path(handfoot.__file__).resolve().parent


def _where(env: dict[str, str]) -> list[str]:
    code = ("import handfoot.engine.moves as m, handfoot.bots.heuristic as h, "
            "handfoot.compiled as c; print(m.__file__); print(h.__file__); "
            "print(c.running_compiled())")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env},
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_every_compiled_module_is_a_source_file_of_the_package() -> None:
    for module in compiled.MODULES:
        assert (SRC / (module + ".py")).is_file(), module


def test_handfoot_pure_runs_the_source() -> None:
    moves, heuristic, running = _where({"HANDFOOT_PURE": "1"})
    assert moves == str(SRC / "engine" / "moves.py")
    assert heuristic == str(SRC / "bots" / "heuristic.py")
    assert running == "False"


def test_without_the_switch_the_install_decides() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HANDFOOT_PURE"}
    moves, _, running = _where({**env, "HANDFOOT_PURE": "0"})
    built = compiled._built("engine/moves") is not None and not compiled.stale()
    assert running == str(built)
    assert moves.endswith(".py") != built


def _tree(tmp_path: Path, times: dict[str, float]) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name, t in times.items():
        path = tmp_path / name.replace(".so", suffix)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        os.utime(path, (t, t))


def test_a_source_edited_after_compiling_makes_the_install_stale(tmp_path: Path) -> None:
    mods = ("engine/state", "bots/__init__")
    _tree(tmp_path, {"engine/state.py": 100, "bots/__init__.py": 100})
    assert not compiled.stale(tmp_path, mods)  # pure install: nothing compiled
    _tree(tmp_path, {"engine/state.so": 200, "bots/__init__.so": 200})
    assert not compiled.stale(tmp_path, mods)  # compiled after the sources
    _tree(tmp_path, {"bots/__init__.py": 300})
    assert compiled.stale(tmp_path, mods)  # edited since


def test_a_module_missing_from_a_compiled_set_makes_it_stale(tmp_path: Path) -> None:
    mods = ("engine/state", "engine/moves")
    _tree(tmp_path, {"engine/state.py": 100, "engine/moves.py": 100, "engine/state.so": 200})
    assert compiled.stale(tmp_path, mods)


@pytest.mark.skipif(not os.environ.get("HANDFOOT_REQUIRE_COMPILED")
                    or os.environ.get("HANDFOOT_PURE") == "1",
                    reason="only where CI has installed a C compiler, in the compiled pass")
def test_where_ci_has_a_compiler_the_install_compiled_the_engine() -> None:
    # A compiled module that did not type-check in the install's build (it imported a
    # package the build does not have) left the install pure Python without a failure.
    assert compiled.running_compiled(), \
        "the install did not compile the engine: see the install's 'handfoot: not compiled'"
    assert not compiled.stale()
