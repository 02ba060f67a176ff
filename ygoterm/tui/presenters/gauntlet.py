"""The gauntlet's standing as `ygoterm arena --gauntlet` prints it and the deck lab shows it: a
table (a row per opponent, then overall) and a bar chart (analysis/gauntlet.py works the figures out)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...analysis import gauntlet


def standing_table(standing: gauntlet.Standing, title: str) -> Table:
    """The score against each opponent (95% Wilson interval), going first and second, mean turns; then overall."""
    table = Table(title=title, title_justify="left")
    for column in gauntlet.COLUMNS:
        table.add_column(column, justify="right" if column in ("#", "turns") else "left")
    *rows, overall = gauntlet.table_rows(standing)
    for row in rows:
        table.add_row(*row)
    table.add_section()
    table.add_row(*overall, style="bold")
    return table


def standing_text(standing: gauntlet.Standing, title: str, width: int) -> Text:
    """The table and the chart as one text `width` cells wide (the deck lab's gauntlet view)."""
    console = Console(width=max(60, width), color_system="truecolor", force_terminal=True)
    with console.capture() as captured:
        console.print(standing_table(standing, title))
    text = Text.from_ansi(captured.get())
    text.append("\n")
    text.append_text(standing_chart(standing, width=max(60, min(width, 110))))
    return text


TICKS = (0, 25, 50, 75, 100)


def standing_chart(standing: gauntlet.Standing, width: int = 80) -> Text:
    """The score against each opponent as a horizontal bar on a 0–100% scale, one row each, its 95% interval in the
    label. Drawn here, not by a plotting library: plotext's bars drift off their labels' rows with more than about
    ten opponents (its y-scale rounds rows), and a bar chart of one row a bar is a few lines of text."""
    labels = [f"{row.matchup.decks[1]} {row.total.text()}" for row in standing.rows]
    label_width = max((len(label) for label in labels), default=0)
    area = max(10, width - label_width - 4)  # (the bars' columns: 100%)
    chart = Text(f"{standing.deck} · overall {standing.overall.rate:.0%}".center(label_width + 2 + area).rstrip() + "\n",
                 style="bold")
    for label, row in zip(labels, standing.rows):
        chart.append(f"{label.rjust(label_width)} ┤")
        chart.append("█" * round(row.total.rate * area), style="green" if row.total.rate >= 0.5 else "red")
        chart.append("\n")
    chart.append(" " * label_width + " └" + "─" * area + "\n")
    ticks = [" "] * (area + 4)
    for tick in TICKS:
        at = round(tick / 100 * area)
        for i, ch in enumerate(str(tick)):
            ticks[min(len(ticks) - 1, at + i - (len(str(tick)) - 1) // 2)] = ch
    chart.append(" " * (label_width + 2) + "".join(ticks).rstrip())
    return chart
