"""People, not seats: a person known by the player key their browser keeps
(``players``, ``player_keys``), the seats they sat in (``table_players``), their
ratings per rule set and the computer levels' (``ratings``, ``computer_ratings``,
``rated_tables``), and on ``tables`` the game started from it by Play again
(``next_table``) and its settings for absent players (``settings_json``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("next_table", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("settings_json", sa.Text, nullable=True))
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, index=True),
        sa.Column("password_hash", sa.String(300), nullable=True),
        sa.Column("leaderboard", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False))
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.Column("created", sa.DateTime, nullable=False))
    op.create_table(
        "table_players",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.PrimaryKeyConstraint("table_id", "seat"))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("rules", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "rules"))
    op.create_table(
        "computer_ratings",
        sa.Column("level", sa.String(40), nullable=False),
        sa.Column("rules", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("level", "rules"))
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("rules", sa.String(80), nullable=True),
        sa.Column("created", sa.DateTime, nullable=False))


def downgrade() -> None:
    for name in ("rated_tables", "computer_ratings", "ratings", "table_players",
                 "player_keys", "players"):
        op.drop_table(name)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("next_table")
        batch.drop_column("settings_json")
