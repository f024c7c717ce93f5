"""Which of handfoot's modules run compiled, and the switch back to pure Python.

Installing handfoot compiles the modules of the hot path (:data:`MODULES`: the cards,
the actions, the engine, the game, the views, the scoring, the computer players and the
arena's loop) with mypyc, from the same source, when mypy and a C compiler are at hand
(see ``setup.py``); otherwise, or with ``HANDFOOT_COMPILE=0``, it installs them as pure
Python. Either way the game is the same:
the tests pass both ways (``test.sh`` runs them compiled, then with ``HANDFOOT_PURE=1``).

A compiled module sits beside its source. When the package is imported, :func:`choose`
runs the source instead of every compiled module if ``HANDFOOT_PURE=1`` is set, or if
any source in the repository's tree (``src/handfoot``) is newer than its compiled form
(edited since the install): the compiled modules call each other directly, so they are
used all together or not at all. An installed wheel is never taken for edited (its
files are written in any order).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the modules compiled at install, as paths under ``src/handfoot`` without ``.py``
MODULES: tuple[str, ...] = (
    "cards", "actions", "engine/deal", "engine/errors", "engine/settings", "engine/melds",
    "engine/state", "engine/checks", "engine/moves", "game/scoring", "game/views", "game/__init__",
    "bots/__init__", "bots/risk", "bots/policy", "bots/heuristic", "bots/evaluation",
    "bots/expert",
    "arena/__init__",
)

_HERE = Path(__file__).resolve().parent


def _name(module: str) -> str:
    return "handfoot." + module.removesuffix("/__init__").replace("/", ".")


def _built(module: str, base: Path = _HERE) -> Path | None:
    """The compiled form of ``module`` beside its source, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = base / (module + suffix)
        if path.exists():
            return path
    return None


class _Source:
    """A finder that loads the compiled modules from their source."""

    def __init__(self) -> None:
        self.paths = {_name(m): _HERE / (m + ".py") for m in MODULES}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        source = self.paths.get(fullname)
        if source is None:
            return None
        package = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(
            fullname, source, submodule_search_locations=package)


def stale(base: Path = _HERE, modules: Sequence[str] = MODULES) -> bool:
    """Whether some source under ``base`` was changed after it was compiled (or some
    module of the set was not compiled while others were)."""
    built = [_built(m, base) for m in modules]
    if not any(built):
        return False
    for module, so in zip(modules, built, strict=True):
        if so is None or (base / (module + ".py")).stat().st_mtime > so.stat().st_mtime:
            return True
    return False


def choose() -> None:
    """Run the source, not the compiled modules, when asked to or when they are stale.
    Called once, when the package is imported, before any of them is."""
    if any(isinstance(f, _Source) for f in sys.meta_path):
        return
    pure = os.environ.get("HANDFOOT_PURE") == "1"
    # (only in the repository's tree, src/handfoot, where the source is edited: an
    # installed wheel writes its files in any order, each with the time it was written)
    if not pure and _HERE.parent.name == "src" and stale():
        warnings.warn("handfoot: a module was changed after it was compiled; running pure "
                      "Python (install again to compile: pip install -e .)", stacklevel=2)
        pure = True
    if pure:
        sys.meta_path.insert(0, _Source())


def running_compiled() -> bool:
    """Whether the engine runs compiled in this process."""
    from handfoot.engine import state

    return not str(state.__file__).endswith(".py")
