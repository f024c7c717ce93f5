"""The game server: tables in a database as append-only action logs, a JSON API, a
WebSocket per seat that pushes only that seat's view, and a web page to play on."""
