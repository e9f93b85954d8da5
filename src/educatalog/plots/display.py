"""Charts shown inline in IPython and Jupyter, with their text alternative.

The figures are made without pyplot, whose inline backend would otherwise be what tells
IPython how to display a figure; without it a chart shows as ``<Figure ...>`` text. Importing
:mod:`educatalog.plots` changes nothing in IPython: every chart function calls
:func:`register_notebook_display` when it has drawn, and so may you.
"""

from __future__ import annotations

import sys
from typing import Any

from matplotlib.figure import Figure

__all__ = ["register_notebook_display"]


def register_notebook_display() -> bool:
    """Have the running IPython shell show figures as PNG images whose ``alt`` metadata is
    the chart's text alternative (which the report puts on the image).

    Does nothing outside IPython and where a PNG formatter for figures is registered
    already (so a second call, or pyplot's inline backend, is left as it is). Returns
    whether figures display as PNG in the shell now.
    """
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return False
    formatter = shell.display_formatter.formatters["image/png"]
    try:
        formatter.lookup_by_type(Figure)
    except KeyError:
        formatter.for_type(Figure, _png)
    return True


def _png(figure: Figure) -> bytes | tuple[bytes, dict[str, str]]:
    """The figure as PNG for IPython, with its text alternative as the output's ``alt``
    metadata."""
    from IPython.core.pylabtools import print_figure

    from educatalog.plots._setup import alt_text

    # IPython leaves print_figure unannotated: bytes for "png"
    data: Any = print_figure(figure, "png", bbox_inches="tight")  # type: ignore[no-untyped-call]
    alt = alt_text(figure)
    return (bytes(data), {"alt": alt}) if alt else bytes(data)
