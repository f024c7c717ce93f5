"""Storage: the database's URL and schema lock, rule sets, tables, seats and each
table's append-only action log (the game state itself is never stored)."""
