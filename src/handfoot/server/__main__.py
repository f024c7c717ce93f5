"""``python -m handfoot.server``: the same as ``handfoot serve``."""

from __future__ import annotations

import argparse
import sys

from handfoot.server.command import add_serve_parser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handfoot.server")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve_parser(sub)
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
