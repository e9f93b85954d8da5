"""The embedded demo server: the demo catalogue built once into a cached database file and
served on a free loopback port, the default data source when no service URL is configured.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from educatalog.files.workspace import cache_dir
from educatalog.server.app import create_app
from educatalog.server.run import ServerThread

__all__ = ["cache_dir", "demo_database", "start_demo_server"]


def demo_database(
    seed: int | None = None,
    scale: float = 1.0,
    *,
    directory: str | os.PathLike[str] | None = None,
    rebuild: bool = False,
) -> Path:
    """The demo catalogue's database file for ``(seed, scale)``, built on first use.

    Files are named after the seed, the scale, the generator's version and a fingerprint of
    its code, so a changed generator never serves a stale file, and checked against the
    checksum kept beside them before use (:func:`educatalog.files.cache.cached`): a damaged file
    is built again.
    """
    from educatalog import demodata as demo
    from educatalog.files.cache import cached
    from educatalog.server.store import build_database

    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    seed = demo.DEFAULT_SEED if seed is None else seed
    folder = Path(directory) if directory is not None else cache_dir()
    name = f"demo-v{demo.GENERATOR_VERSION}-{code_fingerprint()}-seed{seed}-scale{scale:g}.sqlite"
    info = {"demo": True, "seed": seed, "scale": scale, "generator": demo.GENERATOR_VERSION}
    return cached(
        folder / name,
        lambda path: build_database(path, demo.iter_rows(seed=seed, scale=scale), info=info),
        rebuild=rebuild,
    )


def code_fingerprint(*files: str | os.PathLike[str]) -> str:
    """A short hash of the code and data the demo databases are built from (the generator
    package, its data files, the store and its SQL) and of ``files``, so that no stale database is
    reused after a change of any of them."""
    from educatalog import demodata as demo
    from educatalog.demodata import reference_data
    from educatalog.server import sql, store

    digest = hashlib.sha256()
    sources = sorted(Path(demo.__file__ or "").parent.glob("*.py"))
    # the SQL that builds the database: its written rows, copied fields, indexes
    writing = sorted(Path(sql.__file__ or "").parent.glob("*.py"))
    for file in (*sources, *writing, reference_data.__file__ or "", store.__file__ or "", *files):
        digest.update(Path(file).read_bytes())
    digest.update(reference_data.data_bytes())
    return digest.hexdigest()[:10]


def start_demo_server(
    seed: int | None = None, scale: float = 1.0, *, limit_max: int | None = None
) -> ServerThread:
    """Start the demo server in a background thread; returns the running server."""
    from educatalog.demodata import DEMO_TOKEN

    app = create_app(demo_database(seed, scale), tokens=[DEMO_TOKEN], limit_max=limit_max)
    return ServerThread(app).start()
