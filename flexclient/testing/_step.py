"""One transition being taken: what the actions of `flexclient.testing._actions` work on."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from flexclient.models import TransactionAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, invalid, missing
from flexclient.testing._context import Context
from flexclient.testing._params import Invalid, from_body

if TYPE_CHECKING:
    from flexclient.testing._processes import Transition

Actor = Literal["customer", "provider", "operator", "system"]
Transaction = s.Record[TransactionAttributes]
PARTIES = ("customer", "provider")


@dataclass
class Step:
    """A transition being taken: the transaction, its parameters, who takes it, whether from
    a trusted context, and whether only to see what it would do (speculatively)."""

    ctx: Context
    tx: Transaction
    params: dict[str, Any]
    by: Actor
    transition: Transition
    trusted: bool = False
    speculative: bool = False

    @property
    def state(self) -> s.State:
        return self.ctx.state

    @property
    def progress(self) -> s.Progress:
        return self.state.progress[self.tx.id]

    @property
    def listing(self) -> s.Record[Any]:
        listing = self.state.listings.get(self.tx.one("listing") or uuid.UUID(int=0))
        if listing is None:
            raise ApiFailure(409, "transaction-listing-not-found", "The listing is gone")
        return listing

    def party(self, role: str) -> s.Record[Any] | None:
        """The customer or the provider of the transaction."""
        return self.state.users.get(self.tx.one(role) or uuid.UUID(int=0))

    def param(self, name: str, hint: Any) -> Any:
        """A parameter as the type `hint` names, None if not given."""
        value = self.params.get(name)
        if value is None:
            return None
        try:
            return from_body(value, hint)
        except Invalid as exc:
            raise invalid("body", f"params.{name}", str(exc)) from exc

    def required(self, name: str, hint: Any) -> Any:
        value = self.param(name, hint)
        if value is None:
            raise ApiFailure(
                400,
                "validation-missing-key",
                f"Missing required key: params.{name}",
                ["body", "params", name],
            )
        return value

    def other(self, stored_type: str, rid: uuid.UUID | None) -> s.Record[Any] | None:
        return self.state.table(stored_type).get(rid) if rid is not None else None

    def new(self, stored_type: str, values: dict[str, Any]) -> s.Record[Any]:
        return s.add(self.state, stored_type, values)


def conflict(title: str, code: str = "conflict") -> ApiFailure:
    """A precondition of an action that does not hold: 409, as the API answers."""
    return ApiFailure(409, code, title)


__all__ = ["PARTIES", "Actor", "Step", "Transaction", "conflict", "invalid", "missing"]
