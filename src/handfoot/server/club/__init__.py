"""Club events on the server: the service that keeps them (organiser's actions, online
tables whose results flow in), their pages and JSON API, and the paper-table form."""
