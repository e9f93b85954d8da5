"""Charts shown inline in IPython and Jupyter, with their text alternative.

The figures are made without pyplot, whose inline backend would otherwise be what tells
IPython how to display a figure; without it a chart shows as ``<Figure ...>`` text. Importing
:mod:`educatalog.plots` changes nothing in IPython: every chart function calls
:func:`register_notebook_display` when it has drawn, and so may you.
"""

from __future__ import annotations

import base64
import html
import io
import sys
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

__all__ = ["register_notebook_display"]


def register_notebook_display() -> bool:
    """Have the running IPython shell show figures as an image with the chart's text
    alternative: ``text/html`` (an ``<img>`` whose ``alt`` a browser reads, as JupyterLab,
    which puts no ``alt`` on a plain PNG output) and ``image/png`` with the text as its
    ``alt`` metadata (which the report puts on the image), rendered once.

    Does nothing outside IPython and where figures display so already (a second call).
    Takes precedence over pyplot's inline backend, which shows a PNG without a text
    alternative. Returns whether figures display so in the shell now.
    """
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    # None outside IPython; a shell without formatters (Solara's server) shows no figures
    formatter = getattr(getattr(shell, "display_formatter", None), "mimebundle_formatter", None)
    if formatter is None:
        return False
    try:
        formatter.lookup_by_type(Figure)
    except KeyError:
        formatter.for_type(Figure, _bundle)
    return True


def _bundle(
    figure: Figure, include: Any = None, exclude: Any = None, *, png: bytes | None = None
) -> Any:
    """The figure for IPython: PNG with its text alternative as ``alt`` metadata, and the
    same image as HTML with an ``alt`` attribute. ``png``: the image drawn already."""
    from educatalog.plots._setup import alt_text

    if png is None:
        from IPython.core.pylabtools import print_figure

        # IPython leaves print_figure unannotated: bytes for "png"
        data: Any = print_figure(figure, "png", bbox_inches="tight")  # type: ignore[no-untyped-call]
        png = bytes(data)
    alt = alt_text(figure) or ""
    encoded = base64.b64encode(png).decode("ascii")
    image = (
        f'<img src="data:image/png;base64,{encoded}" alt="{html.escape(alt)}" '
        'style="max-width:100%;height:auto">'
    )
    bundle = {"image/png": png, "text/html": image, "text/plain": repr(figure)}
    metadata = {"image/png": {"alt": alt}} if alt else {}
    return bundle, metadata


def _resized(png: Path, factor: float) -> bytes:
    """The image in ``png`` scaled by ``factor`` (Lanczos), as PNG bytes."""
    from PIL import Image

    with Image.open(png) as image:
        if factor == 1:
            return png.read_bytes()
        size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
        out = io.BytesIO()
        image.resize(size, Image.Resampling.LANCZOS).save(out, format="PNG")
    return out.getvalue()


def display_chart(figure: Figure, *, png: Path | None = None, dpi: float | None = None) -> None:
    """Show ``figure`` as the notebook display does (:func:`register_notebook_display`) with
    its SVG beside the PNG: the page shows the PNG, the report's PDF draws the SVG, sharp at
    any zoom. The SVG's metadata carries the chart's title and text alternative.

    ``png``: the chart saved already at ``dpi`` (:func:`educatalog.plots.save`), shown at the
    figure's own resolution without drawing the chart once more."""
    import matplotlib as mpl
    from IPython.display import display

    from educatalog.plots._setup import STYLE, alt_text

    shown = None if png is None else _resized(png, figure.dpi / (dpi or figure.dpi))
    bundle, metadata = _bundle(figure, png=shown)
    svg = io.StringIO()
    with mpl.rc_context(STYLE):
        figure.savefig(
            svg, format="svg", bbox_inches="tight", pad_inches=0.1, metadata={"Date": None}
        )
    bundle["image/svg+xml"] = svg.getvalue()
    title = next((t for ax in figure.axes if (t := ax.get_title(loc="left"))), "")
    metadata["image/svg+xml"] = {"alt": alt_text(figure) or "", "title": title}
    display(bundle, raw=True, metadata=metadata)  # type: ignore[no-untyped-call]
