"""The HTTP side of the server: the JSON API's shared errors and body reading, the host's
routes (invite links, start now) and the replay of finished games. The rest of the API's
routes are assembled in :mod:`handfoot.server.app`."""
