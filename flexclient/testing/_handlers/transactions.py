"""`transactions`: initiate, transition, query, show, update metadata."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints import IntegrationEndpoints as Integ
from flexclient._endpoints import MarketplaceEndpoints as Market
from flexclient._types import Money
from flexclient.models import TransactionAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, forbidden, not_found
from flexclient.testing._handlers._lookup import listing, transaction, words
from flexclient.testing._routes import handles

Transaction = s.Record[TransactionAttributes]


def totals(line_items: list[dict[str, Any]]) -> dict[str, Money]:
    """What the customer pays in and the provider gets out, from the line items."""
    currency = line_items[0]["lineTotal"].currency if line_items else "USD"
    payin = sum(i["lineTotal"].amount for i in line_items if "customer" in i["includeFor"])
    payout = sum(i["lineTotal"].amount for i in line_items if "provider" in i["includeFor"])
    return {"payin_total": Money(payin, currency), "payout_total": Money(payout, currency)}


@handles(Market.transactions.cls.initiate)
def initiate(c: Call) -> dict[str, Any]:
    customer = c.user()
    alias = c.b("processAlias", str, required=True) or ""
    transition = c.b("transition", str, required=True) or ""
    params = c.b("params", dict) or {}
    if "listingId" not in params:
        raise ApiFailure(
            400,
            "validation-missing-key",
            "Missing required key: params.listingId",
            ["body", "params", "listingId"],
        )
    target = listing(c, uuid.UUID(str(params["listingId"])))
    if target.one("author") == customer.id:
        raise forbidden("You cannot start a transaction on your own listing")
    quantity = int(params.get("quantity", 1))
    price = target.attributes.price or Money(0, "USD")
    items = [
        {
            "code": "line-item/item",
            "unitPrice": price,
            "quantity": quantity,
            "lineTotal": Money(price.amount * quantity, price.currency),
            "reversal": False,
            "includeFor": ["customer", "provider"],
        }
    ]
    name, _, version = alias.partition("/release-")
    at = s.now()
    made = s.new(
        "transaction",
        TransactionAttributes,
        {
            "created_at": at,
            "process_name": name,
            "process_version": int(version or 1),
            "last_transition": transition,
            "last_transitioned_at": at,
            "line_items": items,
            "protected_data": params.get("protectedData") or {},
            "transitions": [{"transition": transition, "createdAt": at, "by": "customer"}],
            **totals(items),
        },
    )
    made.link("marketplace", "marketplace", s.MARKETPLACE_ID)
    made.link("listing", "listing", target.id)
    made.link("provider", "user", target.one("author"))
    made.link("customer", "user", customer.id)
    made.link("booking", "booking", None)
    made.link("stockReservation", "stockReservation", None)
    made.link_many("reviews", "review", [])
    made.link_many("messages", "message", [])
    c.state.transactions[made.id] = made
    c.emit("transaction/initiated", made, None)
    return c.one(made)


def party(c: Call, tx: Transaction) -> str:
    """Who the caller is in the transaction; 404 for a user who is no party to it."""
    if c.api == "integration":
        return "operator"
    me = c.user().id
    if me == tx.one("customer"):
        return "customer"
    if me == tx.one("provider"):
        return "provider"
    raise not_found("Transaction")


@handles(Market.transactions.cls.transition, Integ.transactions.cls.transition)
def transition(c: Call) -> dict[str, Any]:
    tx = transaction(c, c.b_id())
    by = party(c, tx)
    name = c.b("transition", str, required=True) or ""
    if any(t.transition == name for t in tx.attributes.transitions):
        raise ApiFailure(409, "transaction-invalid-transition", f"{name} was already taken")
    before = c.snapshot(tx)
    at = s.now()
    step = {"transition": name, "createdAt": at, "by": by}
    tx.set(
        last_transition=name,
        last_transitioned_at=at,
        transitions=[*tx.attributes.transitions, step],
    )
    c.emit("transaction/transitioned", tx, before)
    return c.one(tx)


@handles(Market.transactions.cls.query, Integ.transactions.cls.query)
def query(c: Call) -> dict[str, Any]:
    found = list(c.state.transactions.values())
    if c.api == "marketplace":
        me = c.user().id
        only = c.params.get("only")
        found = [
            t
            for t in found
            if (only != "order" and t.one("provider") == me)
            or (only != "sale" and t.one("customer") == me)
        ]
    last = c.q("lastTransitions", words)
    if last is not None:
        found = [t for t in found if t.attributes.last_transition in last]
    found.sort(key=_created, reverse=True)
    return c.page(found)


def _created(tx: Transaction) -> Any:
    return tx.attributes.created_at


@handles(Market.transactions.cls.show, Integ.transactions.cls.show)
def show(c: Call) -> dict[str, Any]:
    tx = transaction(c, c.q_id())
    party(c, tx)
    return c.one(tx)


@handles(Integ.transactions.cls.update_metadata)
def update_metadata(c: Call) -> dict[str, Any]:
    tx = transaction(c, c.b_id())
    before = c.snapshot(tx)
    tx.attributes = c.write(tx.attributes, only=["metadata"])
    c.emit("transaction/updated", tx, before)
    return c.one(tx)
