"""The database's schema, one Alembic migration a change (``handfoot db upgrade``;
:mod:`handfoot.server.storage.schema` runs them). Each file is frozen once released:
a later change of the schema is a new file, ``vNNNN_what.py`` whose ``revision`` is
``"NNNN"`` and whose ``down_revision`` is the last one's."""
