"""`messages` and `reviews`: what the parties of a transaction say to and about each other."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.testing import _state as s
from flexclient.testing._call import Call, invalid, not_found
from flexclient.testing._handlers._lookup import transaction, words
from flexclient.testing._handlers.transactions import party
from flexclient.testing._routes import handles

MAX_MESSAGE = 10_000


@handles(Market.messages.cls.send)
def send(c: Call) -> dict[str, Any]:
    tx = transaction(c, c.body_id("transactionId"))
    party(c, tx)
    content = c.body_value("content", str, required=True) or ""
    if not content.strip() or len(content) > MAX_MESSAGE:
        raise invalid("body", "content", f"1 to {MAX_MESSAGE} characters")
    message = s.add(c.state, "message", {"content": content, "createdAt": c.state.time()})
    message.link("sender", "user", c.user().id)
    message.link("transaction", "transaction", tx.id)
    tx.link_many("messages", "message", [*tx.many("messages"), message.id])
    attach_files(c, message)
    c.emit("message/created", message, None)
    return c.one(message)


def attach_files(c: Call, message: s.Record[Any]) -> None:
    """Files sent with a message (see the files handlers); nothing without any."""
    from flexclient.testing._handlers.files import attach_to_message

    attach_to_message(c, message)


@handles(Market.messages.cls.query, Integ.messages.cls.query)
def query(c: Call) -> dict[str, Any]:
    tx_id = c.query_value("transactionId", uuid.UUID, required=c.api == "marketplace")
    table = c.state.table("message")
    if tx_id is not None:
        tx = transaction(c, tx_id)
        party(c, tx)
        found = [table[m] for m in tx.many("messages") if m in table]
    else:
        found = list(table.values())
    # Newest first: the first page holds the latest messages.
    found.sort(key=lambda m: m.attributes.created_at, reverse=True)
    return c.page(found)


def _visible(c: Call, review: s.Record[Any]) -> bool:
    """Public reviews are for everyone; a pending one only for its transaction's parties."""
    if review.attributes.state == "public" or c.api == "integration":
        return True
    me = c.grant.user_id
    return me is not None and me in (review.one("author"), review.one("subject"))


@handles(Market.reviews.cls.show)
def show(c: Call) -> dict[str, Any]:
    review = c.state.table("review").get(c.query_id())
    if review is None or review.attributes.deleted or not _visible(c, review):
        raise not_found("Review")
    return c.one(review)


@handles(Market.reviews.cls.query)
def reviews(c: Call) -> dict[str, Any]:
    found = [
        r for r in c.state.table("review").values() if not r.attributes.deleted and _visible(c, r)
    ]
    for name, relationship in (
        ("listingId", "listing"),
        ("subjectId", "subject"),
        ("transactionId", "transaction"),
    ):
        wanted = c.query_value(name, uuid.UUID)
        if wanted is not None:
            found = [r for r in found if r.one(relationship) == wanted]
    for name, attribute in (("type", "type"), ("state", "state")):
        values = c.query_value(name, words)
        if values is not None:
            found = [r for r in found if getattr(r.attributes, attribute) in values]
    found.sort(key=lambda r: r.attributes.created_at, reverse=True)
    return c.page(found)
