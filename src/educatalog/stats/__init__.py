"""Course-supply statistics: pure functions from the offers frame to tidy tables.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> supply(offers, by="state")                      # events, courses, institutions, capacity
>>> supply(offers, by=["state", "instruction_form_category"], normalize="index")
>>> crosstab(offers, "state", "duration_class")     # a wide table for reports
>>> per_capita(offers)                              # events per 100,000 inhabitants
>>> per_capita(offers, by="district", subtotals=True)  # the 400 districts under their states
>>> costs(offers, by="instruction_form_category")   # median and quartiles per currency
>>> share(offers, "education_voucher", by="state")  # a flag's share, unknowns explicit
>>> quality(offers)                                 # what is missing or impossible
>>> chosen = select(offers, state=["Bayern", "Sachsen"], start="2025-01-01")
>>> supply(chosen, by="state", margins=True)        # the two states and their total

Every measure, dimension and rule is defined in ``docs/definitions.md`` ("How the numbers
are defined", :data:`DEFINITIONS`). In short: every function counts *distinct* events, so it
gives the same numbers on the frame of ``offers(funding=True)``, which repeats an event once
per funding type. Dimensions are columns of the frame, plus ``year``, ``quarter`` and
``month`` of ``event_start_date``. A table lists every level of an ordered dimension: every
state or class of the reference list (labels are categoricals) and every year, quarter or
month from the first to the last start, with 0 where there are no offers; :func:`select`
narrows the levels to those a filter admits (never 14 states "with 0" that it left out);
states come in the order of their official keys (01 Schleswig-Holstein … 16 Thüringen);
``margins=True`` adds a total row ("All"), as pandas does; a measure nobody
stated (capacity where no event states a maximum) is missing (NA), never 0. Rows with a
missing value form a group of their own (``dropna=False``, the default), so that the counts
add up to the total.

The package's modules: :mod:`~educatalog.stats.dimensions` (what a frame is grouped by),
:mod:`~educatalog.stats.supply` (supply, crosstab, capacity, share),
:mod:`~educatalog.stats.per_capita` (by state or district),
:mod:`~educatalog.stats.costs` and :mod:`~educatalog.stats.quality`; every name is here too.
"""

from __future__ import annotations

# Normalize and Unknown are the argument types of the functions. The helpers the statistics
# share (educatalog.history computes the same over an archive, educatalog.publication and
# the explorer add totals and narrow levels) are public names of their modules:
# stats.dimensions.choice, dimension_keys, all_levels, restore_levels, with_margins;
# stats.selection.narrow; stats.supply.NORMALIZE_CHOICES.
from educatalog.stats.costs import COST_UNITS, costs
from educatalog.stats.dimensions import (
    DEFINITIONS,
    DERIVED_DIMENSIONS,
    MARGINS,
    STATE_DIMENSIONS,
    dimension,
    dimensions,
)
from educatalog.stats.per_capita import per_capita
from educatalog.stats.quality import quality
from educatalog.stats.selection import select
from educatalog.stats.supply import (
    MEASURES,
    UNKNOWN_CHOICES,
    capacity,
    crosstab,
    share,
    supply,
)
from educatalog.stats.supply import Normalize as Normalize
from educatalog.stats.supply import Unknown as Unknown

__all__ = [
    "COST_UNITS",
    "DEFINITIONS",
    "DERIVED_DIMENSIONS",
    "MARGINS",
    "MEASURES",
    "STATE_DIMENSIONS",
    "UNKNOWN_CHOICES",
    "capacity",
    "costs",
    "crosstab",
    "dimension",
    "dimensions",
    "per_capita",
    "quality",
    "select",
    "share",
    "supply",
]
