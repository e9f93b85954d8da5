"""A supply report of the catalogue, computed over the service's API.

Every number is a ``meta=filter_count`` of ``/items/events`` under a filter, so the report
costs a few dozen small requests, whatever the catalogue's size, and works the same against
the real service and the reference server. Written as a self-contained HTML page and a JSON
file of the same tables.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from educatalog.query import F, Filter, Query
from educatalog.server.app import DEMO_HEADER

__all__ = ["Report", "build_report", "write_report"]

DEMO_MARK = "Synthetic demo data"


@dataclass
class Table:
    """One table of the report: a label column and counts of events with their shares."""

    title: str
    rows: list[tuple[str, int]]
    note: str = ""

    @property
    def total(self) -> int:
        return sum(n for _, n in self.rows)


@dataclass
class Report:
    source: str
    created: str
    demo: bool
    totals: dict[str, int]
    tables: list[Table] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "created": self.created,
            "synthetic_demo_data": self.demo,
            "totals": self.totals,
            "tables": [
                {"title": t.title, "note": t.note, "rows": [list(r) for r in t.rows]}
                for t in self.tables
            ],
        }


def _count(client: httpx.Client, collection: str, f: Filter | None = None) -> tuple[int, bool]:
    query = Query(filter=f, limit=0, meta=("filter_count",))
    response = client.get(f"/items/{collection}", params=query.to_params())
    response.raise_for_status()
    return int(response.json()["meta"]["filter_count"]), DEMO_HEADER in response.headers


def _all(client: httpx.Client, collection: str, fields: str) -> list[dict[str, Any]]:
    response = client.get(f"/items/{collection}", params={"fields": fields, "limit": "-1"})
    response.raise_for_status()
    return list(response.json()["data"])


def build_report(client: httpx.Client, *, source: str) -> Report:
    """Compute the report's tables with ``client`` (base URL and token already set)."""
    totals = {}
    demo = False
    for collection in ("events", "courses", "addresses", "contacts"):
        totals[collection], marked = _count(client, collection)
        demo = demo or marked
    report = Report(
        source=source,
        created=dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        demo=demo,
        totals=totals,
    )

    def table(
        title: str, groups: Mapping[str, Filter], note: str = "", rest: str | None = None
    ) -> None:
        rows = [(label, _count(client, "events", f)[0]) for label, f in groups.items()]
        if rest is not None:  # every event not counted above, so that the table adds up
            rows.append((rest, totals["events"] - sum(n for _, n in rows)))
        report.tables.append(Table(title, rows, note))

    states = _all(client, "states", "id,name")
    table(
        "Events by state",
        {str(s["name"] or f"state {s['id']}"): F("address.state") == s["id"] for s in states},
        "State of the event's address; events without an address, or whose address has no "
        "known state, are counted apart.",
        rest="(no state)",
    )
    forms = _all(client, "instruction_forms", "id,category")
    categories = sorted({f["category"] for f in forms if f["category"]})
    table(
        "Events by instruction-form category",
        {c: F("instruction_form.category") == c for c in categories},
        "Events with an unknown or missing instruction form are not counted.",
    )
    times = _all(client, "instruction_times", "id,name")
    table(
        "Events by instruction time", {t["name"]: F("instruction_time") == t["id"] for t in times}
    )
    table(
        "Events by education-voucher eligibility",
        {
            "eligible": F("education_voucher") == True,  # noqa: E712
            "not eligible": F("education_voucher") == False,  # noqa: E712
            "not stated": F("education_voucher").isnull(),
        },
    )
    quarters: dict[str, Filter] = {}
    first, last = _start_years(client)
    for year in range(first, last + 1):
        for q in range(4):
            start, end = f"{year}-{3 * q + 1:02d}-01", _quarter_end(year, q)
            quarters[f"{year} Q{q + 1}"] = (F("event_start_date") >= start) & (
                F("event_start_date") < end
            )
    table("Events by quarter of start", quarters, rest="(no start date)")
    return report


def _start_years(client: httpx.Client) -> tuple[int, int]:
    """The years of the earliest and the latest event start (this year when none)."""
    years = []
    for order in ("event_start_date", "-event_start_date"):
        query = Query(
            fields=("event_start_date",),
            filter=F("event_start_date").notnull(),
            sort=(order,),
            limit=1,
        )
        response = client.get("/items/events", params=query.to_params())
        response.raise_for_status()
        data = response.json()["data"]
        if data:
            years.append(int(data[0]["event_start_date"][:4]))
    now = dt.datetime.now(dt.UTC).year
    return (min(years), max(years)) if years else (now, now)


def _quarter_end(year: int, q: int) -> str:
    return f"{year + 1}-01-01" if q == 3 else f"{year}-{3 * q + 4:02d}-01"


def _html(report: Report) -> str:
    esc: Callable[[object], str] = lambda v: html.escape(str(v))  # noqa: E731
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>Course supply report</title><style>",
        "body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;color:#222}",
        "table{border-collapse:collapse;margin:0 0 2rem}td,th{padding:.2rem .8rem;"
        "border-bottom:1px solid #ddd}td.n{text-align:right;font-variant-numeric:tabular-nums}",
        ".demo{background:#b00020;color:#fff;padding:.5rem 1rem;font-weight:bold}",
        ".bar{background:#3b6ea5;height:.8rem;display:inline-block}",
        "</style></head><body>",
    ]
    if report.demo:
        parts.append(
            f"<p class='demo'>{DEMO_MARK}: generated by educatalog's reference server, "
            "not the real catalogue.</p>"
        )
    parts.append("<h1>Course supply in the educational catalogue</h1>")
    parts.append(
        f"<p>Source: {esc(report.source)} &middot; created {esc(report.created)} &middot; "
        + ", ".join(f"{n:,} {esc(k)}" for k, n in report.totals.items())
        + "</p>"
    )
    for t in report.tables:
        parts.append(f"<h2>{esc(t.title)}</h2>")
        if t.note:
            parts.append(f"<p>{esc(t.note)}</p>")
        parts.append("<table><tr><th></th><th>events</th><th>share</th><th></th></tr>")
        top = max((n for _, n in t.rows), default=0) or 1
        for label, n in t.rows:
            share = n / t.total if t.total else 0.0
            width = 12 * n / top
            parts.append(
                f"<tr><td>{esc(label)}</td><td class='n'>{n:,}</td>"
                f"<td class='n'>{share:.1%}</td>"
                f"<td><span class='bar' style='width:{width:.2f}rem'></span></td></tr>"
            )
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(report: Report, out: str | Path) -> Path:
    """Write ``report.html`` and ``report.json`` into ``out``; returns the HTML path."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(
        json.dumps(report.to_json(), ensure_ascii=False, indent=2), encoding="utf-8"
    )
    page = folder / "report.html"
    page.write_text(_html(report), encoding="utf-8")
    return page
