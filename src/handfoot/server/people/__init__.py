"""People at the server: who they are across tables and devices, their games and ratings."""
