"""Build handfoot: the modules of the hot path (``handfoot.compiled.MODULES``) are
compiled with mypyc from the same source when mypy and a C compiler are at hand,
several times faster; where compiling fails, or with ``HANDFOOT_COMPILE=0``, they are
installed as pure Python, which plays the same game (the tests pass both ways).
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

_warned: list[object] = []


def _warn(why: object) -> None:
    if not _warned:  # once: the first failure says why
        _warned.append(why)
        print(f"handfoot: not compiled ({why}); the pure-Python modules are installed",
              file=sys.stderr)


class BuildOrFallBack(build_ext):
    """Compile, or on a compiler error leave the pure-Python modules in place."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, or it failed: pure Python works the same
            _warn(e)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            _warn(e)


#: the commands that only describe or package the source: nothing to compile for them
#: (``python -m build`` makes the sdist with them, then the wheel from the sdist)
SOURCE_ONLY = {"sdist", "egg_info", "dist_info"}
BUILDS = {"build", "build_ext", "bdist_wheel", "bdist_egg", "install", "develop",
          "editable_wheel"}


def extensions() -> list[Any]:
    if os.environ.get("HANDFOOT_COMPILE", "1") == "0":
        return []
    asked = set(sys.argv[1:])
    if asked & SOURCE_ONLY and not asked & BUILDS:
        return []
    modules = runpy.run_path("src/handfoot/compiled.py")["MODULES"]
    try:
        from mypyc.build import mypycify

        # HANDFOOT_OPT_LEVEL: the C compiler's optimisation (3; the package test builds
        # with 0, which compiles in a fraction of the time and plays the same games)
        level = os.environ.get("HANDFOOT_OPT_LEVEL", "3")
        return list(mypycify([f"src/handfoot/{m}.py" for m in modules], opt_level=level))
    except (Exception, SystemExit) as e:  # no mypy, or the source does not type-check
        _warn(e or "mypyc stopped")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildOrFallBack})
