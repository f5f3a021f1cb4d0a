"""Load every process.edn under a folder into the fake marketplace and take each transition.

Meant for a checkout of Sharetribe's example processes (or a marketplace's own
`ext/transaction-processes`): the repository keeps no copy of Sharetribe's files, so this is
how the fake is checked against them. For each `<name>/process.edn` it

- loads it under `<name>/release-1` (a file the fake cannot run is reported and skipped);
- compares it, when its name is one of the fake's built-in processes, with the built-in one:
  the same transitions, with the same actors, states, actions, timers and privileges;
- walks it: for each transition, a fresh transaction is taken along the shortest way from the
  start to the state the transition leaves, then through the transition itself, each step by
  its actor (the customer or the provider through the Marketplace API, from a trusted context
  where the transition is privileged; the operator through the Integration API; the system by
  moving the fake's clock to the step's time when it is the first due, or else at once), with
  the parameters its actions take, and the browser's Stripe step before a payment is
  confirmed.

    python scripts/walk_processes.py /path/to/example-processes

It prints what each process did and exits 1 if any file could not be loaded or any transition
could not be taken, 0 otherwise.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import uuid
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flexclient import ApiError, IntegrationClient, MarketplaceClient, Money
from flexclient.testing import FakeMarketplace, ProcessFileError
from flexclient.testing._engine import transition_params
from flexclient.testing._processes import BUILT_IN_NAMES, Process, Transition, built_in, load

PRICE = Money(5000, "EUR")
LINES = [{"code": "line-item/units", "unitPrice": PRICE, "quantity": 1}]


@dataclass
class Walk:
    """A process being walked, and what came of it."""

    process: Process
    taken: list[str] = field(default_factory=lambda: [])
    failed: list[str] = field(default_factory=lambda: [])
    notes: list[str] = field(default_factory=lambda: [])


def differences(ours: Process, theirs: Process) -> list[str]:
    """How a built-in process differs from a published one of the same name."""
    mine = {t.name: t for t in ours.transitions}
    other = {t.name: t for t in theirs.transitions}
    found = [f"only in the built-in: {n}" for n in sorted(set(mine) - set(other))]
    found += [f"only in the file: {n}" for n in sorted(set(other) - set(mine))]
    found += [f"differs: {n}" for n in sorted(set(mine) & set(other)) if mine[n] != other[n]]
    return found


def ways(process: Process) -> dict[str | None, list[Transition]]:
    """The shortest way (a list of transitions) from the start to each state."""
    found: dict[str | None, list[Transition]] = {None: []}
    todo: deque[str | None] = deque([None])
    while todo:
        state = todo.popleft()
        for t in process.next_from(state):
            if t.to not in found:
                found[t.to] = [*found[state], t]
                todo.append(t.to)
    return found


class Walker:
    """The fake, its users and listings, and the steps of a walk."""

    def __init__(self, fake: FakeMarketplace) -> None:
        self.fake = fake
        self.provider = self._user("provider@example.com")
        self.customer = self._user("customer@example.com")
        self.provider.stripe_account.create(
            {"country": "FI", "accountToken": "ct_walk", "bankAccountToken": "btok_walk"}
        )
        self.customer.stripe_customer.create({"stripePaymentMethodId": "pm_card_visa"})
        self.customer.current_user.update_profile({"protectedData": {"phoneNumber": "+358"}})
        self.listing = self._listing(self.provider, "A listing")
        self.request = self._listing(self.customer, "A request (for the reverse flow)")
        self.integ = IntegrationClient(fake.client_id, fake.client_secret, base_url=fake.url)
        self.slot = 0

    def _user(self, email: str) -> MarketplaceClient:
        self.fake.add_user(email, "walk-password")
        sdk = MarketplaceClient(
            self.fake.client_id, client_secret=self.fake.client_secret, base_url=self.fake.url
        )
        sdk.login(username=email, password="walk-password")
        return sdk

    def _listing(self, author: MarketplaceClient, title: str) -> uuid.UUID:
        made = author.own_listings.create({"title": title, "price": PRICE}).data.data
        author.stock.compare_and_set({"listingId": made.id, "oldTotal": None, "newTotal": 10000})
        return made.id

    def params(self, t: Transition) -> dict[str, Any]:
        """Values for the parameters the transition's actions take."""
        required, optional = transition_params(t)
        wanted = {**required, **{k: v for k, v in optional.items() if k in VALUES}}
        out: dict[str, Any] = {}
        for name in wanted:
            if name == "listingId":
                out[name] = self.request if t.actor == "provider" else self.listing
            elif name in ("bookingStart", "bookingEnd"):
                out.update(self._booking())
            elif name in VALUES:
                out[name] = VALUES[name]
        return out

    def _booking(self) -> dict[str, dt.datetime]:
        # Whole days, each booking its own, well ahead of the fake's clock.
        self.slot += 1
        today = self.fake.now.replace(hour=0, minute=0, second=0, microsecond=0)
        start = today + dt.timedelta(days=30 + 3 * self.slot)
        return {"bookingStart": start, "bookingEnd": start + dt.timedelta(days=2)}

    def client(self, t: Transition, tx: Any) -> MarketplaceClient:
        sdk = self.provider if t.actor == "provider" else self.customer
        return sdk.trusted_client() if t.privileged else sdk

    def take(self, walk: Walk, tx: Any, t: Transition) -> Any:
        """Take one transition of the transaction `tx` (None: start one); the transaction."""
        if any(a.name == "action/stripe-confirm-payment-intent" for a in t.actions):
            intent = self.fake.stripe.payment_intent(tx.id)
            if intent["status"] in ("requires_payment_method", "requires_confirmation"):
                self.fake.stripe.confirm_payment_intent(tx.id, "pm_card_visa")
        params = self.params(t)
        if tx is None:
            body = {"processAlias": walk.process.alias, "transition": t.name, "params": params}
            return self.client(t, tx).transactions.initiate(body, {"expand": True}).data.data
        if t.actor == "operator":
            body = {"id": tx.id, "transition": t.name, "params": params}
            return self.integ.transactions.transition(body, {"expand": True}).data.data
        if t.actor is None:
            return self._system(walk, tx, t)
        body = {"id": tx.id, "transition": t.name, "params": params}
        return self.client(t, tx).transactions.transition(body, {"expand": True}).data.data

    def _system(self, walk: Walk, tx: Any, t: Transition) -> Any:
        scheduled = self.fake.scheduled(tx.id)
        if scheduled and scheduled[0][0] == t.name:
            self.fake.advance(max(scheduled[0][1] - self.fake.now, dt.timedelta(0)) + SECOND)
        else:
            if t.name not in (name for name, _ in scheduled):
                walk.notes.append(f"{t.name}: not scheduled (its time came to nothing)")
            self.fake.transition(tx.id, t.name, by="system")
        return self.integ.transactions.show({"id": tx.id}).data.data


SECOND = dt.timedelta(seconds=1)
VALUES: dict[str, Any] = {
    "lineItems": LINES,
    "stockReservationQuantity": 1,
    "reviewRating": 5,
    "reviewContent": "Walked through",
    "protectedData": {"walked": True},
    "metadata": {"walked": True},
    "negotiatedTotal": PRICE,
    "paymentMethodTypes": ["ideal"],
    "quantity": 1,
    "quantity1": 1,
    "quantity2": 1,
}


def walk(walker: Walker, process: Process) -> Walk:
    done = Walk(process)
    to = ways(process)
    for t in process.transitions:
        way = [*to.get(t.start, []), t] if t.start in to else None
        if way is None:
            done.failed.append(f"{t.name}: {t.start} cannot be reached")
            continue
        tx: Any = None
        step = way[0]
        try:
            i = 0
            while i < len(way):
                step = way[i]
                seen = len(tx.attributes.transitions) if tx is not None else 0
                tx = walker.take(done, tx, step)
                after = [x.transition for x in tx.attributes.transitions[seen:]]
                if not after or after[0] != step.name:
                    raise RuntimeError(f"{step.name} was not taken: {after}")
                # The system may take more at once, when their time has come already: on the
                # way, they are steps the walk need not take itself.
                more = after[1:]
                if more:
                    done.notes.append(f"{step.name}: then the system took {more}")
                    if [w.name for w in way[i + 1 : i + 1 + len(more)]] == more:
                        i += len(more)
                    elif step is not t:
                        raise RuntimeError(f"ended in {tx.attributes.state}, not {step.to}")
                i += 1
            done.taken.append(t.name)
        except (ApiError, ValueError, RuntimeError, KeyError) as exc:
            where = " -> ".join(s.name.removeprefix("transition/") for s in way)
            done.failed.append(f"{t.name} (at {step.name}, on the way {where}): {exc}")
    return done


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder of <name>/process.edn files")
    args = parser.parse_args(argv)
    files = sorted(args.folder.glob("*/process.edn"))
    if not files:
        print(f"no <name>/process.edn under {args.folder}", file=sys.stderr)
        return 1
    ours = {p.name: p for p in built_in()}
    failures = 0
    for path in files:
        try:
            process = load(path)
        except ProcessFileError as exc:
            print(f"{path.parent.name}: NOT LOADED: {exc}")
            failures += 1
            continue
        print(
            f"{process.alias}: loaded, {len(process.transitions)} transitions, "
            f"{len(process.states)} states, {len(process.notifications)} notifications"
        )
        if process.name in BUILT_IN_NAMES:
            found = differences(ours[process.name], process)
            print(f"  the built-in {process.name}: {'the same' if not found else 'DIFFERS'}")
            for line in found:
                print(f"    {line}")
            failures += len(found)
        with FakeMarketplace(processes={process.alias: path}) as fake:
            result = walk(Walker(fake), process)
        print(f"  walked: {len(result.taken)}/{len(process.transitions)} transitions taken")
        for line in result.notes:
            print(f"    note: {line}")
        for line in result.failed:
            print(f"    FAILED: {line}")
        failures += len(result.failed)
    print("all taken" if not failures else f"{failures} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
