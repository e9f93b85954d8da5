"""Course-supply statistics: pure functions from the offers frame to tidy tables.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> supply(offers, by="state")                      # events, courses, institutions, capacity
>>> supply(offers, by=["state", "instruction_form_category"], normalize="index")
>>> crosstab(offers, "state", "duration_class")     # a wide table for reports
>>> per_capita(offers)                              # events per 100,000 inhabitants
>>> costs(offers, by="instruction_form_category")   # median and quartiles per currency
>>> share(offers, "education_voucher", by="state")  # a flag's share, unknowns explicit
>>> quality(offers)                                 # what is missing or impossible

Every measure, dimension and rule is defined in ``docs/definitions.md`` ("How the numbers
are defined", :data:`DEFINITIONS`). In short: every function counts *distinct* events, so it
gives the same numbers on the frame of ``offers(funding=True)``, which repeats an event once
per funding type. Dimensions are columns of the frame, plus ``year``, ``quarter`` and
``month`` of ``event_start_date``. A table lists every level of an ordered dimension: every
state or class of the reference list (labels are categoricals) and every year, quarter or
month from the first to the last start, with 0 where there are no offers; a measure nobody
stated (capacity where no event states a maximum) is missing (NA), never 0. Rows with a
missing value form a group of their own (``dropna=False``, the default), so that the counts
add up to the total.

The package's modules: :mod:`~educatalog.stats.dimensions` (what a frame is grouped by),
:mod:`~educatalog.stats.supply` (supply, crosstab, per capita, capacity, share),
:mod:`~educatalog.stats.costs` and :mod:`~educatalog.stats.quality`; every name is here too.
"""

from __future__ import annotations

# Normalize and Unknown are the argument types of the functions. The helpers the
# statistics share (educatalog.history computes the same over an archive) are public names
# of their modules: stats.dimensions.choice, dimension_keys, all_levels, restore_levels.
from educatalog.stats.costs import costs
from educatalog.stats.dimensions import DEFINITIONS, DERIVED_DIMENSIONS, dimension, dimensions
from educatalog.stats.quality import quality
from educatalog.stats.supply import (
    MEASURES,
    UNKNOWN_CHOICES,
    capacity,
    crosstab,
    per_capita,
    share,
    supply,
)
from educatalog.stats.supply import Normalize as Normalize
from educatalog.stats.supply import Unknown as Unknown

__all__ = [
    "DEFINITIONS",
    "DERIVED_DIMENSIONS",
    "MEASURES",
    "UNKNOWN_CHOICES",
    "capacity",
    "costs",
    "crosstab",
    "dimension",
    "dimensions",
    "per_capita",
    "quality",
    "share",
    "supply",
]
