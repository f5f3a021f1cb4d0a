"""What API calls cost in credits, Sharetribe's unit of billing from 2026-12-01, and a meter
that adds them up.

The data, as Python literals: credits per request by usage type (`CREDITS`), credits per GB
of data transfer (`TRANSFER_PER_GB`), the usage type of every billable endpoint path
(`USAGE_TYPES`; a path not listed bills nothing), the paths that also bill their transfer
(`TRANSFER_PATHS`) and the monthly price tiers (`TIERS`). The functions: which answers are
billed (`is_billed`), what one answer costs (`cost`), what a month of credits costs in dollars
(`price`), and `UsageMeter`, a running total of answers for a client (or the fake
marketplace) to keep.

A GB is taken to be 10**9 bytes (`BYTES_PER_GB`): Sharetribe's pages do not say which GB they
mean. All amounts are `Decimal`s computed exactly: no float ever takes part.

>>> cost("/v1/api/listings/query", 200)
Decimal('5')
>>> cost("/v1/api/file_uploads/create", 201, transfer_bytes=2 * BYTES_PER_GB)
Decimal('510070')
>>> price(2_500_000)
Decimal('105.00')
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_HALF_UP, Context, Decimal, Inexact
from types import MappingProxyType
from typing import Any, Literal

from flexclient._errors import CreditBudgetExceededError, ParameterError
from flexclient._support.frozen import Frozen

__all__ = [
    "BYTES_PER_GB",
    "CREDITS",
    "INCLUDED_CREDITS",
    "TIERS",
    "TRANSFER_PATHS",
    "TRANSFER_PER_GB",
    "USAGE_TYPES",
    "EndpointUsage",
    "Tier",
    "UsageMeter",
    "UsageSnapshot",
    "UsageType",
    "bills_transfer",
    "check_credit_budget",
    "cost",
    "cost_table",
    "credits_for",
    "is_billed",
    "price",
    "transfer_cost",
    "usage_type",
]

UsageType = Literal[
    "Simple read",
    "Standard read",
    "Heavy read",
    "Simple write",
    "Standard write",
    "Heavy write",
    "Authentication",
    "File upload",
    "File download",
    "Image upload",
    "Image download",
    "Simple asset read",
    "Standard asset read",
    "Heavy asset read",
    "Standard asset write",
    "Heavy asset write",
]

# Precision enough that adding and multiplying never round, and a trap should anything
# still do: a meter that drifts by rounding would disagree with the Console's figures.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[Inexact])
_TO_CENTS = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, rounding=ROUND_HALF_UP)
_ZERO = Decimal(0)
_CENT = Decimal("0.01")

BYTES_PER_GB = 10**9
"""The bytes of a GB of data transfer: an assumption, as Sharetribe does not say."""

INCLUDED_CREDITS = 1_000_000
"""The credits every plan includes each month."""

CREDITS: Mapping[UsageType, Decimal] = MappingProxyType(
    {
        "Simple read": Decimal(1),
        "Standard read": Decimal(2),
        "Heavy read": Decimal(5),
        "Simple write": Decimal(5),
        "Standard write": Decimal(10),
        "Heavy write": Decimal(15),
        "Authentication": Decimal(1),
        "File upload": Decimal(70),
        "File download": Decimal(5),
        "Image upload": Decimal(30),
        "Image download": Decimal("1.5"),
        "Simple asset read": Decimal("0.5"),
        "Standard asset read": Decimal(5),
        "Heavy asset read": Decimal(10),
        "Standard asset write": Decimal(15),
        "Heavy asset write": Decimal(30),
    }
)
"""Credits a billed request costs, by its usage type."""

TRANSFER_PER_GB: Mapping[UsageType, Decimal] = MappingProxyType(
    {
        "File upload": Decimal(255_000),
        "File download": Decimal(25_000),
        "Image upload": Decimal(230_000),
        "Image download": Decimal(10_000),
    }
)
"""Credits a GB (`BYTES_PER_GB`) of billed data transfer costs, by usage type, on top of the
request's own credits; only for the paths in `TRANSFER_PATHS`."""

# The shared API notes' credits.tsv, row for row (the tests compare the two).
USAGE_TYPES: Mapping[str, UsageType] = MappingProxyType(
    {
        "/v1/api/availability_exceptions/create": "Simple write",
        "/v1/api/availability_exceptions/delete": "Simple write",
        "/v1/api/availability_exceptions/query": "Simple read",
        "/v1/api/bookings/query": "Simple read",
        "/v1/api/current_user/change_email": "Standard write",
        "/v1/api/current_user/change_password": "Standard write",
        "/v1/api/current_user/create": "Standard write",
        "/v1/api/current_user/create_stripe_account": "Standard write",
        "/v1/api/current_user/create_with_idp": "Standard write",
        "/v1/api/current_user/delete": "Heavy write",
        "/v1/api/current_user/send_verification_email": "Standard write",
        "/v1/api/current_user/show": "Simple read",
        "/v1/api/current_user/update_profile": "Standard write",
        "/v1/api/current_user/update_stripe_account": "Standard write",
        "/v1/api/current_user/verify_email": "Standard write",
        "/v1/api/file_downloads/create": "File download",
        "/v1/api/file_uploads/create": "File upload",
        "/v1/api/files/show": "Simple read",
        "/v1/api/images/upload": "Image upload",
        "/v1/api/listings/query": "Heavy read",
        "/v1/api/listings/show": "Simple read",
        "/v1/api/marketplace/show": "Simple read",
        "/v1/api/messages/query": "Standard read",
        "/v1/api/messages/send": "Standard write",
        "/v1/api/own_file_downloads/create": "File download",
        "/v1/api/own_files/create": "Simple write",
        "/v1/api/own_files/show": "Simple read",
        "/v1/api/own_listings/add_image": "Simple write",
        "/v1/api/own_listings/close": "Simple write",
        "/v1/api/own_listings/create": "Standard write",
        "/v1/api/own_listings/create_draft": "Standard write",
        "/v1/api/own_listings/discard_draft": "Simple write",
        "/v1/api/own_listings/open": "Simple write",
        "/v1/api/own_listings/publish_draft": "Standard write",
        "/v1/api/own_listings/query": "Heavy read",
        "/v1/api/own_listings/show": "Simple read",
        "/v1/api/own_listings/update": "Standard write",
        "/v1/api/password_reset/request": "Standard write",
        "/v1/api/password_reset/reset": "Standard write",
        "/v1/api/process_transitions/query": "Simple read",
        "/v1/api/reviews/query": "Standard read",
        "/v1/api/reviews/show": "Simple read",
        "/v1/api/sitemap_data/query_assets": "Heavy read",
        "/v1/api/sitemap_data/query_listings": "Heavy read",
        "/v1/api/stock/compare_and_set": "Simple write",
        "/v1/api/stock_adjustments/create": "Simple write",
        "/v1/api/stock_adjustments/query": "Simple read",
        "/v1/api/stripe_account/create": "Standard write",
        "/v1/api/stripe_account/fetch": "Heavy read",
        "/v1/api/stripe_account/update": "Standard write",
        "/v1/api/stripe_account_links/create": "Standard write",
        "/v1/api/stripe_customer/add_payment_method": "Standard write",
        "/v1/api/stripe_customer/create": "Standard write",
        "/v1/api/stripe_customer/delete": "Standard write",
        "/v1/api/stripe_customer/delete_payment_method": "Standard write",
        "/v1/api/stripe_persons/create": "Standard write",
        "/v1/api/stripe_setup_intents/create": "Standard write",
        "/v1/api/timeslots/query": "Standard read",
        "/v1/api/transactions/initiate": "Heavy write",
        "/v1/api/transactions/initiate_speculative": "Standard read",
        "/v1/api/transactions/query": "Heavy read",
        "/v1/api/transactions/show": "Simple read",
        "/v1/api/transactions/transition": "Heavy write",
        "/v1/api/transactions/transition_speculative": "Standard read",
        "/v1/api/users/show": "Simple read",
        "/v1/integration_api/availability_exceptions/create": "Simple write",
        "/v1/integration_api/availability_exceptions/delete": "Simple write",
        "/v1/integration_api/availability_exceptions/query": "Simple read",
        "/v1/integration_api/events/query": "Heavy read",
        "/v1/integration_api/file_attachments/query": "Standard read",
        "/v1/integration_api/file_downloads/create": "File download",
        "/v1/integration_api/file_uploads/create": "File upload",
        "/v1/integration_api/files/create": "Simple write",
        "/v1/integration_api/files/query": "Standard read",
        "/v1/integration_api/images/upload": "Image upload",
        "/v1/integration_api/listings/approve": "Simple write",
        "/v1/integration_api/listings/close": "Simple write",
        "/v1/integration_api/listings/create": "Standard write",
        "/v1/integration_api/listings/open": "Simple write",
        "/v1/integration_api/listings/query": "Heavy read",
        "/v1/integration_api/listings/show": "Simple read",
        "/v1/integration_api/listings/update": "Standard write",
        "/v1/integration_api/marketplace/show": "Simple read",
        "/v1/integration_api/messages/query": "Standard read",
        "/v1/integration_api/stock/compare_and_set": "Simple write",
        "/v1/integration_api/stock_adjustments/create": "Simple write",
        "/v1/integration_api/stock_adjustments/query": "Simple read",
        "/v1/integration_api/stock_reservations/show": "Simple read",
        "/v1/integration_api/transactions/query": "Heavy read",
        "/v1/integration_api/transactions/show": "Simple read",
        "/v1/integration_api/transactions/transition": "Heavy write",
        "/v1/integration_api/transactions/transition_speculative": "Standard read",
        "/v1/integration_api/transactions/update_metadata": "Standard write",
        "/v1/integration_api/users/approve": "Simple write",
        "/v1/integration_api/users/query": "Heavy read",
        "/v1/integration_api/users/show": "Simple read",
        "/v1/integration_api/users/update_permissions": "Simple write",
        "/v1/integration_api/users/update_profile": "Standard write",
        "/v1/integration_api/users/verify_email": "Simple write",
        "/v1/auth/auth_with_idp": "Authentication",
        "/v1/auth/multitenant/auth_with_idp": "Authentication",
        "/v1/auth/multitenant/client_data": "Authentication",
        "/v1/auth/multitenant/token": "Authentication",
        "/v1/auth/revoke": "Authentication",
        "/v1/auth/token": "Authentication",
        "/v1/assets/pub/{clientId}/a/...": "Simple asset read",
        "/v1/assets/pub/{clientId}/v/...": "Simple asset read",
    }
)
"""The usage type of every billable endpoint, by its path. The Asset Delivery API's two
entries are templates: `usage_type()` matches any asset URL's path to them."""

TRANSFER_PATHS: frozenset[str] = frozenset(
    {
        "/v1/api/file_downloads/create",
        "/v1/api/file_uploads/create",
        "/v1/api/images/upload",
        "/v1/api/own_file_downloads/create",
        "/v1/integration_api/file_downloads/create",
        "/v1/integration_api/file_uploads/create",
        "/v1/integration_api/images/upload",
    }
)
"""The paths whose data transfer is billed too ("Per GB"), at their usage type's rate."""


@dataclass(frozen=True, eq=False, repr=False)
class Tier(Frozen):
    """A price tier: the credits of a month from `start` up to `end` (None: no end) cost
    `per_thousand` dollars a 1,000."""

    start: int
    end: int | None
    per_thousand: Decimal


TIERS: tuple[Tier, ...] = (
    Tier(1_000_000, 3_000_000, Decimal("0.07")),
    Tier(3_000_000, 6_000_000, Decimal("0.05")),
    Tier(6_000_000, 10_000_000, Decimal("0.04")),
    Tier(10_000_000, 15_000_000, Decimal("0.03")),
    Tier(15_000_000, 20_000_000, Decimal("0.02")),
    Tier(20_000_000, 30_000_000, Decimal("0.01")),
    Tier(30_000_000, 50_000_000, Decimal("0.009")),
    Tier(50_000_000, 100_000_000, Decimal("0.008")),
    Tier(100_000_000, 150_000_000, Decimal("0.007")),
    Tier(150_000_000, 200_000_000, Decimal("0.006")),
    Tier(200_000_000, None, Decimal("0.005")),
)
"""The published tiers above the included credits; each prices only its own credits."""


def _tidy(amount: Decimal) -> Decimal:
    """`amount` without trailing zeros after the point, and never in exponent form."""
    reduced = _EXACT.normalize(amount)
    whole = reduced == reduced.to_integral_value()
    return reduced.quantize(Decimal(1), context=_EXACT) if whole else reduced


def _text(amount: Decimal) -> str:
    return format(_tidy(amount), "f")


def _listed(path: str) -> str | None:
    """The `USAGE_TYPES` key that `path` bills under, or None."""
    if path in USAGE_TYPES:
        return path
    # /v1/assets/pub/<client ID>/a/<alias>/<asset path>, or /v/<version>/...
    parts = path.split("/", 6)
    if len(parts) == 7 and parts[:4] == ["", "v1", "assets", "pub"] and parts[4] and parts[6]:
        template = f"/v1/assets/pub/{{clientId}}/{parts[5]}/..."
        if template in USAGE_TYPES:
            return template
    return None


def usage_type(path: str) -> UsageType | None:
    """The usage type of an endpoint, by its URL's path (no host, no query); None for a path
    that bills nothing.

    >>> usage_type("/v1/api/listings/query"), usage_type("/v1/auth/token")
    ('Heavy read', 'Authentication')
    >>> usage_type("/v1/assets/pub/my-client-id/a/latest/content/footer.json")
    'Simple asset read'
    >>> print(usage_type("/v1/api/listings/search"))
    None
    """
    listed = _listed(path)
    return None if listed is None else USAGE_TYPES[listed]


def credits_for(path: str) -> Decimal:
    """The credits of one billed request to `path`, data transfer aside; 0 when the path bills
    nothing.

    >>> credits_for("/v1/integration_api/events/query"), credits_for("/v1/api/nothing/here")
    (Decimal('5'), Decimal('0'))
    """
    kind = usage_type(path)
    return _ZERO if kind is None else CREDITS[kind]


def bills_transfer(path: str) -> bool:
    """Whether `path` bills its data transfer by the GB (the "Per GB" rows).

    >>> bills_transfer("/v1/api/images/upload"), bills_transfer("/v1/api/listings/query")
    (True, False)
    """
    return path in TRANSFER_PATHS


def transfer_cost(path: str, nbytes: int) -> Decimal:
    """The credits of `nbytes` of transfer billed by `path`; 0 when it bills none."""
    if nbytes < 0:
        raise ValueError(f"a transfer of {nbytes} bytes: bytes are never negative")
    kind = usage_type(path)
    if not bills_transfer(path) or kind is None or nbytes == 0:
        return _ZERO
    return _tidy(_EXACT.scaleb(_EXACT.multiply(Decimal(nbytes), TRANSFER_PER_GB[kind]), -9))


def is_billed(status: int, *, endpoint_exists: bool = True) -> bool:
    """Whether an answer with HTTP `status` is billed (and its data transfer with it): 2xx yes;
    3xx no; 401 no; 404 yes, unless the endpoint does not exist; 429 no; other 4xx yes; 5xx
    no. Anything else (1xx, or 0 for no answer at all) is not.

    >>> [is_billed(s) for s in (200, 304, 400, 401, 404, 429, 503)]
    [True, False, True, False, True, False, False]
    >>> is_billed(404, endpoint_exists=False)
    False
    """
    if 200 <= status < 300:
        return True
    if status == 404:
        return endpoint_exists
    return 400 <= status < 500 and status not in (401, 429)


def _charge(
    path: str, status: int, transfer_bytes: int, endpoint_exists: bool
) -> tuple[bool, Decimal, Decimal]:
    """Whether the answer costs anything (a billed status, on a path that bills), the request's
    credits and its transfer's."""
    transfer = transfer_cost(path, transfer_bytes)  # checks the bytes, billed or not
    kind = usage_type(path)
    if kind is None or not is_billed(status, endpoint_exists=endpoint_exists):
        return False, _ZERO, _ZERO
    return True, CREDITS[kind], transfer


def cost(
    path: str, status: int, transfer_bytes: int = 0, *, endpoint_exists: bool = True
) -> Decimal:
    """The credits one answer costs: the request's, plus `transfer_bytes` at the per-GB rate
    when `path` bills its transfer; 0 when the answer is not billed. Exact.

    >>> cost("/v1/api/images/upload", 200, transfer_bytes=74)
    Decimal('30.01702')
    >>> cost("/v1/api/listings/show", 404), cost("/v1/api/listings/show", 500)
    (Decimal('1'), Decimal('0'))
    """
    _, request, transfer = _charge(path, status, transfer_bytes, endpoint_exists)
    return _tidy(_EXACT.add(request, transfer))


def price(credits: Decimal | int, *, included: int = INCLUDED_CREDITS) -> Decimal:
    """The dollars a month of `credits` costs: the first `included` are free; each other credit
    is priced by the tier of `TIERS` it falls in (credits between `included` and the first
    tier, were fewer included, by the first tier). The exact sum is rounded to cents, half up.

    >>> price(1_000_000), price(2_000_000), price(6_000_000)
    (Decimal('0.00'), Decimal('70.00'), Decimal('290.00'))
    """
    total = Decimal(credits)
    if not total.is_finite() or total < 0 or included < 0:
        raise ValueError(f"cannot price {credits} credits with {included} included")
    dollars = _ZERO
    for n, tier in enumerate(TIERS):
        low = max(Decimal(included), Decimal(tier.start if n else 0))
        high = total if tier.end is None else min(total, Decimal(tier.end))
        if high > low:
            priced = _EXACT.multiply(_EXACT.subtract(high, low), tier.per_thousand)
            dollars = _EXACT.add(dollars, _EXACT.scaleb(priced, -3))
    return dollars.quantize(_CENT, context=_TO_CENTS)


def cost_table() -> list[tuple[str, UsageType, Decimal, str]]:
    """Every billable endpoint, by path: its usage type, its credits a request, and its
    transfer's credits a GB ("" for none).

    >>> [row for row in cost_table() if "images/upload" in row[0]][0]
    ('/v1/api/images/upload', 'Image upload', Decimal('30'), '230,000')
    """
    return [
        (path, kind, CREDITS[kind], f"{TRANSFER_PER_GB[kind]:,}" if path in TRANSFER_PATHS else "")
        for path, kind in sorted(USAGE_TYPES.items())
    ]


@dataclass(frozen=True, eq=False, repr=False)
class EndpointUsage(Frozen):
    """What a meter holds for one endpoint: `requests` recorded, the `billed_requests` among
    them, `credits` in all (transfer included), and the billed `transfer_bytes` with their
    `transfer_credits`."""

    requests: int = 0
    billed_requests: int = 0
    credits: Decimal = _ZERO
    transfer_bytes: int = 0
    transfer_credits: Decimal = _ZERO

    def summary(self) -> str:
        """The figures in words: `12 requests, 37 credits`."""
        return f"{_counted(self.requests, 'request')}, {_counted(self.credits, 'credit')}"


def _sum(a: EndpointUsage, b: EndpointUsage) -> EndpointUsage:
    return EndpointUsage(
        requests=a.requests + b.requests,
        billed_requests=a.billed_requests + b.billed_requests,
        credits=_tidy(_EXACT.add(a.credits, b.credits)),
        transfer_bytes=a.transfer_bytes + b.transfer_bytes,
        transfer_credits=_tidy(_EXACT.add(a.transfer_credits, b.transfer_credits)),
    )


def _counted(amount: int | Decimal, noun: str) -> str:
    return f"{_text(Decimal(amount))} {noun}{'' if amount == 1 else 's'}"


class _Totals:
    """The totals a meter and its snapshots both give, from `_now()`."""

    __slots__ = ()

    def _now(self) -> EndpointUsage:
        raise NotImplementedError

    @property
    def credits(self) -> Decimal:
        """The credits of every answer recorded, data transfer included."""
        return self._now().credits

    @property
    def requests(self) -> int:
        """Every request recorded, billed or not."""
        return self._now().requests

    @property
    def transfer_credits(self) -> Decimal:
        """The part of `credits` that is data transfer."""
        return self._now().transfer_credits


@dataclass(frozen=True, eq=False, repr=False)
class UsageSnapshot(Frozen, _Totals):
    """A meter's figures at one moment, never to change: `total` over every endpoint, and
    `endpoints`, (path, usage) pairs sorted by path. Two meters that recorded the same answers,
    in any order, give equal snapshots.

    >>> meter = UsageMeter()
    >>> before = meter.snapshot()
    >>> meter.record("/v1/api/listings/query", 200)
    Decimal('5')
    >>> meter.snapshot() == before, meter.snapshot().credits
    (False, Decimal('5'))
    """

    total: EndpointUsage = EndpointUsage()
    endpoints: tuple[tuple[str, EndpointUsage], ...] = ()

    def _now(self) -> EndpointUsage:
        return self.total

    @property
    def by_endpoint(self) -> Mapping[str, EndpointUsage]:
        return MappingProxyType(dict(self.endpoints))

    def summary(self) -> str:
        """The figures in words: `12 requests, 37 credits`."""
        return self.total.summary()

    def _repr_html_(self) -> str:
        return _html(self)

    def to_pandas(self) -> Any:
        """A pandas DataFrame, one row a path (its index), with the columns of `EndpointUsage`;
        the credits stay exact `Decimal`s (pandas: the `pandas` extra)."""
        from flexclient._errors import require

        pd = require("pandas", "pandas", "UsageMeter.to_pandas")
        columns = ["path", *(f.name for f in fields(EndpointUsage))]
        rows = [(path, *(getattr(u, c) for c in columns[1:])) for path, u in self.endpoints]
        return pd.DataFrame.from_records(rows, columns=columns).set_index("path")


def _html(snapshot: UsageSnapshot) -> str:
    # Imported here: only a notebook shows HTML, and every client imports this module.
    from flexclient.models._display import html_table

    rows = [
        {"path": path, "requests": usage.requests, "credits": usage.credits}
        for path, usage in snapshot.endpoints
    ]
    return html_table(rows, caption=snapshot.summary())


class UsageMeter(_Totals):
    """Adds up the credits of the answers recorded in it, as they come (by a client, or by the
    fake marketplace); safe to share between threads. Asset URLs count under their
    `USAGE_TYPES` template, any other path under itself.

    >>> meter = UsageMeter()
    >>> meter.record("/v1/auth/token", 200), meter.record("/v1/api/listings/query", 429)
    (Decimal('1'), Decimal('0'))
    >>> meter
    <UsageMeter 2 requests, 1 credit>
    >>> meter.by_endpoint["/v1/api/listings/query"].billed_requests
    0
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._endpoints: dict[str, EndpointUsage] = {}
        self._total = EndpointUsage()

    def _add(self, key: str, change: EndpointUsage) -> None:
        with self._lock:
            self._endpoints[key] = _sum(self._endpoints.get(key, EndpointUsage()), change)
            self._total = _sum(self._total, change)

    def record(
        self, path: str, status: int, transfer_bytes: int = 0, *, endpoint_exists: bool = True
    ) -> Decimal:
        """Count one request to `path` that got `status` (0: no answer), with `transfer_bytes`
        of data transfer; returns the credits it added (`cost()`)."""
        billed, request, transfer = _charge(path, status, transfer_bytes, endpoint_exists)
        added = _tidy(_EXACT.add(request, transfer))
        change = EndpointUsage(1, int(billed), added, transfer_bytes if transfer else 0, transfer)
        self._add(_listed(path) or path, change)
        return added

    def record_transfer(self, path: str, nbytes: int) -> Decimal:
        """Count `nbytes` moved to or from file storage after a call to `path`, which the caller
        knows to be billed, at `path`'s per-GB rate; returns the credits it added.

        >>> UsageMeter().record_transfer("/v1/api/file_downloads/create", 10**6)
        Decimal('25')
        """
        if not bills_transfer(path):
            raise ValueError(f"{path} bills no data transfer")
        transfer = transfer_cost(path, nbytes)
        self._add(path, EndpointUsage(0, 0, transfer, nbytes, transfer))
        return transfer

    def _now(self) -> EndpointUsage:
        return self._total  # an immutable object, read whole without the lock

    @property
    def by_endpoint(self) -> Mapping[str, EndpointUsage]:
        """What each endpoint used, by path: a read-only copy of this moment's figures."""
        return self.snapshot().by_endpoint

    def snapshot(self) -> UsageSnapshot:
        """The figures as they are now, in an object that will not change."""
        with self._lock:
            items = sorted(self._endpoints.items(), key=lambda item: item[0])
            return UsageSnapshot(self._total, tuple(items))

    def reset(self) -> None:
        """Start again from nothing."""
        with self._lock:
            self._endpoints.clear()
            self._total = EndpointUsage()

    def would_exceed(self, budget: Decimal, cost: Decimal) -> bool:
        """Whether spending `cost` more would take the meter past `budget`.

        >>> UsageMeter().would_exceed(Decimal(5), Decimal(5))
        False
        """
        return _EXACT.add(self.credits, cost) > budget

    def check_budget(self, budget: Decimal, cost: Decimal, endpoint: str) -> None:
        """Raise `CreditBudgetExceededError` when a call to `endpoint` that may cost `cost`
        would take the meter past `budget`. Two threads may both pass the check before either
        records: the budget is a guard, not a reservation."""
        spent = self.credits
        if _EXACT.add(spent, cost) > budget:
            raise CreditBudgetExceededError(
                budget=budget, spent=spent, cost=cost, endpoint=endpoint
            )

    def __repr__(self) -> str:
        return f"<UsageMeter {self.snapshot().summary()}>"

    def _repr_html_(self) -> str:
        return _html(self.snapshot())

    def to_pandas(self) -> Any:
        """`snapshot().to_pandas()`: one row a path (pandas: the `pandas` extra)."""
        return self.snapshot().to_pandas()


def check_credit_budget(value: object, name: str = "credit_budget") -> Decimal:
    """A credit budget as given (a whole or decimal number of credits, 0 or more), checked.

    >>> check_credit_budget(100)
    Decimal('100')
    """
    if isinstance(value, bool) or not isinstance(value, int | Decimal | float):
        raise ParameterError(name, f"must be a number of credits, not {value!r}")
    amount = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    if not amount.is_finite() or amount < 0:
        raise ParameterError(name, f"must be a finite number of credits, 0 or more, not {value!r}")
    return amount
