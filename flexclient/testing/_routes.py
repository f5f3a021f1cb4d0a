"""Which handler answers which request: the endpoint table (`flexclient._endpoints.table`) is the
only list of endpoints. A request's path finds its entry in the table, and that entry (the
`Endpoint` object itself) finds the handler that registered for it with `handles`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from flexclient._endpoints.kinds import Endpoint, Group, GroupSlot
from flexclient._endpoints.table import IntegrationEndpoints, MarketplaceEndpoints
from flexclient.testing._render import Api

if TYPE_CHECKING:
    from flexclient.testing._call import Call

Handler = Callable[["Call"], dict[str, Any]]
AnyEndpoint = Endpoint[Any, Any]

TABLES: dict[Api, type] = {"marketplace": MarketplaceEndpoints, "integration": IntegrationEndpoints}
# Each API's segment of the URL path: /v1/api/..., /v1/integration_api/...
SEGMENTS: dict[Api, str] = {"marketplace": "api", "integration": "integration_api"}
API_OF_SEGMENT: dict[str, Api] = {segment: api for api, segment in SEGMENTS.items()}


@dataclass(frozen=True)
class Route:
    """An endpoint of one API, as the table declares it, and the group it is in."""

    api: Api
    group: str
    endpoint: AnyEndpoint


def routes(api: Api) -> Iterator[Route]:
    """Every endpoint of an API, from its table."""
    for slot in vars(TABLES[api]).values():
        if _is_group(slot):
            for entry in vars(slot.cls).values():
                if _is_endpoint(entry):
                    yield Route(api, slot.name, entry)


# `isinstance` cannot name type arguments; these say what a table's attributes hold.
def _is_group(value: object) -> TypeGuard[GroupSlot[Group]]:
    return isinstance(value, GroupSlot)


def _is_endpoint(value: object) -> TypeGuard[AnyEndpoint]:
    return isinstance(value, Endpoint)


# An API's endpoints by their path below its prefix (`listings/query`).
BY_PATH: dict[Api, dict[str, Route]] = {
    api: {route.endpoint.path: route for route in routes(api)} for api in TABLES
}


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
