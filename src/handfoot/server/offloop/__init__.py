"""Work off the event loop: the engine's and computer players' work run in a pool of
worker processes, which keep the games of the tables they work for."""
