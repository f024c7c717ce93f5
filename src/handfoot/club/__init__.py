"""Club events: an evening of Hand and Foot for 8 to 60 players (docs/club.md).

An :class:`~handfoot.club.event.Event` holds the rule set, the rounds and the players;
:mod:`~handfoot.club.draw` draws partners and tables, seeded and honouring every
restriction; :mod:`~handfoot.club.results` records each table's result (a game played
online, or score sheets typed in from a real table); :mod:`~handfoot.club.standings`
ranks teams, players and chapters; :mod:`~handfoot.club.printing` makes the pages to
print; :mod:`~handfoot.club.store` keeps events in the server's database.
"""
