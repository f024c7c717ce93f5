"""The side tables made so as not to change a table, folded into it: a table's secret
and its creator's hash (``table_keys``) become columns of ``tables``, a rule set's
owner (``rule_set_owners``) a column of ``rule_sets``. Their rows are copied first."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("secret", sa.String(128), nullable=True))
    op.add_column("tables", sa.Column("creator_hash", sa.String(64), nullable=True))
    op.add_column("rule_sets", sa.Column("owner_hash", sa.String(64), nullable=True))
    op.execute("UPDATE tables SET "
               "secret = (SELECT k.secret FROM table_keys k WHERE k.table_id = tables.id), "
               "creator_hash = (SELECT k.creator_hash FROM table_keys k "
               "WHERE k.table_id = tables.id)")
    op.execute("UPDATE rule_sets SET owner_hash = (SELECT o.owner_hash FROM rule_set_owners o "
               "WHERE o.name = rule_sets.name)")
    op.drop_table("table_keys")
    op.drop_table("rule_set_owners")


def downgrade() -> None:
    op.create_table(
        "table_keys",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("secret", sa.String(128), nullable=True),
        sa.Column("creator_hash", sa.String(64), nullable=True))
    op.create_table(
        "rule_set_owners",
        sa.Column("name", sa.String(80), sa.ForeignKey("rule_sets.name"), primary_key=True),
        sa.Column("owner_hash", sa.String(64), nullable=False))
    op.execute("INSERT INTO table_keys (table_id, secret, creator_hash) SELECT id, secret, "
               "creator_hash FROM tables WHERE secret IS NOT NULL OR creator_hash IS NOT NULL")
    op.execute("INSERT INTO rule_set_owners (name, owner_hash) SELECT name, owner_hash "
               "FROM rule_sets WHERE owner_hash IS NOT NULL")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("secret")
        batch.drop_column("creator_hash")
    with op.batch_alter_table("rule_sets") as batch:
        batch.drop_column("owner_hash")
