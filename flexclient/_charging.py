"""How a client's requests are charged to its credits meter (`flexclient.credits`): a
budget checked before each request is sent, the answer recorded when it comes, per call and
per client.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Generator
from decimal import Decimal
from typing import NamedTuple

from flexclient._errors import CreditBudgetExceededError
from flexclient.credits import UsageMeter, cost, transfer_cost


class _CallSpending:
    """What one call may spend (`credit_budget=` given to the call), and has spent so far:
    its requests, token requests and retries included."""

    def __init__(self, limit: Decimal) -> None:
        self.limit = limit
        self.spent = Decimal(0)


_call_spending: contextvars.ContextVar[_CallSpending | None] = contextvars.ContextVar(
    "flexclient_call_spending", default=None
)


@contextlib.contextmanager
def call_budget(limit: Decimal | None) -> Generator[None, None, None]:
    """Run a call whose requests may spend at most `limit` credits in all (no limit: None)."""
    if limit is None:
        yield
        return
    token = _call_spending.set(_CallSpending(limit))
    try:
        yield
    finally:
        _call_spending.reset(token)


class Charge:
    """How a client's requests are charged to its meter: `check(path)` before each request
    is sent (raising `CreditBudgetExceededError` when what it could cost would take the meter
    past the client's budget, or the call past its own), `record(path, status)` when it is
    answered. `transfer_bytes` is the data transfer the request carries (an image upload's
    image)."""

    def __init__(self, meter: UsageMeter, budget: Decimal | None, transfer_bytes: int) -> None:
        self.meter = meter
        self.budget = budget
        self.transfer_bytes = transfer_bytes

    def check(self, path: str) -> None:
        self._check(path, cost(path, 200, self.transfer_bytes))

    def check_transfer(self, path: str, nbytes: int) -> None:
        """Before `nbytes` are sent to file storage for a call to `path`."""
        self._check(path, transfer_cost(path, nbytes))

    def _check(self, path: str, most: Decimal) -> None:
        if not most:
            return
        if self.budget is not None:
            self.meter.check_budget(self.budget, most, path)
        call = _call_spending.get()
        if call is not None and call.spent + most > call.limit:
            raise CreditBudgetExceededError(
                budget=call.limit, spent=call.spent, cost=most, endpoint=path
            )

    def record(self, path: str, status: int) -> None:
        self._spent(self.meter.record(path, status, self.transfer_bytes))

    def record_transfer(self, path: str, nbytes: int) -> None:
        """Bytes moved to or from file storage for a call to `path` (answered 2xx)."""
        self._spent(self.meter.record_transfer(path, nbytes))

    def _spent(self, added: Decimal) -> None:
        call = _call_spending.get()
        if call is not None:
            call.spent += added


class TransferBill(NamedTuple):
    """The data transfer of a file sent to or fetched from storage, billed to the endpoint
    that gave its URL (`/v1/api/file_uploads/create`, ...): `check` before bytes of a known
    size are sent, `record` once storage has answered 2xx."""

    charge: Charge
    path: str

    def check(self, nbytes: int) -> None:
        self.charge.check_transfer(self.path, nbytes)

    def record(self, nbytes: int) -> None:
        self.charge.record_transfer(self.path, nbytes)
