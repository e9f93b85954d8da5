"""The one model of the catalogue both halves share: its collections, fields, types and
relations (:mod:`educatalog.model.schema`) and the wire's constants (:mod:`educatalog.model.protocol`).
"""
