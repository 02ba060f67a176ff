"""The screen under a translucent dialog, dimmed: Textual's picture, drawn with less work.

A dialog whose background has alpha shows the screen below it tinted. Textual draws that as
a Rich renderable (`BackgroundScreen`): every frame of the dialog renders the whole screen
below, blends the colours of every segment, then cuts the result into lines again. A duel's
prompt repaints that way when it opens, after its first layout, and whenever the board under
it changes (the highlighted option's card is marked there). `DimmedScreen` produces the same
strips from the lower screen's lines directly and remembers each tinted line, so an unchanged
line of the board costs a lookup. `DimsBelow` makes a modal screen use it.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.color import Color
from textual.css.styles import RulesMap
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

_LINES_KEPT = 2048  # tinted lines remembered (a 120×40 board has 40; prompts come and go over a few boards)
_lines: dict[tuple[Any, ...], Strip] = {}
_styles: dict[tuple[Any, ...], RichStyle] = {}


def _tinted(style: RichStyle | None, color: Color, base: RichStyle) -> RichStyle:
    """What Textual makes of one segment's style under a tint `color` (`BackgroundScreen.
    process_segments`), with the dialog's own style under it (`Widget.post_render`)."""
    key = (style, color, base)
    found = _styles.get(key)
    if found is None:
        plain = RichStyle() if style is None else style.clear_meta_and_links()
        if color.a:
            plain = plain + RichStyle.from_color(
                (Color.from_rich_color(plain.color) + color).rich_color if plain.color is not None else None,
                (Color.from_rich_color(plain.bgcolor) + color).rich_color if plain.bgcolor is not None else None)
        found = base + plain if base else plain
        _styles[key] = found
    return found


class DimmedScreen(Visual):
    """`screen` as a dialog above it shows it: each line tinted with `color`."""

    def __init__(self, screen: Screen[Any], color: Color) -> None:
        self.screen = screen
        self.color = color

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.screen.size.height

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        base = style.rich_style
        lines = self.screen._compositor.render_strips()  # (what BackgroundScreen renders, as lines)
        out = []
        for line in lines[:height]:
            segments = tuple(line)
            key = (segments, self.color, base, width)
            tinted = _lines.get(key)
            if tinted is None:
                if len(_lines) >= _LINES_KEPT:
                    _lines.clear()
                    _styles.clear()
                tinted = Strip([Segment(text, _tinted(seg_style, self.color, base)) for text, seg_style, _ in segments
                                if text != "\n"]).crop(0, width)
                _lines[key] = tinted
            out.append(tinted)
        return out


class DimsBelow:
    """For modal screens with a translucent background: the screen below as a `DimmedScreen`."""

    def render(self) -> Any:
        rendered = super().render()  # type: ignore[misc]
        if isinstance(rendered, BackgroundScreen):
            return DimmedScreen(rendered.screen, rendered.color)
        return rendered
