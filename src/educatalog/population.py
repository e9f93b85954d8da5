"""Inhabitants of the 16 German states, for offers per 100,000 inhabitants.

>>> educatalog.population.STATE_POPULATION.loc["DE-BE", "population"]  # doctest: +SKIP
"""

from __future__ import annotations

import pandas as pd

__all__ = ["SOURCE", "STATE_POPULATION", "YEAR", "state_population"]

YEAR: int = 2023
"""Reference date of the figures: 31 December of this year."""

SOURCE: str = (
    "Statistisches Bundesamt (Destatis), Fortschreibung des Bevölkerungsstandes, "
    "Stand 31.12.2023 (auf Tausend gerundet)"
)
"""Where the figures come from."""

_ROWS: tuple[tuple[str, str, int], ...] = (
    ("DE-BW", "Baden-Württemberg", 11_280_000),
    ("DE-BY", "Bayern", 13_369_000),
    ("DE-BE", "Berlin", 3_755_000),
    ("DE-BB", "Brandenburg", 2_573_000),
    ("DE-HB", "Bremen", 685_000),
    ("DE-HH", "Hamburg", 1_892_000),
    ("DE-HE", "Hessen", 6_391_000),
    ("DE-MV", "Mecklenburg-Vorpommern", 1_628_000),
    ("DE-NI", "Niedersachsen", 8_140_000),
    ("DE-NW", "Nordrhein-Westfalen", 18_139_000),
    ("DE-RP", "Rheinland-Pfalz", 4_159_000),
    ("DE-SL", "Saarland", 993_000),
    ("DE-SN", "Sachsen", 4_089_000),
    ("DE-ST", "Sachsen-Anhalt", 2_187_000),
    ("DE-SH", "Schleswig-Holstein", 2_953_000),
    ("DE-TH", "Thüringen", 2_127_000),
)


def state_population() -> pd.DataFrame:
    """The table: index ``code`` (ISO 3166-2), columns ``state`` (German name) and
    ``population`` (Int64); source in ``attrs["source"]``."""
    frame = pd.DataFrame(
        {
            "code": pd.array([r[0] for r in _ROWS], dtype="string"),
            "state": pd.array([r[1] for r in _ROWS], dtype="string"),
            "population": pd.array([r[2] for r in _ROWS], dtype="Int64"),
        }
    ).set_index("code")
    frame.attrs["source"] = SOURCE
    return frame


STATE_POPULATION: pd.DataFrame = state_population()
"""Inhabitants per state (:data:`SOURCE`, :data:`YEAR`)."""
