"""Build handfoot. The engine is pure Python; ``HANDFOOT_COMPILE=1`` compiles its modules
with mypyc (the same source, about twice as fast; needs mypy and a C compiler:
``HANDFOOT_COMPILE=1 .venv/bin/pip install --no-build-isolation -e .`` in a virtual
environment that has the test tools). The project and its tests are the same either way.
"""

from __future__ import annotations

import os

from setuptools import setup

ENGINE = ["deal", "errors", "melds", "state", "checks", "moves"]

ext_modules = []
if os.environ.get("HANDFOOT_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify([f"src/handfoot/engine/{m}.py" for m in ENGINE], opt_level="3")

setup(ext_modules=ext_modules)
