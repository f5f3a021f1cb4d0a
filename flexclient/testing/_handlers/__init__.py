"""The fake's handlers, one module per group of endpoints (or a few related groups).

Importing this package registers every handler with `flexclient.testing._routes`, keyed by
the endpoint table's own entries.
"""

from flexclient.testing._handlers import (
    availability,
    bookings,
    events,
    files,
    images,
    listings,
    marketplace,
    messages,
    sitemap,
    stock,
    stripe,
    transactions,
    users,
)

__all__ = [
    "availability",
    "bookings",
    "events",
    "files",
    "images",
    "listings",
    "marketplace",
    "messages",
    "sitemap",
    "stock",
    "stripe",
    "transactions",
    "users",
]
