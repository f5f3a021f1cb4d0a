"""Client options: the keywords both clients take, checked once into one frozen object.

`ClientOptions` types the keywords (for `MarketplaceClient(...)` and `with_options(...)`);
`Options` is what a client keeps, as `client.options`, and what it passes down as it is: the
transports (`Transport`, `Offsite`) read their settings from it and check none of them again.
An `Options` is checked as it is made (`base_url` and `asset_cdn_base_url` by one rule,
`check_origin`). Two of the keywords are shared objects rather than settings (`token_store`,
`session`) and `max_retries` is a shorthand for a field of `retry_policy`; tests keep the two
lists in step, and the option table of docs/usage.md with the keywords.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, TypedDict, get_args
from urllib.parse import urlsplit

import requests

from flexclient._auth.tokens import TokenStore
from flexclient._environment import ASSET_CDN_BASE_URL
from flexclient._errors import ParameterError
from flexclient._http.limits import PresetName, RateLimits
from flexclient._http.transport import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT,
    RetryPolicy,
    Timeout,
    check_deadline,
    check_origin,
    check_timeout,
)
from flexclient._support.frozen import Frozen
from flexclient._support.narrow import is_whole
from flexclient._wire.formats import WireFormatName
from flexclient.credits import check_credit_budget

if TYPE_CHECKING:
    from typing_extensions import TypeIs


class ClientOptions(TypedDict, total=False):
    """The keyword options both clients (and `with_options`) take; docs/usage.md's table says
    what each does."""

    base_url: str | None
    token_store: TokenStore
    timeout: Timeout
    deadline: float | None
    max_retries: int
    retry_policy: RetryPolicy
    wire_format: WireFormatName
    version: str
    session: requests.Session
    max_response_bytes: int
    rate_limits: PresetName | RateLimits | None
    max_connections: int | None
    asset_cdn_base_url: str
    credit_budget: int | Decimal | None


# The keywords that are not settings of their own (see the module docstring).
SHARED = frozenset({"token_store", "session"})
SHORTHANDS = frozenset({"max_retries"})


def _is_preset(name: str) -> TypeIs[PresetName]:
    return name in get_args(PresetName)


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class Options(Frozen):
    """A client's settings, checked when made (a `ParameterError` names the first that is
    wrong): `client.options`.

    `with_options(...)` derives a client with some of them changed (`changed`).

    >>> from flexclient import MarketplaceClient
    >>> MarketplaceClient("CLIENT_ID", timeout=10).options.timeout
    10.0
    """

    base_url: str
    timeout: Timeout = DEFAULT_TIMEOUT
    deadline: float | None = None
    retry_policy: RetryPolicy = dataclasses.field(default_factory=RetryPolicy)
    wire_format: WireFormatName = "transit"
    version: str = "v1"
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    rate_limits: RateLimits | None = None
    max_connections: int | None = None
    asset_cdn_base_url: str = ASSET_CDN_BASE_URL
    """The Asset Delivery API's host (Marketplace client): `https://cdn.st-api.com`."""
    credit_budget: Decimal | None = None
    """The credits the client's meter may reach: a request that could take it past them is
    not sent (`CreditBudgetExceededError`). None: no budget."""

    def __post_init__(self) -> None:
        # Checked as made, so that every `Options` is: a client's, and each `changed` one.
        for name, value in _checked(vars(self)).items():
            object.__setattr__(self, name, value)

    def changed(self, given: ClientOptions) -> Options:
        """These options with the settings in `given` changed, every one of them checked;
        raises `ParameterError` naming the first that is wrong."""
        unknown = set(given) - set(ClientOptions.__annotations__)
        if unknown:
            raise ParameterError(sorted(unknown)[0], "not an option of the clients")
        settings = {k: v for k, v in given.items() if k not in SHARED | SHORTHANDS}
        changed = dataclasses.replace(self, **settings)  # type: ignore[arg-type]
        if "max_retries" in given:
            retries = given["max_retries"]
            if not is_whole(retries, 0):
                raise ParameterError("max_retries", "must be a whole number, 0 or more")
            policy = dataclasses.replace(changed.retry_policy, max_retries=retries)
            changed = dataclasses.replace(changed, retry_policy=policy)
        return changed


# The paths the client writes after `base_url` (`/v1/api/...`, `/v1/auth/...`): a base_url
# ending in one would have them twice. Any other path (a proxy's prefix) is kept.
_API_PATH = re.compile(r"/v\d+(?:/(?:api|integration_api|auth)(?:/.*)?)?")


def _check_base_path(base_url: str) -> None:
    parts = urlsplit(base_url)
    path = parts.path
    tail = re.search(r"/v\d+(?:/.*)?$", path)
    if tail is not None and _API_PATH.fullmatch(tail[0]):
        origin = f"{parts.scheme}://{parts.netloc}{path[: tail.start()]}"
        raise ParameterError(
            "base_url",
            f"give {origin!r}, without {tail[0]!r}: the client adds the API's paths "
            "(/v1/api/..., /v1/auth/...) itself",
        )


def _checked(settings: dict[str, object]) -> dict[str, object]:
    """The settings as set (`object`s: untyped callers may give anything, and `rate_limits`
    may be a preset's name), checked, as `Options` keeps them."""
    base_url = check_origin(settings["base_url"], "base_url")
    _check_base_path(base_url)
    cdn = check_origin(settings["asset_cdn_base_url"], "asset_cdn_base_url")
    wire_format = settings["wire_format"]
    if wire_format not in get_args(WireFormatName):
        raise ParameterError("wire_format", f"must be 'transit' or 'json', not {wire_format!r}")
    if not isinstance(settings["retry_policy"], RetryPolicy):
        raise ParameterError("retry_policy", "must be a RetryPolicy")
    version = settings["version"]
    if not isinstance(version, str) or not version:
        raise ParameterError("version", "must be the API version, e.g. 'v1'")
    if not is_whole(settings["max_response_bytes"], 1):
        raise ParameterError("max_response_bytes", "must be a whole number of bytes, 1 or more")
    limits = settings["rate_limits"]
    if isinstance(limits, str) and _is_preset(limits):
        limits = RateLimits.preset(limits)
    elif limits is not None and not isinstance(limits, RateLimits):
        raise ParameterError("rate_limits", "'dev', 'prod', a RateLimits, or None")
    most = settings["max_connections"]
    if most is not None and not is_whole(most, 1):
        raise ParameterError("max_connections", "a whole number, 1 or more, or None")
    budget, deadline = settings["credit_budget"], settings["deadline"]
    return {
        "base_url": base_url,
        "asset_cdn_base_url": cdn,
        "timeout": check_timeout(settings["timeout"]),
        "deadline": None if deadline is None else check_deadline(deadline),
        "rate_limits": limits,
        "credit_budget": None if budget is None else check_credit_budget(budget),
    }
