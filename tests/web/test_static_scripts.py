"""The page's scripts are plain scripts sharing one global scope: a name defined at the
top of two of them would silently replace the first (as the invites' ``seatTitle`` once
replaced the table's and broke New table)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import handfoot

STATIC = Path(handfoot.__file__).resolve().parent / "server" / "static"
TOP_LEVEL = re.compile(r"^(?:async\s+)?(?:function\s+([A-Za-z_$][\w$]*)|(?:const|let|var|class)"
                       r"\s+([A-Za-z_$][\w$]*))", re.MULTILINE)


def test_no_two_scripts_define_the_same_global_name() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for script in sorted(STATIC.glob("*.js")):
        if script.name.startswith("events"):  # the events pages load their own scripts
            continue
        for match in TOP_LEVEL.finditer(script.read_text()):
            where[match.group(1) or match.group(2)].append(script.name)
    assert where, "no scripts read"
    twice = {name: files for name, files in where.items() if len(files) > 1}
    assert not twice, f"defined in more than one script: {twice}"


def test_the_table_page_loads_every_script_it_has() -> None:
    page = (STATIC / "index.html").read_text()
    loaded = set(re.findall(r'<script src="/static/([\w.-]+\.js)"', page))
    shipped = {p.name for p in STATIC.glob("*.js") if not p.name.startswith("events")}
    assert loaded == shipped
