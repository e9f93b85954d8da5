"""The population behind every per-capita number: the current census basis by default, the
earlier tables by date and basis, one's own file with clear errors, and the national rate."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

from educatalog import population, stats
from educatalog.errors import EducatalogError
from educatalog.frames.catalogue import Catalogue

# Destatis / statistical offices of the Länder, Fortschreibung des Bevölkerungsstandes
# (GENESIS 12411-0010; regionalstatistik 12411-01-01-4), as compiled and cross-checked in
# the project's reference notes: (31.12.2022 Zensus 2011, 31.12.2022 Zensus 2022,
# 31.12.2023 Zensus 2022, 31.12.2024 Zensus 2022).
FIGURES = {
    "DE-BW": (11_280_257, 11_167_721, 11_230_740, 11_245_898),
    "DE-BY": (13_369_393, 13_105_221, 13_176_426, 13_248_928),
    "DE-BE": (3_755_251, 3_632_853, 3_662_381, 3_685_265),
    "DE-BB": (2_573_135, 2_545_159, 2_554_464, 2_556_747),
    "DE-HB": (684_864, 695_758, 702_655, 704_881),
    "DE-HH": (1_892_122, 1_832_675, 1_851_596, 1_862_565),
    "DE-HE": (6_391_360, 6_236_933, 6_267_546, 6_280_793),
    "DE-MV": (1_628_378, 1_576_049, 1_578_041, 1_573_597),
    "DE-NI": (8_140_242, 7_982_947, 8_008_135, 8_004_489),
    "DE-NW": (18_139_116, 17_964_420, 18_017_520, 18_034_454),
    "DE-RP": (4_159_150, 4_108_555, 4_125_163, 4_129_569),
    "DE-SL": (992_666, 1_011_891, 1_014_047, 1_012_141),
    "DE-SN": (4_086_152, 4_049_967, 4_054_689, 4_042_422),
    "DE-ST": (2_186_643, 2_150_239, 2_144_570, 2_135_597),
    "DE-SH": (2_953_270, 2_939_283, 2_953_202, 2_959_517),
    "DE-TH": (2_126_846, 2_118_830, 2_114_870, 2_100_277),
}
TOTALS = (84_358_845, 83_118_501, 83_456_045, 83_577_140)
TABLES = [
    ("2022-12-31", "Zensus 2011"),
    ("2022-12-31", "Zensus 2022"),
    ("2023-12-31", "Zensus 2022"),
    ("2024-12-31", "Zensus 2022"),
]
KEY_ORDER = ["SH", "HH", "NI", "HB", "NW", "HE", "RP", "BW"]
KEY_ORDER += ["BY", "SL", "BE", "BB", "MV", "SN", "ST", "TH"]


def test_the_default_is_the_newest_table_on_the_zensus_2022_basis() -> None:
    assert dt.date(2024, 12, 31) == population.DATE
    assert population.BASIS == "Zensus 2022"
    assert population.TOTAL == 83_577_140
    assert population.TABLE == "12411-0010"
    assert population.SOURCE == (
        "Statistisches Bundesamt (Destatis) und Statistische Ämter der Länder, "
        "Fortschreibung des Bevölkerungsstandes, Basis Zensus 2022, Tabelle 12411-0010, "
        "Stand 31.12.2024"
    )
    table = population.STATE_POPULATION
    assert {c: int(n) for c, n in table["population"].items()} == {
        c: v[3] for c, v in FIGURES.items()
    }
    # In the official order of the states' keys, the key beside each.
    assert list(table.index) == [f"DE-{c}" for c in KEY_ORDER]
    assert list(table["key"]) == [f"{k:02d}" for k in range(1, 17)]
    assert table["population"].dtype == "Int64"


@pytest.mark.parametrize(("n", "date_basis"), list(enumerate(TABLES)))
def test_every_shipped_table_by_date_and_basis(n: int, date_basis: tuple[str, str]) -> None:
    date, basis = date_basis
    table = population.table(date, basis=basis)
    assert {c: int(v) for c, v in table["population"].items()} == {
        c: v[n] for c, v in FIGURES.items()
    }
    assert table.attrs["total"] == TOTALS[n] == int(table["population"].sum())
    assert table.attrs["date"].isoformat() == date
    assert table.attrs["basis"] == basis
    listed = population.tables()
    assert [(d.isoformat(), b) for d, b in zip(listed["date"], listed["basis"], strict=True)] == (
        TABLES
    )
    assert list(listed["total"]) == list(TOTALS)


def test_a_date_alone_takes_its_newest_basis_and_an_unknown_one_fails() -> None:
    assert population.table("2022-12-31").attrs["basis"] == "Zensus 2022"
    with pytest.raises(EducatalogError, match=r"no table of date 2021-12-31.*2024-12-31"):
        population.table("2021-12-31")


def _write(path: Path, rows: dict[str, str], header: str = "state,population,date,source") -> Path:
    lines = [header, *(f"{state},{value},2024-06-30,Landesamt X" for state, value in rows.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _all_states(value: str = "1000") -> dict[str, str]:
    return {str(name): value for name in population.STATES["state"]}


def test_ones_own_file_of_state_population_date_and_source(tmp_path: Path) -> None:
    rows = _all_states()
    rows["Bayern"] = "2000"
    table = population.read_population(_write(tmp_path / "own.csv", rows))
    assert int(table.loc["DE-BY", "population"]) == 2000
    assert table.attrs["date"] == dt.date(2024, 6, 30)
    origin = population.origin(table)
    assert origin["source_name"] == "Landesamt X"
    assert origin["date"] == "2024-06-30"
    # English names, ISO codes and keys name the states too; ";" separates fields as well.
    english = tmp_path / "en.csv"
    english.write_text(
        "state;population\n"
        + "".join(f"DE-{c};{i + 1}\n" for i, c in enumerate(KEY_ORDER[:8]))
        + "Bavaria;9\n"
        + "".join(f"{i + 10:02d};{i + 10}\n" for i in range(7)),
        encoding="utf-8",
    )
    table = population.read_population(english)
    assert list(table["population"]) == list(range(1, 17))


def test_a_file_that_misses_a_state_or_has_no_number_fails_clearly(tmp_path: Path) -> None:
    rows = _all_states()
    del rows["Saarland"], rows["Bremen"]
    with pytest.raises(EducatalogError, match=r"misses Bremen, Saarland: every one of the 16"):
        population.read_population(_write(tmp_path / "short.csv", rows))
    rows = _all_states()
    rows["Hessen"] = '"6,3 Mio."'
    with pytest.raises(
        EducatalogError, match=r"gives '6,3 Mio\.' as the population of Hessen \(line 7\)"
    ):
        population.read_population(_write(tmp_path / "text.csv", rows))
    rows = _all_states()
    rows["Bayren"] = rows.pop("Bayern")
    with pytest.raises(EducatalogError, match=r'names "Bayren".*Did you mean "Bayern"'):
        population.read_population(_write(tmp_path / "typo.csv", rows))
    rows = _all_states()
    rows["Deutschland"] = "5"
    with pytest.raises(EducatalogError, match=r"add up to 16,000, not to its total"):
        population.read_population(_write(tmp_path / "total.csv", rows))
    with pytest.raises(EducatalogError, match=r"lacks the column\(s\) population"):
        population.read_population(_write(tmp_path / "cols.csv", {}, header="state,inhabitants"))


def test_per_capita_takes_a_file_and_names_its_source(
    demo_catalogue: Catalogue, tmp_path: Path
) -> None:
    offers = demo_catalogue.offers()
    path = _write(tmp_path / "own.csv", _all_states("100000"))
    table = stats.per_capita(offers, population=path)
    events = offers.dropna(subset=["state"]).groupby("state", observed=True)["event_id"].nunique()
    for state, row in table.iterrows():
        assert row["population"] == 100_000
        assert row["events_per_100k"] == pytest.approx(events.get(state, 0))
    origin = table.attrs["educatalog"]["population"]
    assert (origin["source_name"], origin["date"]) == ("Landesamt X", "2024-06-30")
    older = stats.per_capita(offers, population=population.table("2022-12-31", basis="Zensus 2011"))
    assert older.attrs["educatalog"]["population"]["basis"] == "Zensus 2011"
    assert int(older.loc["Bayern", "population"]) == 13_369_393


def test_the_national_rate_is_germany_s_and_a_selection_s_its_own(
    demo_catalogue: Catalogue,
) -> None:
    offers = demo_catalogue.offers()
    table = stats.per_capita(offers, margins=True)
    total = table.iloc[-1]
    assert table.index[-1] == "All"
    with_state = offers.dropna(subset=["state"])
    assert total["events"] == with_state["event_id"].nunique()
    assert total["courses"] == with_state["course_id"].nunique()
    assert total["population"] == 83_577_140
    assert total["events_per_100k"] == pytest.approx(total["events"] * 100_000 / 83_577_140)
    assert table.attrs["without_state"] == offers["state"].isna().sum()
    chosen = stats.select(offers, state=["Bayern", "Sachsen"])
    two = stats.per_capita(chosen, margins=True)
    assert list(two.index) == ["Bayern", "Sachsen", "All"]
    assert two.loc["All", "population"] == 13_248_928 + 4_042_422
    assert two.loc["All", "events"] == two["events"].iloc[:2].sum()
    assert isinstance(two, pd.DataFrame)
