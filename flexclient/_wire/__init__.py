"""The wire: Transit and JSON to and from Python values, query strings and the value types
(UUID, Money, LatLng, dates). Encoding never needs the models.
"""
