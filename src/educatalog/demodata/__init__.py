"""A deterministic synthetic German continuing-education catalogue at any scale.

The demo data is **synthetic**: believable, but no row describes a real provider or person. The
reference lists are the real KURSNET code lists (:mod:`educatalog.demodata.reference_data`);
everything else is drawn from ``random.Random`` instances seeded from ``(seed, institution
index)``, with our own word lists, so a ``(seed, scale)`` pair always yields identical rows on
every machine, Python hash seed and library version. ``GENERATOR_VERSION`` is bumped whenever
that output changes.

Scale 1.0 gives about 300 institutions, 1,500 courses and 5,000 events; everything but the
reference lists grows linearly with ``scale`` (scale 200 is about one million events), and
:func:`iter_rows` streams the rows in chunks, so memory stays flat.

What the data looks like (see ``docs/catalogue-schema.md``):

* institutions (not a collection; their UUID is the ``institution`` field) of a few kinds
  (commercial providers, adult-education centres, chambers, language schools, vocational
  rehabilitation centres, universities), each with a handful of courses, 1–4 contacts and
  an address, plus a site more for about every four courses; one institution in 150 (always
  institution 0) is a nationwide provider with 200–250 branch addresses and 3–8 contacts
  whose flagship course has one event per branch plus more dates at the branches where more
  people live (250–400 events, past the 100-item nested cap);
* addresses on real postal codes and places of the 400 districts (Kreise and kreisfreie
  Städte, :mod:`educatalog.demodata.places`): the state drawn from KURSNET's events-by-state
  shares, the district within it in proportion to its population, kreisfreie Städte 1.8
  times as dense, each district with a spread of its own, so some districts have very few
  offers. The first two nationwide providers (institutions 0 and 150) have a branch, and an
  event, in every one of the 400 districts: from scale 0.51 on, every district has both;
* courses from ~80 course kinds, with duration classes, instruction forms and times, education
  types, costs, degrees, keywords, funding, handicaps and systematics in realistic shares;
  the subjects (KURSNET systematics leaves, generator version 5): most courses one, about a
  fifth two or three (a related leaf of another area: a commerce course with an IT leaf, a
  care course with a language leaf), about 3 % none; IT, business and office, languages,
  finance and health lead. They come from a random stream of their own per course
  (``seed``, ``"subjects"``, course id), so no other row depends on them;
* events from 2025-01-01 to 2026-12-31 whose end date matches the course's duration class.
  ``duration_unit`` is ``week_days``, ``calendar_days`` or ``hours`` and ``duration_in_days``
  counts in that unit; ``duration_regular_start`` is the interval in weeks between rolling
  starts (only with ``has_individual_start``); ``execution_form`` is 1 open enrolment,
  2 in-company, 3 closed group.

Documented defects (:data:`DEFECTS`), so that data-quality checks have something to find:

* ``address_missing_state``: addresses without a state (~2 %);
* ``empty_participants``: events with neither participant count (~45 %);
* ``end_before_start``: events whose end precedes their start (~0.5 %);
* ``course_without_events``: courses without any event (~2 %);
* ``unknown_instruction_form``: events pointing at instruction form 999, which does not
  exist (~0.2 %);
* ``event_without_address``: events with no address (~1 %);
* the faults of real addresses, each a few times at scale 1, which leave an address without
  a district (:func:`educatalog.frames.districts.assign_districts`) or find it another way:
  ``address_missing_postal_code`` (~0.2 %), ``address_unknown_postal_code`` (a PO box's
  code or a malformed one, ~0.2 %), ``address_city_mismatch`` (a city that is not a place
  of the postal code, so the code alone finds the district, or none where it lies in
  several, ~0.5 %) and ``address_other_state`` (a branch given its headquarters' state,
  ~0.3 %).

Every defect occurs at least once at any scale (institution 0 carries one of each, and a
mismatched city with a postal code in one district and with one in several), and so do the
rarest levels: institution 0 holds a course without a stated duration (class 0, its price
on request too) and a short digital one (class 1), and its branches lie in every state,
where its flagship course states a price (a nationwide provider's always does).

The package (not ``educatalog.demo``: that is the function that connects to the demo):
``generator`` (:func:`iter_rows`, :func:`collect`) drives three writers over one buffer of
rows, ``institutions`` -> ``courses`` -> ``events``; ``distributions``, ``reference_data``
and ``places`` (the districts and their places) hold what they draw from; ``timeline``
spreads the catalogue over time (pandas, imported only when used); ``embedded`` builds the
demo's database once and serves it in a thread, the toolkit's default data source.
"""

from __future__ import annotations

from educatalog.demodata.distributions import (
    CHUNK_SIZE,
    DEFAULT_SEED,
    DEFECTS,
    DEMO_TOKEN,
    GENERATOR_VERSION,
    REFERENCE_COLLECTIONS,
    UNKNOWN_INSTRUCTION_FORM,
)
from educatalog.demodata.generator import collect, iter_rows
from educatalog.demodata.reference import reference_rows

__all__ = [
    "CHUNK_SIZE",
    "DEFAULT_SEED",
    "DEFECTS",
    "DEMO_TOKEN",
    "GENERATOR_VERSION",
    "REFERENCE_COLLECTIONS",
    "UNKNOWN_INSTRUCTION_FORM",
    "collect",
    "iter_rows",
    "reference_rows",
]
