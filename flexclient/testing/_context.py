"""Who is changing the marketplace, and the events each change appends.

A change comes through an API call, or from the fake's own clock and test hooks (a delayed
transition of a transaction, an operator's step). Either way it is recorded as an event with
its `source` and the user and client behind it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from flexclient.testing import _state as s
from flexclient.testing._render import Renderer, Resource

MARKETPLACE_API = "source/marketplace-api"
INTEGRATION_API = "source/integration-api"
TRANSACTION = "source/transaction"  # a transition's changes, however it was taken
CONSOLE = "source/console"  # an operator's step taken by a test hook
# What a transaction's events relate it to, and those of what belongs to it.
TRANSACTION_SIDES = ("listing", "provider", "customer")


@dataclass
class Context:
    state: s.State
    base_url: str
    source: str
    user_id: uuid.UUID | None = None
    client_id: str | None = None

    def as_source(self, source: str) -> Context:
        return Context(self.state, self.base_url, source, self.user_id, self.client_id)

    def snapshot(self, record: s.Record[Any]) -> Resource:
        """The resource as the Integration API shows it, relationships too, for events."""
        renderer = Renderer(self.state, self.base_url, "integration", None, {})
        resource, links = renderer.resource(record)
        resource["relationships"] = {name: {"data": link} for name, link in links.items()}
        return resource

    def emit(self, event_type: str, record: s.Record[Any], before: Resource | None) -> None:
        """Record the event of a change; `before` is the snapshot taken before it."""
        after = self.snapshot(record)
        previous: dict[str, Any] | None = None
        if before is not None:
            previous = {}
            for part in ("attributes", "relationships"):
                old, new = before.get(part, {}), after.get(part, {})
                changed = {k: v for k, v in old.items() if new.get(k) != v}
                if changed or part == "attributes":
                    previous[part] = changed
        self._record(event_type, record, after, previous)

    def emit_deleted(self, event_type: str, record: s.Record[Any]) -> None:
        """Record the event of a deletion: no resource, its attributes as previous values."""
        self._record(event_type, record, None, {"attributes": self.snapshot(record)["attributes"]})

    def _record(
        self,
        event_type: str,
        record: s.Record[Any],
        after: Resource | None,
        previous: dict[str, Any] | None,
    ) -> None:
        self.state.record(
            event_type,
            self.source,
            record.type,
            record.id,
            after,
            previous,
            self.user_id,
            self.client_id,
            self.related(record),
        )

    def related(self, record: s.Record[Any]) -> frozenset[uuid.UUID]:
        """The resources an event about `record` is related to (`relatedResourceId`): those
        it refers to (a listing's author and images, a transaction's listing, provider and
        customer, a message's sender), and, for what belongs to a transaction (a booking, a
        message, a review, a stock reservation), the transaction's listing and parties too.
        Not the marketplace, which every resource refers to."""
        linked = {
            ref["id"]
            for link in record.relationships.values()
            for ref in (link if isinstance(link, list) else [link] if link is not None else [])
        }
        tx_id = record.one("transaction")
        tx = self.state.transactions.get(tx_id) if tx_id is not None else None
        if tx is not None:
            linked.update(i for name in TRANSACTION_SIDES if (i := tx.one(name)) is not None)
        linked.discard(s.MARKETPLACE_ID)
        return frozenset(linked)
