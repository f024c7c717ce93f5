"""The schema as it was before migrations were kept: every table the game store and
the club store made. A database made by a version before migrations has some or all
of these tables already: only those missing are created (then its revision is this).

The tables are written out here, not taken from the stores' metadata, so that this
migration stays what it was when the stores change.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def schema() -> sa.MetaData:
    m = sa.MetaData()
    sa.Table(
        "rule_sets", m,
        sa.Column("name", sa.String(80), primary_key=True),
        sa.Column("base", sa.String(80), nullable=False),
        sa.Column("toml", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "tables", m,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("rules_name", sa.String(80), nullable=False),
        sa.Column("rules_toml", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seats_json", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("result_json", sa.Text, nullable=True),
    )
    sa.Table(
        "actions", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action_json", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )
    sa.Table(
        "event_tables", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("event", sa.String(120), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "time_calls", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "table_keys", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("secret", sa.String(128), nullable=True),
        sa.Column("creator_hash", sa.String(64), nullable=True),
    )
    sa.Table(
        "rule_set_owners", m,
        sa.Column("name", sa.String(80), sa.ForeignKey("rule_sets.name"), primary_key=True),
        sa.Column("owner_hash", sa.String(64), nullable=False),
    )
    sa.Table(
        "waiting_tables", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "joined_seats", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    sa.Table(
        "chat_lines", m,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False,
                  index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "quiet_events", m,
        sa.Column("event", sa.String(120), primary_key=True),
    )
    sa.Table(
        "club_events", m,
        sa.Column("name", sa.String(120), primary_key=True),
        sa.Column("settings_json", sa.Text, nullable=False),
        sa.Column("password_hash", sa.String(300), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "club_draws", m,
        sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("draw_json", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("event", "round"),
    )
    sa.Table(
        "club_results", m,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("result_json", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "club_tie_breaks", m,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
        sa.Column("tie_break_json", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    sa.Table(
        "club_sessions", m,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
        sa.Column("expires", sa.DateTime, nullable=False),
    )
    sa.Table(
        "club_clocks", m,
        sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("started", sa.DateTime, nullable=False),
        sa.Column("called", sa.DateTime, nullable=True),
        sa.PrimaryKeyConstraint("event", "round"),
    )
    sa.Table(
        "club_clock_warnings", m,
        sa.Column("event", sa.String(120), sa.ForeignKey("club_events.name"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("event", "round"),
    )
    return m


def upgrade() -> None:
    # each table (and its indexes) only where it is missing
    schema().create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    schema().drop_all(op.get_bind(), checkfirst=True)
