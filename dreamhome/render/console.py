"""The console every terminal surface prints through: text from files and users comes out as it is.

Names reach the terminal from records (a bot's), rules files (a card's), houses and the command
line. Through a plain rich `Console`, `[/oops]` in a bot name ended `analyze` and `replay` in a
MarkupError, `[link=…]` in a card name made `rules show` print an OSC-8 terminal link, and rich
passes ESC through, so a name could carry any terminal escape (issue 34, item 7). So:

- no markup and no emoji codes are read in strings (`markup=False`, `emoji=False`): a styled
  line is built with `Text` and `style=`, never with markup, so no `escape()` is ever forgotten;
- control, format and bidi characters in every text printed are escaped (`\\x1b`), as `say` does
  for error lines: in every string (`render_str`, before the layout measures it) and in every
  segment rendered (`render`: a `Text` built from a name), all but rich's own control segments (a
  progress bar's cursor moves) and the line ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

from dreamhome.fileio import printable

LINE_ENDS = "\n"


class SafeConsole(Console):
    """A rich `Console` that prints every string and name literally (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("markup", False)
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(printable(text, keep=LINE_ENDS), **kwargs)

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control:
                yield segment
            else:
                yield Segment(printable(segment.text, keep=LINE_ENDS), segment.style, segment.control)


__all__ = ["SafeConsole"]
