"""Which handler answers which request: the endpoint table (`flexclient._endpoints.table`) is the
only list of endpoints. A request's path finds its entry in the table (`by_path` of
`flexclient._endpoints.walk`), and that entry (the `Endpoint` object itself) finds the handler
that registered for it with `handles`; an entry no handler registered for answers 501.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flexclient._endpoints.kinds import Endpoint
from flexclient.testing._render import Api

if TYPE_CHECKING:
    from flexclient.testing._call import Call

Handler = Callable[["Call"], dict[str, Any]]
AnyEndpoint = Endpoint[Any, Any]

# Each API's segment of the URL path: /v1/api/..., /v1/integration_api/...
SEGMENTS: dict[Api, str] = {"marketplace": "api", "integration": "integration_api"}
API_OF_SEGMENT: dict[str, Api] = {segment: api for api, segment in SEGMENTS.items()}


@dataclass(frozen=True)
class Registered:
    handler: Handler
    # The handler filters results by extended data: `pub_*`, `meta_*`, ... query keys.
    extended_data_filters: bool


_HANDLERS: dict[AnyEndpoint, Registered] = {}


def handles(
    *endpoints: AnyEndpoint, extended_data_filters: bool = False
) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of these endpoints of the table."""

    def register(handler: Handler) -> Handler:
        for endpoint in endpoints:
            if endpoint in _HANDLERS:
                raise ValueError(f"{endpoint!r} has two handlers")
            _HANDLERS[endpoint] = Registered(handler, extended_data_filters)
        return handler

    return register


def handler_for(endpoint: AnyEndpoint) -> Registered | None:
    return _HANDLERS.get(endpoint)
