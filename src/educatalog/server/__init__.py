"""The reference server: the catalogue service itself over an embedded SQLite database.

``store`` builds and opens the database, ``sql`` writes every SQL text the server runs,
``items`` reads items with their relations under a ``guard`` (time budget, cancellation),
``openapi`` describes the API, ``app`` is the Starlette application and ``run`` serves it in
a thread. The server is the service only: what it serves (the synthetic demo catalogue,
:mod:`educatalog.demodata`; a snapshot, :mod:`educatalog.snapshot`) is built elsewhere.
"""
