"""The data layer: where data comes from (:mod:`~educatalog.loading.connection`: the configured
service, or the embedded demo server) and :func:`~educatalog.loading.loaders.load`.
"""
