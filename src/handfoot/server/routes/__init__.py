"""The HTTP side of the server, a module by area, each listing its ``routes``: the
pages (:mod:`.pages`), ``/api/server`` (:mod:`.status`), rule sets and house rules
(:mod:`.rule_sets`), tables (:mod:`.tables`), the host's actions (:mod:`.hosting`) and
the table's WebSocket (:mod:`.socket`); what the JSON APIs share (:mod:`.http`) and the
replay of finished games (:mod:`.replay`). :mod:`handfoot.server.app` assembles them."""
