"""The reference lists of the demo catalogue as rows of their collections."""

from __future__ import annotations

from typing import Any

from educatalog.demodata import reference_data as ref
from educatalog.demodata.distributions import (
    REFERENCE_COLLECTIONS,
    SYSTEMATIC_IDS,
)


def reference_rows() -> dict[str, list[dict[str, Any]]]:
    """The 13 real reference lists, keyed by collection (fresh lists on every call)."""
    categories = ref.INSTRUCTION_FORM_CATEGORIES
    rows: dict[str, list[dict[str, Any]]] = {
        "certifiers": [{"id": i, "name": n} for i, n in ref.CERTIFIERS],
        "course_types": [{"id": i, "name": n} for i, n in ref.COURSE_TYPES],
        "durations": [{"id": i, "name": n} for i, n in ref.DURATIONS],
        "education_types": [{"id": i, "name": n} for i, n in ref.EDUCATION_TYPES],
        "funding_types_federals": [{"id": i, "name": n} for i, n in ref.FUNDING_TYPES_FEDERALS],
        "funding_types_regions": [
            {"id": i, "name": n, "state": s} for i, n, s in ref.FUNDING_TYPES_REGIONS
        ],
        "handicaps": [{"id": i, "name": n} for i, n in ref.HANDICAPS],
        "institution_types": [{"id": i, "name": n} for i, n in ref.INSTITUTION_TYPES],
        "instruction_forms": [
            {"id": i, "name": n, "category": categories[i // 100]} for i, n in ref.INSTRUCTION_FORMS
        ],
        "instruction_times": [{"id": i, "name": n} for i, n in ref.INSTRUCTION_TIMES],
        "locations": [
            {"id": k + 1, "zip": loc.zip, "city": loc.city, "state": loc.state}
            for k, loc in enumerate(ref.LOCATIONS)
        ],
        "states": [{"id": i, "name": n, "code": c} for i, n, c in ref.STATES],
        "systematics": [
            {
                "id": k + 1,
                "name": name,
                "code": code,
                "parent": SYSTEMATIC_IDS[parent] if parent else None,
            }
            for k, (code, name, parent) in enumerate(ref.SYSTEMATICS)
        ],
    }
    return {name: rows[name] for name in REFERENCE_COLLECTIONS}
