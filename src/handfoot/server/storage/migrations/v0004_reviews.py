"""A finished game's review by the hard player (``reviews``): one row a table, its JSON
as ``handfoot review --json`` writes it, kept once worked out."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("review_json", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False))


def downgrade() -> None:
    op.drop_table("reviews")
