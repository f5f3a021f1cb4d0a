"""`transactions` and `process_transitions`: transactions run by their process (see
`flexclient.testing._engine`), speculative variants that save nothing, and queries."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import TransactionAttributes
from flexclient.testing import _engine
from flexclient.testing import _state as s
from flexclient.testing._call import Call, missing, not_found
from flexclient.testing._handlers._lookup import filter_extended, transaction, words
from flexclient.testing._handlers._sorting import created_within, ordered, transaction_keys
from flexclient.testing._processes import Process, Transition
from flexclient.testing._routes import handles
from flexclient.testing._schema import attributes_model, by_field_name
from flexclient.testing._step import Actor

Transaction = s.Record[TransactionAttributes]


def trusted(c: Call) -> bool:
    """Privileged transitions need a trusted context: a server's exchanged token, or the
    Integration API."""
    return c.api == "integration" or c.grant.scope == "trusted:user"


def party(c: Call, tx: Transaction) -> Actor:
    """Who the caller is in the transaction; 404 for a user who is no party to it."""
    if c.api == "integration":
        return "operator"
    me = c.user().id
    if me == tx.one("customer"):
        return "customer"
    if me == tx.one("provider"):
        return "provider"
    raise not_found("Transaction")


def _params(c: Call) -> dict[str, Any]:
    params = c.body_value("params", dict) or {}
    return dict(params)


def _initiate(c: Call, *, speculative: bool = False) -> dict[str, Any]:
    tx = _engine.initiate(
        c.ctx,
        c.user(),
        c.body_value("processAlias", str, required=True) or "",
        c.body_value("transition", str, required=True) or "",
        _params(c),
        trusted=trusted(c),
        speculative=speculative,
    )
    return c.one(tx)


def _transition(c: Call, *, speculative: bool = False) -> dict[str, Any]:
    tx = transaction(c, c.body_id())
    name = c.body_value("transition", str, required=True) or ""
    by = party(c, tx)
    _engine.transition(
        c.ctx, tx, name, _params(c), by=by, trusted=trusted(c), speculative=speculative
    )
    return c.one(tx)


def _speculatively(c: Call, take: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    # On a copy of the marketplace, thrown away: nothing is saved, no event recorded, and
    # Stripe is not really called.
    c.state = c.state.fork()
    return take(c, speculative=True)


@handles(Market.transactions.cls.initiate)
def initiate(c: Call) -> dict[str, Any]:
    return _initiate(c)


@handles(Market.transactions.cls.initiate_speculative)
def initiate_speculative(c: Call) -> dict[str, Any]:
    return _speculatively(c, _initiate)


@handles(Market.transactions.cls.transition, Integ.transactions.cls.transition)
def transition(c: Call) -> dict[str, Any]:
    return _transition(c)


@handles(
    Market.transactions.cls.transition_speculative, Integ.transactions.cls.transition_speculative
)
def transition_speculative(c: Call) -> dict[str, Any]:
    return _speculatively(c, _transition)


@handles(Market.transactions.cls.query, Integ.transactions.cls.query, extended_data_filters=True)
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
    for name in ("userId", "customerId", "providerId", "listingId"):
        wanted = c.query_value(name, uuid.UUID)
        if wanted is None:
            continue
        roles = {"userId": ("customer", "provider"), "customerId": ("customer",)}.get(
            name, (name.removesuffix("Id"),)
        )
        found = [t for t in found if any(t.one(role) == wanted for role in roles)]
    last = c.query_value("lastTransitions", words)
    if last is not None:
        found = [t for t in found if t.attributes.last_transition in last]
    names = c.query_value("processNames", words)
    if names is not None:
        found = [t for t in found if t.attributes.process_name in names]
    states = c.query_value("states", words)
    if states is not None:
        found = [t for t in found if t.attributes.state in states]
    found = created_within(c, found)
    for flag, relationship in (
        ("hasBooking", "booking"),
        ("hasStockReservation", "stockReservation"),
    ):
        wanted_flag = c.query_value(flag, _boolean)
        if wanted_flag is not None:
            found = [t for t in found if (t.one(relationship) is not None) == wanted_flag]
    has_message = c.query_value("hasMessage", _boolean)
    if has_message is not None:
        found = [t for t in found if bool(t.many("messages")) == has_message]
    found = filter_extended(c, found)
    return c.page(ordered(c, found, transaction_keys(c.state)))


def _boolean(raw: str) -> bool:
    if raw not in ("true", "false"):
        raise ValueError("true or false")
    return raw == "true"


@handles(Market.transactions.cls.show, Integ.transactions.cls.show)
def show(c: Call) -> dict[str, Any]:
    tx = transaction(c, c.query_id())
    party(c, tx)
    return c.one(tx)


@handles(Integ.transactions.cls.update_metadata)
def update_metadata(c: Call) -> dict[str, Any]:
    tx = transaction(c, c.body_id())
    before = c.snapshot(tx)
    tx.attributes = c.write(tx.attributes, only=["metadata"])
    c.emit("transaction/updated", tx, before)
    return c.one(tx)


# --- process transitions -----------------------------------------------------------------


def transition_resource(process: Process, t: Transition) -> s.Record[Any]:
    """A transition of a process as a `processTransition` resource."""
    required, optional = _engine.transition_params(t)
    values = {
        "name": t.name,
        "actor": [t.actor or "system"],
        "actions": [a.name for a in t.actions],
        "params": {"req": required, "opt": optional or None},
    }
    model = attributes_model("processTransition")
    rid = uuid.uuid5(uuid.NAMESPACE_URL, f"{process.alias}#{t.name}")
    return s.new("processTransition", model, by_field_name(model, values), rid)


@handles(Market.process_transitions.cls.query)
def process_transitions(c: Call) -> dict[str, Any]:
    tx_id = c.query_value("transactionId", uuid.UUID)
    if tx_id is not None:
        tx = transaction(c, tx_id)
        party(c, tx)
        progress = c.state.progress[tx.id]
        process = _engine.process_of(c.state, progress.alias)
        state = progress.state
    else:
        alias = c.params.get("processAlias")
        if alias is None:
            raise missing("query", "transactionId")
        process = _engine.process_of(c.state, alias)
        last = c.params.get("lastTransition")
        after = process.transition(last) if last else None
        state = after.to if after is not None else None
    found = [transition_resource(process, t) for t in process.next_from(state)]
    return c.renderer.document([c.view(r) for r in found], many=True)
