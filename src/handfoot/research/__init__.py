"""The game for research: standard interfaces over the engine (``pip install
handfoot[research]``).

- :mod:`~handfoot.research.observation`: a seat's view as a flat numeric vector, and
  the reward (numpy only; no optional library);
- :mod:`~handfoot.research.pettingzoo_env`: a PettingZoo AEC environment (needs
  ``pettingzoo`` and ``gymnasium``);
- :mod:`~handfoot.research.openspiel_game`: an OpenSpiel game registered from Python
  as ``python_handfoot`` (needs ``open_spiel``);
- :mod:`~handfoot.research.ray_sim`: ``handfoot sim --ray``, the hands of a simulation
  spread over a Ray cluster (needs ``ray``).

Every one of them asks the engine what is legal (:meth:`~handfoot.game.Game.legal_actions`)
and numbers moves with :class:`~handfoot.research.encoding.MoveCodec`; none re-implements a rule.
The optional libraries are imported only by the module that needs them, so the core
package works without them.
"""
