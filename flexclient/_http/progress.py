"""Progress bars (tqdm, the `progress` extra) drawn only where someone watches them.

On a terminal or in a notebook a bar is drawn as it moves. Elsewhere (a cron job's log, a
pipe, a file) redrawing a bar fills the log with its updates: there the bar's last state is
written once, as one line, when it closes.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from flexclient._errors import require


def watched() -> bool:
    """Whether a bar drawn now is seen as it moves: standard error is a terminal, or this is
    a Jupyter kernel (whose bars are widgets)."""
    if "ipykernel" in sys.modules:
        return True
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def progress_bar(*, unit: str, desc: str | None = None, total: float | None = None) -> Any:
    """A tqdm bar where it is watched, else a `FinalLine`; both have `total`, `n`,
    `update(k)` and `close()`. Raises `MissingExtraError` without tqdm."""
    tqdm = require("tqdm.auto", "progress", "a progress bar").tqdm
    scaled = unit == "B"
    if watched():
        return tqdm(total=total, unit=unit, unit_scale=scaled, desc=desc)
    return FinalLine(tqdm.format_meter, unit=unit, desc=desc, total=total, unit_scale=scaled)


class FinalLine:
    """A bar that is not drawn: `close()` writes its last state, as tqdm would show it, as
    one line on standard error."""

    def __init__(
        self,
        format_meter: Any,
        *,
        unit: str,
        desc: str | None,
        total: float | None,
        unit_scale: bool,
    ) -> None:
        self.total = total
        self.n: float = 0
        self._format = format_meter
        self._unit, self._desc, self._unit_scale = unit, desc, unit_scale
        self._started = time.monotonic()
        self._closed = False

    def update(self, n: float = 1) -> None:
        self.n += n

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        elapsed = time.monotonic() - self._started
        line = self._format(
            self.n,
            self.total,
            elapsed,
            prefix=self._desc or "",
            unit=self._unit,
            unit_scale=self._unit_scale,
        )
        if sys.stderr is not None:
            print(line, file=sys.stderr, flush=True)
