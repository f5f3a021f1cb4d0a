"""Transactions run by their process: who may start one and take which transition, the
parameters a transition takes, its actions (`flexclient.testing._actions`) run in order, all
or nothing, and the delayed transitions the system takes when their time comes.

When a transaction enters a state, the delayed transitions from that state are scheduled:
their time expressions are evaluated then (`flexclient.testing._time_expressions`), one that
comes to nothing is not scheduled, and one already past is due at once. The system takes the
first due; if it fails, it takes none of the others from that state.

Every change a transition makes is recorded as an event with the source
`source/transaction`, the transition's own last: `booking/created` before
`transaction/transitioned`, as the API's event reference describes.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Generator, Mapping
from contextlib import contextmanager
from typing import Any

from flexclient.models import TransactionAttributes
from flexclient.testing import _state as s
from flexclient.testing import _time_expressions as tx_time
from flexclient.testing._actions import ACTIONS
from flexclient.testing._call import ApiFailure, forbidden, invalid, missing
from flexclient.testing._context import TRANSACTION, Context
from flexclient.testing._params import Invalid, from_body
from flexclient.testing._processes import Process, Transition
from flexclient.testing._step import Actor, Step, Transaction

INITIAL_PARAMS = {"listingId": "uuid"}


def transition_params(t: Transition) -> tuple[dict[str, Any], dict[str, Any]]:
    """The required and the optional parameters of a transition: those of its actions (and
    the listing, for one that starts a transaction)."""
    required: dict[str, Any] = dict(INITIAL_PARAMS) if t.start is None else {}
    optional: dict[str, Any] = {}
    for call in t.actions:
        action = ACTIONS[call.name]
        required.update(action.required)
        optional.update(action.optional)
    return required, {k: v for k, v in optional.items() if k not in required}


@contextmanager
def atomic(state: s.State) -> Generator[None]:
    """All of a transition or none of it: its actions undone when one fails, as the API's
    transitions are."""
    saved = state.fork()
    try:
        yield
    except BaseException:
        state.restore(saved)
        raise


def process_of(state: s.State, alias: str) -> Process:
    process = state.processes.get(alias)
    if process is None:
        raise ApiFailure(
            409, "transaction-unknown-alias", f"No transaction process has the alias {alias!r}"
        )
    return process


def _invalid_transition(why: str) -> ApiFailure:
    return ApiFailure(409, "transaction-invalid-transition", why)


def _gone(user: s.Record[Any] | None) -> bool:
    return user is None or bool(user.attributes.deleted or user.attributes.banned)


def _listing_id(params: Mapping[str, Any]) -> uuid.UUID:
    if params.get("listingId") is None:
        raise missing("body", "params.listingId")
    try:
        found: uuid.UUID = from_body(params["listingId"], uuid.UUID)
    except Invalid as exc:
        raise invalid("body", "params.listingId", "not a UUID") from exc
    return found


def initiate(
    ctx: Context,
    caller: s.Record[Any],
    alias: str,
    name: str,
    params: Mapping[str, Any],
    *,
    trusted: bool,
    speculative: bool = False,
) -> Transaction:
    """Start a transaction of process `alias` with its first transition, taken by the
    caller: as the customer in the normal flow (the listing's author is the provider), or as
    the provider in the reverse flow (the listing's author is the customer)."""
    if caller.attributes.permissions.get("initiateTransactions") == "permission/deny":
        raise ApiFailure(
            403, "permission-denied-initiate-transactions", "The user may not start transactions"
        )
    process = process_of(ctx.state, alias)
    transition = process.transition(name)
    if transition is None or transition.start is not None:
        raise _invalid_transition(f"{name} does not start a transaction of {alias}")
    if transition.actor not in ("customer", "provider"):
        raise forbidden(f"{name} is not for a user to take")
    if transition.privileged and not trusted:
        raise forbidden(f"{name} is privileged: take it from a trusted context")
    listing = ctx.state.listings.get(_listing_id(params))
    if listing is None or listing.attributes.deleted or listing.attributes.state != "published":
        raise ApiFailure(409, "transaction-listing-not-found", "The listing is not open")
    author_id = listing.one("author")
    if author_id == caller.id:
        raise ApiFailure(
            409,
            "transaction-same-author-and-customer",
            "A user cannot start a transaction on their own listing",
        )
    reverse = transition.actor == "provider"
    author_role = "customer" if reverse else "provider"
    if _gone(ctx.state.users.get(author_id or uuid.UUID(int=0))):
        raise ApiFailure(
            409,
            f"transaction-{author_role}-banned-or-deleted",
            f"The listing's author (the {author_role}) is banned or deleted",
        )
    at = ctx.state.time()
    tx = s.new(
        "transaction",
        TransactionAttributes,
        {
            "created_at": at,
            "process_name": process.name,
            "process_version": process.version,
            "last_transitioned_at": at,
            "protected_data": {},
            "metadata": {},
        },
    )
    tx.link("marketplace", "marketplace", s.MARKETPLACE_ID)
    tx.link("listing", "listing", listing.id)
    tx.link("provider", "user", caller.id if reverse else author_id)
    tx.link("customer", "user", author_id if reverse else caller.id)
    with ctx.state.at(at), atomic(ctx.state):  # one time for all the transition does
        ctx.state.transactions[tx.id] = tx
        ctx.state.progress[tx.id] = s.Progress(process.alias, initiated_at=at)
        by: Actor = "provider" if reverse else "customer"
        step = Step(ctx.as_source(TRANSACTION), tx, dict(params), by, transition, trusted)
        step.speculative = speculative
        _take(step, None)
    return tx


def transition(
    ctx: Context,
    tx: Transaction,
    name: str,
    params: Mapping[str, Any],
    *,
    by: Actor,
    trusted: bool,
    speculative: bool = False,
) -> None:
    """Take transition `name` of a transaction, as `by`."""
    progress = ctx.state.progress[tx.id]
    if progress.locked > 0 and not speculative:
        progress.locked -= 1
        raise ApiFailure(
            409, "transaction-locked", "Another operation on the transaction is under way"
        )
    process = process_of(ctx.state, progress.alias)
    found = process.transition(name)
    if found is None:
        raise _invalid_transition(f"{progress.alias} has no transition {name}")
    if found.start != progress.state:
        raise _invalid_transition(f"{name} cannot be taken from {progress.state}")
    if by != "system" and found.actor != by:
        raise forbidden(f"{name} is not for the {by} to take")
    if found.privileged and not trusted:
        raise forbidden(f"{name} is privileged: take it from a trusted context")
    if by in ("customer", "provider"):
        for role in ("customer", "provider"):
            if _gone(ctx.state.users.get(tx.one(role) or uuid.UUID(int=0))):
                raise ApiFailure(
                    409,
                    f"transaction-{role}-banned-or-deleted",
                    f"The {role} is banned or deleted",
                )
    before = ctx.snapshot(tx)
    with ctx.state.at(ctx.state.time()), atomic(ctx.state):  # one time for all it does
        step = Step(ctx.as_source(TRANSACTION), tx, dict(params), by, found, trusted)
        step.speculative = speculative
        _take(step, before)


def _take(step: Step, before: dict[str, Any] | None) -> None:
    t = step.transition
    required, _optional = transition_params(t)
    # Parameters no action takes are accepted and ignored, as the API does.
    for key in required:
        if key != "listingId":
            step.required(key, Any)
    for call in t.actions:
        action = ACTIONS[call.name]
        if action.privileged and not step.trusted:
            raise forbidden(f"{call.name} (in {t.name}) needs a trusted context")
        action.run(step, call.config)
    at = step.state.time()
    progress = step.progress
    progress.state = t.to
    progress.first_entered.setdefault(t.to, at)
    progress.last_entered[t.to] = at
    progress.first_transitioned.setdefault(t.name, at)
    entry = {"transition": t.name, "createdAt": at, "by": step.by}
    step.tx.set(
        state=t.to,
        last_transition=t.name,
        last_transitioned_at=at,
        transitions=[*step.tx.attributes.transitions, entry],
    )
    _schedule(step.state, step.tx, process_of(step.state, progress.alias), at)
    kind = "transaction/initiated" if before is None else "transaction/transitioned"
    step.ctx.emit(kind, step.tx, before)


def clock(state: s.State, tx: Transaction) -> tx_time.Clock:
    """The transaction's timepoints, as its time expressions read them."""
    progress = state.progress[tx.id]
    booking = state.table("booking").get(tx.one("booking") or uuid.UUID(int=0))
    times: dict[str, Any] = {}
    if booking is not None:
        a = booking.attributes
        times = {
            "booking-start": a.start,
            "booking-end": a.end,
            "booking-display-start": a.display_start or a.start,
            "booking-display-end": a.display_end or a.end,
        }
    return tx_time.Clock(
        state.time(),
        progress.initiated_at,
        progress.first_entered,
        progress.last_entered,
        progress.first_transitioned,
        {k: v for k, v in times.items() if v is not None},
    )


def _schedule(state: s.State, tx: Transaction, process: Process, now: dt.datetime) -> None:
    """Fix when the delayed transitions from the transaction's state are due, as it enters
    the state `now`: a time already past is due now."""
    progress = state.progress[tx.id]
    found: list[tuple[Any, str]] = []
    times = clock(state, tx)
    times.now = now
    for t in process.next_from(progress.state):
        if t.at is None:
            continue
        due = tx_time.when(t.at, times)
        if due is not None:
            found.append((max(due, now), t.name))
    progress.scheduled = sorted(found)


def run_due(ctx: Context) -> None:
    """Take every delayed transition whose time has come, as the system, in time order, each
    at the time it was due."""
    system = ctx.as_source(TRANSACTION)
    while True:
        due = _next_due(ctx.state)
        if due is None:
            return
        at, tx, found = due
        before = system.snapshot(tx)
        try:
            with ctx.state.at(at), atomic(ctx.state):
                _take(Step(system, tx, {}, "system", found, trusted=True), before)
        except ApiFailure:
            # A failed automatic transition is not tried again, nor any other from the state.
            ctx.state.progress[tx.id].scheduled = []


def _next_due(state: s.State) -> tuple[Any, Transaction, Transition] | None:
    now = state.time()
    best: tuple[Any, Transaction, Transition] | None = None
    for tx_id, progress in state.progress.items():
        if not progress.scheduled or progress.scheduled[0][0] > now:
            continue
        when, name = progress.scheduled[0]
        process = state.processes.get(progress.alias)
        found = process.transition(name) if process is not None else None
        if found is not None and (best is None or when < best[0]):
            best = (when, state.transactions[tx_id], found)
    return best
