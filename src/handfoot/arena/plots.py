"""Pictures of a simulation's results, drawn with matplotlib (imported only when a picture
is asked for).

Apart from :mod:`handfoot.arena` because the arena is compiled (:mod:`handfoot.compiled`):
mypyc type-checks what a compiled module imports, and the install's build has no
matplotlib, so a plot in the arena left the whole install pure Python.
"""

from __future__ import annotations

from pathlib import Path

from handfoot.arena import Summary


def plot_differences(s: Summary, path: str | Path) -> list[float]:
    """A histogram (PNG) of the score differences, entry 1 minus entry 2, mean marked;
    returns the count axis's ticks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    try:
        xs = s.differences or [0]
        ax.hist(xs, bins=min(40, max(5, len(set(xs)))), color="#4a7ab5", edgecolor="white")
        ax.axvline(s.mean_difference, color="#c0392b", linewidth=2,
                   label=f"mean {s.mean_difference:+.1f}")
        ax.axvline(0, color="#555555", linewidth=1, linestyle=":")
        a, b = [*s.bots, "?", "?"][:2]
        ax.set_xlabel(f"points per {s.unit[:-1]}: {a} (bot 1) minus {b} (bot 2)")
        ax.set_ylabel(s.unit)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count: whole numbers
        ax.set_title(f"{s.variant}: {s.played} {s.unit}, seed {s.seed}"
                     + (", duplicate" if s.duplicate else ""))
        ax.legend()
        fig.tight_layout()
        fig.savefig(str(path), format="png")
        return [float(t) for t in ax.get_yticks()]
    finally:
        plt.close(fig)
