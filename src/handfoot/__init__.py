"""handfoot: the card game Hand and Foot, played exactly by each club's rules."""

from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset

__all__ = ["PRESET_NAMES", "Rules", "RulesError", "preset"]
__version__ = "0.1.0"
