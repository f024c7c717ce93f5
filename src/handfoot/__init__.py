"""handfoot: the card game Hand and Foot, played exactly by each club's rules."""

from handfoot import compiled

compiled.choose()  # before any compiled module is imported (see handfoot.compiled)

from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset  # noqa: E402

__all__ = ["PRESET_NAMES", "Rules", "RulesError", "preset"]
__version__ = "0.1.0"
