"""Files a reader never finds half-written: atomic and durable writes, checksums, locks
(:mod:`~educatalog.files.atomic`); cached databases checked before use (:mod:`~educatalog.files.cache`);
manifests (:mod:`~educatalog.files.manifests`); the user's folders (:mod:`~educatalog.files.workspace`).
"""
