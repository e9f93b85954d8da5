"""DEPRECATED: the loaded catalogue is :mod:`educatalog.catalogue` since 0.2.

``from educatalog.catalogue_data import Catalogue`` still works, with a
:class:`DeprecationWarning`; import from :mod:`educatalog.catalogue` (or ``educatalog``).
"""

from __future__ import annotations

import warnings

from educatalog import catalogue as _catalogue


def __getattr__(name: str) -> object:
    if name.startswith("__"):
        raise AttributeError(name)
    value = getattr(_catalogue, name)
    warnings.warn(
        f"educatalog.catalogue_data is deprecated: import {name} from educatalog.catalogue.",
        DeprecationWarning,
        stacklevel=2,
    )
    return value
