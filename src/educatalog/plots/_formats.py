"""Numbers, labels, ticks and colours of the charts, in the chart's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
import numpy.typing as npt
import pandas as pd
from matplotlib import ticker
from matplotlib.axis import Axis
from matplotlib.colors import to_rgba

if TYPE_CHECKING:  # matplotlib.typing's names are for type checkers (newer than the floor)
    from matplotlib.typing import ColorType

from educatalog import texts
from educatalog.plots._setup import (
    LINE_PALETTE,
    MISSING_COLOR,
    PALETTE,
    SEQUENTIAL_CMAP,
    STYLE,
    TEXT_COLOR,
)


def label(key: Any, lang: str = texts.DEFAULT_LANG) -> str:
    """The label of a group as a reader sees it (:func:`educatalog.texts.label`): missing
    values, also the catalogue's "Keine Angabe", as the one missing label."""
    return texts.label(key, lang)


def key_of(key: Any) -> Any:
    """A group key usable in a dict: missing values as None."""
    return None if texts.is_missing(key) and not isinstance(key, str) else key


def missing_mask(index: pd.Index | Sequence[Any]) -> npt.NDArray[np.bool_]:
    return np.asarray([texts.is_missing(k) for k in index], dtype=bool)


def count_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    return texts.number(value, lang)


def rate_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    """Two decimals for small rates, fewer for large ones."""
    return texts.rate(value, lang)


def share_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    """A cell of percent (0–100) as a whole percentage; "<1 %" for a small one."""
    if value == 0:
        return "–"
    if value < 0.5:
        return texts.text("less_than_1", lang)
    return texts.percent(value / 100, lang, 0)


def cell_count_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    return "–" if value == 0 else count_text(value, lang)


def count_tick(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    return texts.number(value, lang)


def rate_tick(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    if float(value).is_integer():
        return texts.number(value, lang)
    decimals = min(6, max(1, len(f"{abs(value):.6g}".partition(".")[2])))
    return texts.number(value, lang, decimals)


def tick_formatter(*, rate: bool, lang: str) -> ticker.Formatter:
    """Ticks with the language's thousands separators (and decimals for rates)."""
    tick = rate_tick if rate else count_tick
    return ticker.FuncFormatter(lambda v, _p=None: tick(v, lang=lang))


def percent_formatter(lang: str) -> ticker.Formatter:
    """Ticks of a 0–100 axis as whole percentages in the language's format."""
    return ticker.FuncFormatter(lambda v, _p=None: texts.percent(v / 100, lang, 0))


def value_axis(axis: Axis, *, rate: bool, lang: str) -> None:
    """A value axis: ticks with the language's thousands separators (whole numbers only for
    counts) and light grid lines (explicit, for Axes made outside the style)."""
    if not rate:
        axis.set_major_locator(ticker.MaxNLocator(integer=True, min_n_ticks=3))
    axis.set_major_formatter(tick_formatter(rate=rate, lang=lang))
    axis.grid(True, color=STYLE["grid.color"], linewidth=STYLE["grid.linewidth"])


def ink(color: ColorType) -> str:
    """White or dark text, whichever reads better on ``color``."""
    r, g, b, _ = to_rgba(color)
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.58 else TEXT_COLOR


def group_colors(
    keys: Sequence[Any], offers: pd.DataFrame, dimension: str, *, lines: bool = False
) -> list[ColorType]:
    """Qualitative colours (for ``lines``, those that stand out from white:
    :data:`~educatalog.plots.LINE_PALETTE`); a sequential scale for ordered categories
    (duration classes); grey for missing values and "Keine Angabe"."""
    dtype = getattr(offers.get(dimension), "dtype", None)
    ordered = isinstance(dtype, pd.CategoricalDtype) and bool(dtype.ordered)
    plain = [i for i, key in enumerate(keys) if not texts.is_missing(key)]
    colors: list[ColorType] = [MISSING_COLOR] * len(keys)
    if ordered:
        cmap = mpl.colormaps[SEQUENTIAL_CMAP]
        for i, step in zip(plain, np.linspace(0.3, 0.95, max(len(plain), 1)), strict=False):
            colors[i] = cmap(step)
    else:
        palette: list[ColorType] = list(LINE_PALETTE if lines else PALETTE)
        if len(plain) > len(palette):
            tab20 = mpl.colormaps["tab20"]
            palette = [tab20(i) for i in range(tab20.N)]
        for n, i in enumerate(plain):
            colors[i] = palette[n % len(palette)]
    return colors
