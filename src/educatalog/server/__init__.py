"""The reference server: the catalogue service itself over an embedded SQLite database.

``store`` builds and opens the database, ``sql`` compiles queries into SQL, ``items`` reads
items with their relations under a ``guard`` (time budget, cancellation), ``openapi``
describes the API, ``app`` is the Starlette application, ``run`` serves it in a thread, and
``demo`` generates the deterministic synthetic demo catalogue.
"""
