"""The set-up every chart shares: the look, the figure, the title, the source line, the demo
mark, the text alternative and saving."""

from __future__ import annotations

import functools
import math
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import matplotlib as mpl
import pandas as pd
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.colorbar import Colorbar
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.ticker import Formatter, Locator
from matplotlib.transforms import ScaledTranslation

if TYPE_CHECKING:  # matplotlib.typing's names are for type checkers (newer than the floor)
    from matplotlib.typing import RcKeyType

from educatalog import texts
from educatalog.errors import UsageError, WrongType
from educatalog.frames.provenance import Source, source_of
from educatalog.plots.display import register_notebook_display

PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)
"""Colours of unordered groups (Okabe–Ito, safe for colour-blind readers)."""

LINE_PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#000000",
    "#CC79A7",
    "#996600",
    "#882255",
    "#7570B3",
)
"""Colours of lines: Okabe–Ito without its light orange, sky blue and yellow, which stand
out too little from white, and three dark colours instead; every one has a contrast of at
least 3:1 against white (WCAG 2.1, 1.4.11)."""

BAR_COLOR = "#2F6B9A"
MISSING_COLOR = "#A6A6A6"
TEXT_COLOR = "#333333"
SEQUENTIAL_CMAP = "YlGnBu"
HEATMAP_CMAP = "Blues"

STYLE: dict[RcKeyType, Any] = {
    "font.size": 10,
    "axes.titlesize": 13,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "axes.titlepad": 10,
    "axes.labelsize": 10,
    "axes.labelcolor": TEXT_COLOR,
    "axes.edgecolor": "#666666",
    "axes.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "axes.prop_cycle": cycler(color=PALETTE),
    "grid.color": "#E3E3E3",
    "grid.linewidth": 0.7,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "xtick.color": TEXT_COLOR,
    "ytick.color": TEXT_COLOR,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9.5,
    "legend.frameon": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.hashsalt": "educatalog",
}
"""The look of every chart, applied with :func:`matplotlib.rc_context` while it is drawn."""

MISSING_LABEL = texts.missing("de")
"""Label of the group of offers without a value (e.g. events whose state is unknown) in
German charts; ``texts.missing("en")`` ("not stated") in English ones."""

DEMO_MARK = texts.text("demo_mark", "en")
"""Written over every English chart of the synthetic demo catalogue (German charts:
"SYNTHETISCHE DEMODATEN")."""

SOURCE_GID = "educatalog-source"
WATERMARK_GID = "educatalog-demo-watermark"
DEMO_LABEL_GID = "educatalog-demo-label"
FOOTER_SIZE = 7.5
ALT_ATTR = "_educatalog_alt"
PARTS_ATTR = "_educatalog_parts"

P = ParamSpec("P")
R = TypeVar("R")


def styled(function: Callable[P, R]) -> Callable[P, R]:
    """Run a chart function under :data:`STYLE`."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with mpl.rc_context(STYLE):
            return function(*args, **kwargs)

    return wrapper


def begin(lang: str, **dimensions: object) -> texts.Lang:
    """What every chart checks first: the language, and that each dimension argument
    (``by="state"``) names a column; returns the checked language."""
    checked = texts.check_lang(lang)
    for argument, name in dimensions.items():
        if isinstance(name, str) and name:
            continue
        message = f"{argument} must name one column of the frame, got {name!r}."
        raise UsageError(message) if isinstance(name, str) else WrongType(message)
    return checked


def check_choice(value: Any, choices: Sequence[str], message: str) -> None:
    """Fail with ``message`` (``{value}`` and ``{choices}`` filled in) unless ``value`` is
    one of ``choices``."""
    if value not in choices:
        raise UsageError(message.format(value=value, choices=", ".join(choices)))


def two_dimensions(what: str, rows: str, columns: str) -> None:
    if rows == columns:
        raise UsageError(f"{what} needs two different dimensions, got {rows!r} twice.")


def new_axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """A new figure of ``size`` inches with one Axes, or the root figure of ``ax``."""
    if ax is None:
        fig = Figure(figsize=size, layout="constrained")
        return fig, fig.add_subplot()
    if not isinstance(ax, Axes):
        raise WrongType(f"ax must be a matplotlib Axes, got {type(ax).__name__}.")
    root = ax.get_figure(root=True)
    if not isinstance(root, Figure):
        raise UsageError("ax must belong to a matplotlib Figure.")
    return root, ax


def category_axis(
    ax: Axes, labels: Sequence[str] | None, dimension: str, lang: str, *, n: int
) -> None:
    """The axis of ``n`` groups of a horizontal chart: the first on top, no tick marks,
    named after ``dimension``; ``labels`` (None: as the chart set them)."""
    if labels is not None:
        ax.set_yticks(range(n), labels)
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.set_ylabel(texts.capitalized(texts.dimension(dimension, lang)))


def legend_right(ax: Axes, dimension: str, lang: str) -> None:
    """The legend of the groups of ``dimension``, right of the plot."""
    ax.legend(
        title=texts.capitalized(texts.dimension(dimension, lang)),
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        frameon=False,
    )


def finish_colorbar(
    colorbar: Colorbar, label: str, formatter: Formatter, locator: Locator | None = None
) -> None:
    """A colour bar's label and ticks, without its outline."""
    colorbar.set_label(label)
    colorbar.outline.set_visible(False)
    if locator is not None:
        colorbar.locator = locator
    colorbar.formatter = formatter
    colorbar.update_ticks()


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width in inches of one line of ``text`` at ``size`` points (the charts' font), as
    matplotlib draws it: to size a figure before it is drawn."""
    font = FontProperties(size=size, weight="bold" if bold else "normal")
    width, _height, _descent = TextToPath().get_text_width_height_descent(text, font, False)
    return float(width) / 72


def inside(labels: Sequence[Text]) -> None:
    """Labels drawn within the axes stay out of the layout's sums (which they do not change
    but would slow down)."""
    for label in labels:
        label.set_in_layout(False)


def finish(
    fig: Figure,
    ax: Axes,
    offers: pd.DataFrame,
    title: str,
    notes: Sequence[str] = (),
    *,
    lang: str,
    source: Source | str | None = None,
    alt: str | None = None,
) -> Figure:
    """Title, spines, the source line (with ``notes`` above it), the demo mark and the
    text alternative; charts drawn in IPython show inline from here on."""
    ax.set_title(title, loc="left", fontsize=STYLE["axes.titlesize"], fontweight="bold")
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.set_axisbelow(True)
    found = source_of(offers, source)
    described = found.text(lang) if found is not None else texts.text("source.unknown", lang)
    source_line = texts.text("source", lang, source=described)
    demo = found is not None and found.demo
    if demo:
        demo_mark(fig, lang)
    footer(fig, notes, source_line)
    parts = [alt or texts.text("alt.chart", lang, title=title)]
    if demo:
        parts.append(texts.text("alt.demo", lang))
    parts.append(source_line + ".")
    earlier = alt_text(fig)
    setattr(fig, ALT_ATTR, " ".join([*([earlier] if earlier else []), *parts]))
    register_notebook_display()
    return fig


def footer(fig: Figure, notes: Sequence[str], source_line: str) -> None:
    """One text at the bottom left of the figure: notes, then the source lines of every
    chart drawn into it; the constrained layout keeps room for it."""
    text = figure_text(fig, SOURCE_GID)
    if text is None:
        offset = ScaledTranslation(6 / 72, 5 / 72, fig.dpi_scale_trans)
        text = fig.text(
            0,
            0,
            "",
            transform=fig.transFigure + offset,
            ha="left",
            va="bottom",
            fontsize=FOOTER_SIZE,
            color="#555555",
            linespacing=1.35,
            gid=SOURCE_GID,
        )
        setattr(text, PARTS_ATTR, ([], []))
    parts: tuple[list[str], list[str]] = getattr(text, PARTS_ATTR)
    kept_notes, sources = parts
    kept_notes += [n for n in notes if n not in kept_notes]
    if source_line not in sources:
        sources.append(source_line)
    room = fig.get_figwidth() * 72 - 12 - (120 if figure_text(fig, DEMO_LABEL_GID) else 0)
    width = max(40, int(room / (FOOTER_SIZE * 0.55)))
    lines = [line for part in (*kept_notes, *sources) for line in textwrap.wrap(part, width)]
    text.set_text("\n".join(lines))
    engine = fig.get_layout_engine()
    if isinstance(engine, ConstrainedLayoutEngine):
        bottom = (len(lines) * FOOTER_SIZE * 1.35 + 12) / 72 / fig.get_figheight()
        engine.set(rect=(0, bottom, 1, 1 - bottom))


def add_note(fig: Figure, note: str) -> Figure:
    """``note`` on a chart already drawn, above its source line and at the end of its text
    alternative (:func:`alt_text`): a report's selection, which the chart's data do not
    say. Returns ``fig``."""
    text = figure_text(fig, SOURCE_GID)
    sources: list[str] = getattr(text, PARTS_ATTR)[1] if text is not None else []
    footer(fig, [note], sources[-1] if sources else "")
    earlier = alt_text(fig)
    setattr(fig, ALT_ATTR, f"{earlier} {note}" if earlier else note)
    return fig


def demo_mark(fig: Figure, lang: str) -> None:
    """A light diagonal watermark across the figure and a label in its bottom right corner."""
    if figure_text(fig, WATERMARK_GID) is not None:
        return
    mark = texts.text("demo_mark", lang)
    width, height = fig.get_figwidth(), fig.get_figheight()
    diagonal = math.hypot(width, height) * 72
    watermark = fig.text(
        0.5,
        0.5,
        mark,
        ha="center",
        va="center",
        rotation=min(45.0, math.degrees(math.atan2(height, width))),
        rotation_mode="anchor",
        fontsize=min(60.0, diagonal * 0.55 / (len(mark) * 0.62)),
        fontweight="bold",
        color="#7F7F7F",
        alpha=0.16,
        zorder=100,
        gid=WATERMARK_GID,
    )
    watermark.set_in_layout(False)
    offset = ScaledTranslation(-6 / 72, 5 / 72, fig.dpi_scale_trans)
    fig.text(
        1,
        0,
        mark,
        transform=fig.transFigure + offset,
        ha="right",
        va="bottom",
        fontsize=8,
        fontweight="bold",
        color="#B00020",
        zorder=100,
        gid=DEMO_LABEL_GID,
    )


def figure_text(fig: Figure, gid: str) -> Text | None:
    return next((t for t in fig.texts if t.get_gid() == gid), None)


def alt_text(fig: Figure) -> str | None:
    """What the chart shows, in words, for readers who cannot see it (the ``alt`` text of
    its image): kind of chart, title, the largest and smallest values, the demo mark and the
    source. None for a figure no chart function drew."""
    alt = getattr(fig, ALT_ATTR, None)
    return alt if isinstance(alt, str) else None


def save(fig: Figure, path: str | Path, *, dpi: int = 200) -> Path:
    """Write ``fig`` to ``path`` as PNG, SVG or PDF (by its suffix) at ``dpi`` (150 or
    more), cropped to its content; returns the path. SVG and PDF carry no timestamp, so the
    same chart gives the same file."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg", "pdf"):
        raise UsageError(f"save() writes .png, .svg or .pdf files, not {path.name!r}.")
    if dpi < 150:
        raise UsageError(f"Charts for reports need at least 150 dpi, got {dpi}.")
    alt = alt_text(fig)
    metadata = {
        "png": {"Description": alt} if alt else None,
        "svg": {"Date": None, "Description": alt} if alt else {"Date": None},
        "pdf": {"CreationDate": None, "Subject": alt} if alt else {"CreationDate": None},
    }[fmt]
    with mpl.rc_context(STYLE):
        fig.savefig(
            path, format=fmt, dpi=dpi, bbox_inches="tight", pad_inches=0.1, metadata=metadata
        )
    return path
