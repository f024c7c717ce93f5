"""The package a host installs (docs/hosting.md): ``python -m build`` makes an sdist and
a wheel; each wheel (pure Python with ``HANDFOOT_COMPILE=0``, compiled where a C compiler
is) installs into a new virtual environment with no compiler at hand and plays the same
games (``handfoot bench --fingerprint``, pinned in tests/arena/test_fingerprint.py).

The new environment takes the dependencies already installed here (a ``.pth`` file
naming this environment's site-packages, after its own): nothing is downloaded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from arena.test_fingerprint import GAMES

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.served]


def build(out: Path, compiled: bool) -> list[Path]:
    # (compiled: without the C compiler's optimisation, several times as quick to build;
    # the same modules, the same games)
    env = {**os.environ, "HANDFOOT_COMPILE": "1" if compiled else "0",
           "HANDFOOT_OPT_LEVEL": "0"}
    # from the sdist, as a host's build would be (-n: with the tools installed here)
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "-n", "-x",
                           "--outdir", str(out), str(ROOT)], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return sorted(out.iterdir())


def install(wheel: Path, venv: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    # no compiler on the path, and no index: the wheel alone
    env = {**os.environ, "CC": "/bin/false", "PATH": "/bin:/usr/bin/nonexistent"}
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--no-deps", "--no-index", "--no-compile", str(wheel)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    (Path(site.stdout.strip()) / "zz_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", "utf-8")
    return venv / "bin"


def run(bin_dir: Path, *argv: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HANDFOOT_PURE")}
    done = subprocess.run([str(bin_dir / argv[0]), *argv[1:]], capture_output=True,
                          text=True, timeout=300, env=env, cwd="/")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
def test_a_wheel_installs_without_a_compiler_and_plays_the_same_games(
        compiled: bool, tmp_path: Path) -> None:
    if compiled and shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler here to build the compiled wheel with")
    made = build(tmp_path / "dist", compiled)
    names = [p.name for p in made]
    assert "handfoot-0.1.0.tar.gz" in names
    wheel = next(p for p in made if p.suffix == ".whl")
    inside = zipfile.ZipFile(wheel).namelist()
    assert "handfoot/server/storage/migrations/v0001_initial.py" in inside
    assert "handfoot/server/static/index.html" in inside
    natives = [n for n in inside if n.endswith(".so")]
    if compiled:
        assert wheel.name.startswith("handfoot-0.1.0-cp3") and natives, wheel.name
    else:
        assert wheel.name == "handfoot-0.1.0-py3-none-any.whl" and not natives
    bin_dir = install(wheel, tmp_path / "venv")
    where = run(bin_dir, "python", "-c", "import handfoot, handfoot.compiled as c; "
                "print(handfoot.__file__); print(int(c.running_compiled()))").split()
    assert where[0].startswith(str(tmp_path / "venv"))  # this wheel's, not the tree's
    assert where[1] == ("1" if compiled else "0")
    assert run(bin_dir, "handfoot", "bench", "--fingerprint").strip() == GAMES
    assert "upgrade" in run(bin_dir, "handfoot", "db", "--help")
