"""The gauntlet's standing as `ygoterm arena --gauntlet` prints it and the deck lab shows it: a
table (a row per opponent, then overall) and the bar chart (analysis/gauntlet.py works them out)."""

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
    text.append_text(Text.from_ansi(gauntlet.chart(standing, width=max(60, min(width, 110)))))
    return text
