"""The web pages: the lobby and the table (one page, ``index.html``), the icon, and the
scripts and styles under ``/static``."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).parent.parent / "static"
# the page's scripts are ES modules: served as JavaScript whatever the system's MIME table says
mimetypes.add_type("text/javascript", ".js")


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


routes: list[BaseRoute] = [
    Route("/", index),
    Route("/table/{id}", index),
    Route("/favicon.ico", favicon),
]
#: the scripts, styles and pictures (mounted last: it takes every path under /static)
static = Mount("/static", StaticFiles(directory=STATIC), name="static")
