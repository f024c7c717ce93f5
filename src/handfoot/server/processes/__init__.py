"""Several server processes, one set of live tables: starting them (``serve --workers``),
each table's sockets steered to the process that keeps it, and the changes announced
through PostgreSQL's ``NOTIFY`` and followed by the other processes."""
