"""The explorer's view as a link: the state of its controls as a query string and back.

>>> query = to_query(explorer.state)   # 'by=state&measure=courses&states=Bayern&start=2025-01'
>>> explorer.set_state(from_query(query))   # [] when every part was understood

The functions read the explorer's model (:class:`~educatalog.widgets.ExplorerModel`), no
widget: :func:`view_of` turns a state into the model's :class:`~educatalog.widgets.View`.

The dashboard (``educatalog dashboard``) keeps the query string in the page's address, so a
view can be sent as a link and opening the link restores it. A view holds what the controls
hold: ``by`` and ``by2`` (dimensions by column name), ``measure``, ``show`` (``map``: the
map of the districts), the filters ``states``,
``districts``, ``categories``, ``durations`` and ``subject_areas`` (of a frame of
``offers(subjects=True)``; labels as the catalogue names them, repeated for several; a
district also by its 5-digit key),
``start`` and ``end`` (months, ``YYYY-MM``), ``voucher`` (``1``) and ``format`` (``csv`` or
``xlsx``). What a link leaves out is the control's default, so the plain page is the plain
view. A part the explorer cannot use (a state that is not one, a month outside the data) is
left out and named in the list :func:`apply_state` returns, so a mistyped link still opens;
so is a district that lies in none of the states the link chooses.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

import pandas as pd

from educatalog import texts
from educatalog.widgets._choices import FILTERS, NONE, Option, View, district_keys, offered
from educatalog.widgets.display import MISSING_LABEL, ui_text
from educatalog.widgets.export import FORMATS

if TYPE_CHECKING:
    from educatalog.widgets._model import ExplorerModel

__all__ = ["KEYS", "State", "apply_state", "from_query", "state_of", "to_query", "view_of"]

State = dict[str, str | list[str]]
"""A view: each key's value, a list for the filters."""

LISTS = tuple(FILTERS)
"""The keys that hold several values (the filters: states, districts, categories,
durations, subject areas)."""

_MANY = 30
"""A problem with a choice among more options than this names the similar ones, not all."""

ECHO = 60
"""A value of a link is said in at most this many characters (then "…"): a link of 3,000
characters would run off the page."""

SAID = 10
"""At most this many problems of a link are listed, the last of them saying how many more
there are."""

_SYNONYMS = {"true": "1", "yes": "1", "on": "1", "false": "0", "no": "0", "off": "0"}
"""What else a link may write for ``voucher=1`` and ``voucher=0``."""

_LABELLED: dict[str, Callable[[str], list[Option]]] = {
    # choices the model's options leave out, as the page labels them
    "format": lambda lang: list(FORMATS.items()),
    "voucher": lambda lang: [(texts.text("yes", lang), "1"), (texts.text("no", lang), "0")],
}

KEYS = ("by", "by2", "measure", "show", *LISTS, "start", "end", "voucher", "format")
"""Every key of a view, in the order a link writes them."""


def _model(explorer: Any) -> ExplorerModel:
    """The model of an :class:`~educatalog.widgets.Explorer`, or the model itself."""
    model: ExplorerModel = getattr(explorer, "model", explorer)
    return model


def state_of(explorer: Any) -> State:
    """What the explorer (or its model) shows, without the defaults."""
    model = _model(explorer)
    view = model.view
    state: State = {}
    if view.by != "state":
        state["by"] = view.by
    if view.by2 != NONE:
        state["by2"] = view.by2
    if view.measure != "events":
        state["measure"] = view.measure
    if view.show != "chart":
        state["show"] = view.show
    for name in LISTS:
        if view.chosen(name):
            state[name] = list(view.chosen(name))
    if model.months and view.window is not None:
        low, high = view.window
        if low != 0:
            state["start"] = str(model.months[low])
        if high != len(model.months) - 1:
            state["end"] = str(model.months[high])
    if view.voucher:
        state["voucher"] = "1"
    if view.format != "CSV":
        state["format"] = FORMATS[view.format]
    return state


def apply_state(explorer: Any, state: Mapping[str, Any]) -> list[str]:
    """Set the explorer (or its model) to ``state`` (keys it leaves out: their defaults)
    and update once; returns what could not be used, in words of the explorer's language."""
    return _model(explorer).set_state(state)


def view_of(model: ExplorerModel, state: Mapping[str, Any]) -> tuple[View, list[str]]:
    """The view ``state`` names among the model's options (keys it leaves out: their
    defaults), and what could not be used, in words of the model's language: a value a
    link holds is said shortened to ``ECHO`` characters, and at most ``SAID``
    problems are listed."""
    lang = model.lang
    options = model.options
    problems: list[str] = []

    def labelled(name: str, in_lang: str) -> Sequence[Option]:
        """The options of ``name`` as a page in ``in_lang`` labels them."""
        if name in _LABELLED:
            return _LABELLED[name](in_lang)
        return (options if in_lang == lang else model.options_in(in_lang)).get(name, [])

    def choose(name: str, value: Any, allowed: Sequence[Any]) -> Any:
        """The option ``value`` names: by its value in links (``states=Bayern``,
        ``measure=courses``) or by the label a page shows, in either language
        (``states=Bavaria``, ``measure=Kurse``, ``show=Map``, ``format=Excel``,
        ``voucher=ja``), case aside; else None, and said with the labels to choose from
        (the similar ones where there are many)."""
        if value in allowed:
            return value
        labels = _labels(labelled(name, lang), allowed)
        other = _labels(labelled(name, _other(lang)), allowed)
        wanted = str(value).casefold()
        for option, shown in labels.items():
            if wanted in (str(option).casefold(), shown.casefold(), other[option].casefold()):
                return option
        if len(problems) >= SAID:  # said only as "and n more": not worth the search
            problems.append("")
            return None
        names = [shown for option, shown in labels.items() if option != NONE]
        echo = _echo(value)
        if len(names) <= _MANY:
            problem = ui_text("link.value", lang, part=name, value=echo, allowed=", ".join(names))
        else:
            close = _similar(str(value)[:ECHO], names)
            quoted = ", ".join(("„{}“" if lang == "de" else '"{}"').format(n) for n in close)
            what = ui_text("link.similar", lang, names=quoted) if close else ""
            what = what or ui_text("link.count", lang, n=texts.number(len(names), lang))
            problem = ui_text("link.close", lang, part=name, value=echo, close=what)
        problems.append(problem)
        return None

    for key in state:
        if key not in KEYS:
            problems.append(ui_text("link.key", lang, part=_echo(key), keys=", ".join(KEYS)))
    fields: dict[str, Any] = {}
    for name, default in (
        ("by", "state"),
        ("by2", NONE),
        ("measure", "events"),
        ("show", "chart"),
    ):
        values = [value for _label, value in options[name]]
        fallback = default if default in values else values[0]
        wanted = _one(state.get(name, fallback))
        fields[name] = choose(name, wanted, values) or fallback
    for name in LISTS:
        chosen = _many(state.get(name, []))
        if name not in options:
            if chosen:
                problems.append(ui_text("link.key", lang, part=name, keys=", ".join(KEYS)))
            continue
        if name == "districts":
            chosen = _within_states(model, chosen, fields.get("states", ()), problems)
        values = [value for _label, value in offered(options, fields.get("states", ()))[name]]
        found = (choose(name, value, values) for value in chosen)
        fields[name] = tuple(dict.fromkeys(o for o in found if o is not None))
    if model.months:
        months = [str(month) for month in model.months]
        named = {  # a month as the slider names it, in either language ("März 2025")
            _plain(label).replace(".", ""): str(month)
            for in_lang in texts.LANGS
            for label, month in labelled("start", in_lang)
        }
        low = _month(state.get("start"), months, named, 0, "start", problems, lang)
        high = _month(state.get("end"), months, named, len(months) - 1, "end", problems, lang)
        fields["window"] = (min(low, high), max(low, high))
    elif "start" in state or "end" in state:
        problems.append(ui_text("link.key", lang, part="start", keys=", ".join(KEYS)))
    if model.has_voucher:
        wanted = _one(state.get("voucher", "0"))
        wanted = _SYNONYMS.get(wanted.casefold(), wanted)
        fields["voucher"] = choose("voucher", wanted, ["1", "0"]) == "1"
    elif "voucher" in state:
        problems.append(ui_text("link.key", lang, part="voucher", keys=", ".join(KEYS)))
    suffix = _one(state.get("format", "csv"))
    labels = {s: label for label, s in FORMATS.items()}
    fields["format"] = labels[choose("format", suffix.lower(), list(labels)) or "csv"]
    if len(problems) > SAID:
        more = ui_text("link.more", lang, n=texts.number(len(problems) - SAID + 1, lang))
        problems = [*problems[: SAID - 1], more]
    return View(**fields), problems


def _within_states(
    model: ExplorerModel, chosen: list[str], states: Sequence[str], problems: list[str]
) -> list[str]:
    """The districts ``chosen`` (a 5-digit key as its district's name) but those that lie
    in none of the ``states`` chosen, which are said in ``problems``."""
    names = [district_keys().get(value, value) for value in chosen]
    every = {str(v).casefold(): v for _label, v in model.options.get("districts", [])}
    here = {v for _label, v in offered(model.options, states).get("districts", [])}
    kept = []
    for value, name in zip(chosen, names, strict=True):
        district = every.get(name.casefold())
        if district is not None and district not in here:
            shown = ", ".join(
                texts.missing(model.lang) if s == MISSING_LABEL else texts.label(s, model.lang)
                for s in states
            )
            echo = _echo(value)
            part = ui_text("link.outside", model.lang, part="districts", value=echo, states=shown)
            problems.append(part)
        else:
            kept.append(name)
    return kept


def _echo(value: Any) -> str:
    """``value`` as a problem says it: at most :data:`ECHO` characters, "…" where cut."""
    text = str(value)
    return text if len(text) <= ECHO else text[: ECHO - 1].rstrip() + "…"


def _other(lang: str) -> str:
    """The other language of the two."""
    return next(other for other in texts.LANGS if other != lang)


def _similar(value: str, names: Sequence[str]) -> list[str]:
    """Up to three of ``names`` like ``value``: those that begin with it, else the closest
    spellings; case and accents aside ("munchen" is like "München, Stadt")."""
    plain = {_plain(name): name for name in names}
    wanted = _plain(value)
    begin = [name for text, name in plain.items() if wanted and text.startswith(wanted)]
    close = difflib.get_close_matches(wanted, list(plain), n=3, cutoff=0.6)
    return begin[:3] or [plain[text] for text in close]


def _plain(text: str) -> str:
    """``text`` without case and accents."""
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _labels(options: Sequence[Option], allowed: Sequence[Any]) -> dict[Any, str]:
    """Each allowed value with the label the page shows for it."""
    shown = {value: str(label) for label, value in options}
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
    value: Any,
    months: list[str],
    named: Mapping[str, str],
    default: int,
    key: str,
    problems: list[str],
    lang: str,
) -> int:
    """The slider position of the month ``value`` (``YYYY-MM``, or as the slider names it
    in either language, ``named``: "März 2025", "Mar 2025"); outside the data's range the
    nearest end, and said."""
    if value in (None, ""):
        return default
    text = _one(value)
    month = named.get(_plain(text).replace(".", ""))
    try:
        month = month or str(pd.Period(text, freq="M"))
    except (ValueError, TypeError):
        problems.append(ui_text("link.month", lang, part=key, value=_echo(text)))
        return default
    if month in months:
        return months.index(month)
    nearest = 0 if month < months[0] else len(months) - 1
    first, last = (texts.label(pd.Period(m, freq="M"), lang) for m in (months[0], months[-1]))
    echo = _echo(text)
    problems.append(ui_text("link.range", lang, part=key, value=echo, first=first, last=last))
    return nearest
