"""The data model: typed DataFrames (:mod:`~educatalog.frames.typed`), where they came from
(:mod:`~educatalog.frames.provenance`), the offers frame (:mod:`~educatalog.frames.offers`) and the
loaded catalogue (:mod:`~educatalog.frames.catalogue`).
"""
