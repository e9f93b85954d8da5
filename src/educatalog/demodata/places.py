"""Where the demo's addresses are: the 400 districts (Kreise and kreisfreie Städte) and
their real (postal code, place) pairs, read from the district tables the package ships in
``educatalog/data/districts/`` (:data:`~educatalog.demodata.reference_data.DISTRICT_FILES`)
with the csv module: the generator needs no pandas.

* **A district** is drawn within a state in proportion to its weight: its population
  (31.12.2024), times :data:`CITY_FACTOR` for a kreisfreie Stadt (offers gather in cities),
  times a spread of its own (:data:`SPREAD`: a log-normal factor drawn once, seeded by the
  district's key, the same for every seed of the demo), so that some districts have many
  offers for their size and some very few.
* **A place** of the district is drawn with the weight of a town: a pair weighs the number
  of the place's postal codes in the district over the number of places its postal code
  serves, so towns with codes of their own come before the villages that share one. The
  pairs are those of ``plz_place_district.csv`` that name one district, so a clean address
  finds its district by postal code and city.
* **The first two nationwide providers cover the country** (:meth:`Places.covering`): the
  first (institution 0, in every demo) has a branch in every other district of each state,
  so in every state; the second (institution 150, from scale 0.51) in the others. Between
  them, each of the 400 districts has a branch and an event.
* **The faults real addresses have** (:meth:`Places.unknown_code`, :meth:`Places.wrong_city`):
  a postal code in no delivery area (a PO box's, or a malformed one), a city that is not a
  place of its postal code.

Everything is plain data in a fixed order, read once (:func:`places`), so the draws are
the same on every machine and hash seed.
"""

from __future__ import annotations

import bisect
import csv
import functools
import io
import operator
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import NamedTuple

from educatalog.demodata import reference_data as ref
from educatalog.demodata.distributions import Weighted

__all__ = ["CITY_FACTOR", "SPREAD", "STATE_IDS", "District", "Place", "Places", "places"]


CITY_FACTOR = 1.8
"""How much more a kreisfreie Stadt (Stadtkreis) weighs than its population says."""
SPREAD = 0.4
"""The standard deviation of the logarithm of each district's own factor."""

STATE_IDS: dict[str, int] = {
    f"{k + 1:02d}": next(i for i, _, c in ref.STATES if c == code)
    for k, code in enumerate(
        (
            *("DE-SH", "DE-HH", "DE-NI", "DE-HB", "DE-NW", "DE-HE", "DE-RP", "DE-BW"),
            *("DE-BY", "DE-SL", "DE-BE", "DE-BB", "DE-MV", "DE-SN", "DE-ST", "DE-TH"),
        )
    )
}
"""The demo's state id (``states``: 1 Baden-Württemberg … 16 Thüringen) of each official
state key (the first two digits of a district key: 01 Schleswig-Holstein … 16 Thüringen)."""

Draw = Callable[[], float]
"""``random.Random.random`` of the institution being generated."""

_SPACES = re.compile(r"\s+")
_TRANSLIT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe"})


class Place(NamedTuple):
    """A real postal code and place, with its state (the demo's id), the telephone area
    code of the nearest listed location, and its district's key."""

    zip: str
    city: str
    state: int
    area_code: str
    district: str


class District:
    """A district, its weight among the districts of its state, and its places: parallel
    lists of postal codes and place names, drawn by :attr:`draw` (a pair's position)."""

    __slots__ = ("city", "codes", "draw", "key", "names", "population", "state", "weight")

    def __init__(
        self,
        key: str,
        population: int,
        city: bool,
        codes: list[str],
        names: list[str],
        weights: list[float],
    ) -> None:
        self.key = key
        self.state = STATE_IDS[key[:2]]
        self.population = population
        self.city = city
        own = random.Random(f"educatalog-demo-district:{key}").lognormvariate(0.0, SPREAD)
        self.weight = population * (CITY_FACTOR if city else 1.0) * own
        self.codes = codes
        self.names = names
        self.draw: Weighted[int] = Weighted.of(range(len(codes)), weights)

    def towns(self) -> list[str]:
        """The district's place names, the heaviest first."""
        weight: defaultdict[str, float] = defaultdict(float)
        for k, name in enumerate(self.names):
            weight[name] += self.draw.weight(k)
        return sorted(weight, key=lambda name: (-weight[name], name))


def _matched(place: str) -> str:
    """A place name as :func:`educatalog.frames.districts.assign_districts` matches it:
    case and runs of white space ignored."""
    return _SPACES.sub(" ", place.strip()).casefold()


def _rows(name: str) -> list[list[str]]:
    """The rows of a district table, without its header."""
    return list(csv.reader(io.StringIO(ref.district_text(name))))[1:]


_PAIR = re.compile(r"^(\d{5}),([^,\n]+),(\d{5})$", re.MULTILINE)
"""A line of ``plz_place_district.csv``: postal code, place, district key (none quoted)."""


def _pairs() -> list[tuple[str, str, str]]:
    """The (postal code, place, district key) rows of ``plz_place_district.csv``."""
    text = ref.district_text("plz_place_district.csv")
    pairs: list[tuple[str, str, str]] = _PAIR.findall(text)
    if len(pairs) != text.count("\n") - 1:
        raise ValueError("plz_place_district.csv: a line is not 'plz,place,ags'")
    return pairs


def _pools(
    pairs: list[tuple[str, str, str]],
) -> dict[str, tuple[list[str], list[str], list[float]]]:
    """Each district's postal codes, place names and their weights: the pairs that name
    one district (all but the two that name two), a pair weighing the number of the place's
    codes in the district over the square of the number of places its code serves (a town's
    codes of its own before a village's share of one)."""
    # Counted in C (Counter over joined strings): a loop over 13,000 rows in Python
    # would be the slowest part of a small demo.
    codes, names, keys = zip(*pairs, strict=True)
    places_of_code = Counter(codes)
    codes_of_place = Counter(map(operator.add, keys, names))
    districts_of_pair = Counter(map(operator.add, codes, names))  # no row is there twice
    pools: dict[str, tuple[list[str], list[str], list[float]]] = {}
    for code, name, key in pairs:
        if districts_of_pair[code + name] == 1:
            pool = pools.setdefault(key, ([], [], []))
            pool[0].append(code)
            pool[1].append(name)
            pool[2].append(codes_of_place[key + name] / places_of_code[code] ** 2)
    return pools


class Places:
    """The districts and places the demo's addresses are drawn from."""

    def __init__(self) -> None:
        self._table = _pairs()
        pools = _pools(self._table)
        districts = []
        for key, osm_name, population, *_ in sorted(_rows("district_population_2024.csv")):
            city = "(kreisfreie Stadt)" in osm_name  # as the BKG's kinds, in 400 of 400
            districts.append(District(key, int(population), city, *pools[key]))
        self.districts: tuple[District, ...] = tuple(districts)
        """The 400 districts in the order of their keys."""
        self.by_key = {d.key: d for d in self.districts}
        self.by_state: dict[int, Weighted[District]] = {
            state: Weighted([(d, d.weight) for d in self.districts if d.state == state])
            for state in sorted({d.state for d in self.districts})
        }
        """The districts of each state (the demo's id), by weight."""
        listed = sorted((int(loc.zip), loc.area_code) for loc in ref.LOCATIONS)
        self._listed = listed
        self._listed_codes = [n for n, _ in listed]
        self._area: dict[str, str] = {}

    def area_code(self, code: str) -> str:
        """The area code of the listed location nearest to ``code`` (the lower on a tie)."""
        area = self._area.get(code)
        if area is None:
            n, listed = int(code), self._listed
            k = min(max(bisect.bisect_left(self._listed_codes, n), 1), len(listed) - 1)
            below, above = listed[k - 1], listed[k]
            area = below[1] if n - below[0] <= above[0] - n else above[1]
            self._area[code] = area
        return area

    def place(self, district: District, k: int) -> Place:
        """The ``k``-th place of ``district``."""
        code = district.codes[k]
        return Place(code, district.names[k], district.state, self.area_code(code), district.key)

    def draw(self, rnd: Draw, district: District) -> Place:
        """A place of ``district``, by weight."""
        return self.place(district, district.draw.pick(rnd))

    @functools.cached_property
    def names_of_code(self) -> dict[str, set[str]]:
        """The place names of each postal code, as they are matched."""
        names: dict[str, set[str]] = {}
        for code, name, _ in self._table:
            names.setdefault(code, set()).add(_matched(name))
        return names

    @functools.cached_property
    def postal_codes(self) -> frozenset[str]:
        """Every postal code of the table (those with a delivery area)."""
        return frozenset(code for code, _, _ in self._table)

    @functools.cached_property
    def shared_codes(self) -> frozenset[str]:
        """The postal codes that lie in several districts."""
        keys: dict[str, set[str]] = {}
        for code, _, key in self._table:
            keys.setdefault(code, set()).add(key)
        return frozenset(code for code, found in keys.items() if len(found) > 1)

    @functools.cached_property
    def shared(self) -> tuple[Place, ...]:
        """The places whose postal code lies in several districts."""
        return tuple(
            self.place(d, k)
            for d in self.districts
            for k, code in enumerate(d.codes)
            if code in self.shared_codes
        )

    def pick(self, rnd: Draw, state: int) -> Place:
        """A place of ``state``: a district by weight, then one of its places."""
        return self.draw(rnd, self.by_state[state].pick(rnd))

    @functools.cached_property
    def halves(self) -> tuple[tuple[District, ...], tuple[District, ...]]:
        """The districts in two halves, each state's alternately in the order of their keys
        (the first, third … in the first half): 203 districts of every state, and 197."""
        first: list[District] = []
        second: list[District] = []
        rank: Counter[int] = Counter()
        for district in self.districts:
            (second if rank[district.state] % 2 else first).append(district)
            rank[district.state] += 1
        return tuple(first), tuple(second)

    def covering(self, provider: int) -> tuple[District, ...]:
        """The districts of the first (``provider`` 0) or second (1) nationwide provider's
        covering branches, one in each: between them, all 400."""
        return self.halves[provider]

    def unknown_code(self, rnd: Draw, code: str) -> str:
        """A postal code the table does not have, made from ``code``: half the time the next
        code without a delivery area (as a PO box's or a large customer's), else ``code``
        malformed (its leading zero lost, as a spreadsheet drops it, or the old "D-" before
        it)."""
        if rnd() < 0.5:
            n = int(code)
            step = 1 if n < 99_000 else -1
            while f"{n:05d}" in self.postal_codes:
                n += step
            return f"{n:05d}"
        return code[1:] if code.startswith("0") else f"D-{code}"

    def wrong_city(self, place: Place) -> str:
        """A city that is not a place of ``place``'s postal code: its name with the umlauts
        spelt out ("Muenchen"), else the district's largest town that is not one of the
        code's places (a village given the name of its town), else a part of the town
        ("Berlin-Mitte")."""
        names = self.names_of_code[place.zip]
        spelt = place.city.translate(_TRANSLIT)
        if spelt != place.city and _matched(spelt) not in names:
            return spelt
        for town in self.by_key[place.district].towns():
            if _matched(town) not in names:
                return town
        return f"{place.city}-Mitte"


@functools.cache
def places() -> Places:
    """The districts and places, read once (on first use, not at import)."""
    return Places()
