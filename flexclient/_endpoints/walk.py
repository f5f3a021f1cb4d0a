"""One walk of the endpoint table: every endpoint of both APIs, in table order.

Whatever lists the endpoints reads them here: the command line's `call` (its suggestions),
the fake marketplace (its routes), the docs site (its reference pages) and the tests (their
counts, which come from the table rather than a number to edit). Adding an endpoint is its
line in `flexclient._endpoints.table`; docs/development.md lists what else it may want.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from flexclient._endpoints.kinds import Bound, Endpoint, Group, GroupSlot
from flexclient._endpoints.table import IntegrationEndpoints, MarketplaceEndpoints

Api = Literal["marketplace", "integration"]

# Each API's table: the class its client is made from.
TABLES: Mapping[Api, type] = {
    "marketplace": MarketplaceEndpoints,
    "integration": IntegrationEndpoints,
}


@dataclass(frozen=True)
class TableEntry:
    """An endpoint as the table declares it: its API, its group and the declaration."""

    api: Api
    group: str
    endpoint: Endpoint[Any, Any]

    @property
    def name(self) -> str:
        """`group.endpoint`, as the command line and the docs name it: `listings.query`."""
        return f"{self.group}.{self.endpoint.name}"

    def bound(self, client: object) -> Bound:
        """The endpoint's method on `client` (a client of this entry's API)."""
        method: object = getattr(getattr(client, self.group), self.endpoint.name)
        assert isinstance(method, Bound), self.name  # every kind of the table is one
        return method


def api_of(client: object) -> Api:
    """The API whose table `client` (or its class) is made from."""
    cls = client if isinstance(client, type) else type(client)
    return "integration" if issubclass(cls, IntegrationEndpoints) else "marketplace"


def iter_endpoints(*apis: Api) -> Iterator[TableEntry]:
    """Every endpoint of the APIs named (of both when none is), in table order."""
    for api in apis or tuple(TABLES):
        for slot in vars(TABLES[api]).values():
            if _is_group(slot):
                for entry in vars(slot.cls).values():
                    if _is_endpoint(entry):
                        yield TableEntry(api, slot.name, entry)


@functools.cache
def by_path(api: Api) -> Mapping[str, TableEntry]:
    """An API's endpoints by their path below its prefix (`listings/query`), walked once."""
    return {entry.endpoint.path: entry for entry in iter_endpoints(api)}


# `isinstance` cannot name type arguments; these say what a table's attributes hold.
def _is_group(value: object) -> TypeGuard[GroupSlot[Group]]:
    return isinstance(value, GroupSlot)


def _is_endpoint(value: object) -> TypeGuard[Endpoint[Any, Any]]:
    return isinstance(value, Endpoint)


__all__ = ["TABLES", "Api", "TableEntry", "api_of", "by_path", "iter_endpoints"]
