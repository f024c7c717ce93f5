"""Live tables: each game in memory with the connections watching it, its computer
players, the state message each connection is sent, its move log, and its chat."""
