"""The explorer's view as a link: the state of its controls as a query string and back.

>>> query = to_query(explorer.state)   # 'by=state&measure=courses&states=Bayern&start=2025-01'
>>> explorer.set_state(from_query(query))   # [] when every part was understood

The dashboard (``educatalog dashboard``) keeps the query string in the page's address, so a
view can be sent as a link and opening the link restores it. A view holds what the controls
hold: ``by`` and ``by2`` (dimensions by column name), ``measure``, the filters ``states``,
``categories`` and ``durations`` (labels as the catalogue names them, repeated for several),
``start`` and ``end`` (months, ``YYYY-MM``), ``voucher`` (``1``) and ``format`` (``csv`` or
``xlsx``). What a link leaves out is the control's default, so the plain page is the plain
view. A part the explorer cannot use (a state that is not one, a month outside the data) is
left out and named in the list :func:`apply_state` returns, so a mistyped link still opens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

import pandas as pd

from educatalog import texts
from educatalog.widgets.controls import NONE
from educatalog.widgets.display import ui_text
from educatalog.widgets.export import FORMATS

if TYPE_CHECKING:
    from educatalog.widgets.dashboard import Explorer

__all__ = ["KEYS", "State", "apply_state", "from_query", "state_of", "to_query"]

State = dict[str, str | list[str]]
"""A view: each key's value, a list for the filters."""

LISTS = ("states", "categories", "durations")
"""The keys that hold several values (the filters)."""

KEYS = ("by", "by2", "measure", *LISTS, "start", "end", "voucher", "format")
"""Every key of a view, in the order a link writes them."""


def state_of(explorer: Explorer) -> State:
    """What the explorer's controls show, without the defaults."""
    controls = explorer.controls
    state: State = {}
    if controls["by"].value != "state":
        state["by"] = controls["by"].value
    if controls["by2"].value != NONE:
        state["by2"] = controls["by2"].value
    if controls["measure"].value != "events":
        state["measure"] = controls["measure"].value
    for name in LISTS:
        if name in controls and controls[name].value:
            state[name] = list(controls[name].value)
    if "start" in controls:
        slider = controls["start"]
        low, high = slider.index
        if low != 0:
            state["start"] = str(slider.options[low][1])
        if high != len(slider.options) - 1:
            state["end"] = str(slider.options[high][1])
    if "voucher" in controls and controls["voucher"].value:
        state["voucher"] = "1"
    if controls["format"].value != "CSV":
        state["format"] = FORMATS[controls["format"].value]
    return state


def apply_state(explorer: Explorer, state: Mapping[str, Any]) -> list[str]:
    """Set the explorer's controls to ``state`` (keys it leaves out: their defaults) and
    update once; returns what could not be used, in words of the explorer's language."""
    lang = explorer.lang
    controls = explorer.controls
    problems: list[str] = []

    def choose(name: str, value: Any, allowed: Sequence[Any]) -> Any:
        """The option ``value`` names: by its value in links (``states=Bayern``,
        ``measure=courses``) or by the label the page shows (``states=Bavaria``,
        ``measure=Kurse``), case aside; else None, and said with the labels to choose from."""
        if value in allowed:
            return value
        labels = _labels(controls, name, allowed)
        wanted = str(value).casefold()
        for option, shown in labels.items():
            if wanted in (str(option).casefold(), shown.casefold()):
                return option
        choices = ", ".join(shown for option, shown in labels.items() if option != NONE)
        problems.append(ui_text("link.value", lang, part=name, value=value, allowed=choices))
        return None

    for key in state:
        if key not in KEYS:
            problems.append(ui_text("link.key", lang, part=key, keys=", ".join(KEYS)))
    with explorer.holding():
        for name, default in (("by", "state"), ("by2", NONE), ("measure", "events")):
            options = [value for _label, value in controls[name].options]
            fallback = default if default in options else options[0]
            wanted = _one(state.get(name, fallback))
            controls[name].value = choose(name, wanted, options) or fallback
        for name in LISTS:
            chosen = _many(state.get(name, []))
            if name not in controls:
                if chosen:
                    problems.append(ui_text("link.key", lang, part=name, keys=", ".join(KEYS)))
                continue
            options = [value for _label, value in controls[name].options]
            found = (choose(name, value, options) for value in chosen)
            controls[name].value = tuple(dict.fromkeys(o for o in found if o is not None))
        if "start" in controls:
            slider = controls["start"]
            months = [str(value) for _label, value in slider.options]
            low = _month(state.get("start"), months, 0, "start", problems, lang)
            high = _month(state.get("end"), months, len(months) - 1, "end", problems, lang)
            slider.index = (min(low, high), max(low, high))
        elif "start" in state or "end" in state:
            problems.append(ui_text("link.key", lang, part="start", keys=", ".join(KEYS)))
        if "voucher" in controls:
            controls["voucher"].value = _one(state.get("voucher", "")) in ("1", "true", "yes")
        suffix = _one(state.get("format", "csv")).lower()
        labels = {s: label for label, s in FORMATS.items()}
        controls["format"].value = labels.get(choose("format", suffix, list(labels)) or "csv")
    return problems


def _labels(controls: Mapping[str, Any], name: str, allowed: Sequence[Any]) -> dict[Any, str]:
    """Each allowed value of control ``name`` with the label the page shows for it."""
    options = getattr(controls.get(name), "options", ())
    shown = {o[1]: str(o[0]) for o in options if isinstance(o, tuple) and len(o) == 2}
    return {value: shown.get(value, str(value)) for value in allowed}


def to_query(state: Mapping[str, Any]) -> str:
    """``state`` as a URL query string (without ``?``), keys in :data:`KEYS` order, a
    filter's values repeated (``states=Bayern&states=Sachsen``)."""
    pairs: list[tuple[str, str]] = []
    for key in KEYS:
        if key in state:
            pairs += [(key, str(v)) for v in _many(state[key])]
    return urlencode(pairs)


def from_query(query: str) -> State:
    """A URL query string (with or without ``?``) as a view; filters as lists."""
    state: State = {}
    for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=False):
        if key in LISTS:
            listed = state.get(key)
            state[key] = [*listed, value] if isinstance(listed, list) else [value]
        else:
            state[key] = value
    return state


def _one(value: Any) -> str:
    if isinstance(value, list | tuple):
        return str(value[-1]) if value else ""
    return str(value)


def _many(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return [str(value)] if value not in (None, "") else []


def _month(
    value: Any, months: list[str], default: int, key: str, problems: list[str], lang: str
) -> int:
    """The slider position of the month ``value`` (``YYYY-MM``); outside the data's
    range the nearest end, and said."""
    if value in (None, ""):
        return default
    text = _one(value)
    try:
        month = str(pd.Period(text, freq="M"))
    except (ValueError, TypeError):
        problems.append(ui_text("link.month", lang, part=key, value=text))
        return default
    if month in months:
        return months.index(month)
    nearest = 0 if month < months[0] else len(months) - 1
    first, last = (texts.label(pd.Period(m, freq="M"), lang) for m in (months[0], months[-1]))
    problems.append(ui_text("link.range", lang, part=key, value=text, first=first, last=last))
    return nearest
