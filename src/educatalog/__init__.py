"""educatalog: the educational catalogue service as analysis-ready pandas DataFrames.

The package has two halves sharing one model of the catalogue (:mod:`educatalog.catalogue`)
and its query language (:mod:`educatalog.query`): the toolkit, and the reference server
(:mod:`educatalog.server`) that implements the service itself over an embedded database.
"""

from educatalog._version import __version__
from educatalog.accessor import EduAccessor  # importing it registers df.edu
from educatalog.async_client import AsyncClient
from educatalog.catalogue import CATALOGUE
from educatalog.catalogue_data import Catalogue, Source
from educatalog.client import Client, Page
from educatalog.connection import connect, demo
from educatalog.loaders import load, load_catalogue, load_links
from educatalog.query import F, Query

__all__ = [
    "CATALOGUE",
    "AsyncClient",
    "Catalogue",
    "Client",
    "EduAccessor",
    "F",
    "Page",
    "Query",
    "Source",
    "__version__",
    "connect",
    "demo",
    "load",
    "load_catalogue",
    "load_links",
]
