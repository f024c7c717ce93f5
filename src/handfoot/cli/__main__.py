"""``python -m handfoot.cli``: the same as the ``handfoot`` command."""

from __future__ import annotations

import sys

from handfoot.cli import main

sys.exit(main())
