"""`FakeAssetCDN`: the Asset Delivery API, served over real HTTP on 127.0.0.1, on a port of
its own (`FakeMarketplace` answers the same API on its port too).

The API and its versions are `flexclient.testing._asset_trees.AssetTrees`'s; this server adds
what tests of a client need: the requests it received, injected faults, and a meter.

>>> from flexclient import MarketplaceClient
>>> with FakeAssetCDN({"content/translations.json": {"hello": "Hei"}}) as cdn:
...     sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url)
...     sdk.asset_by_alias("content/translations.json").data.data
{'hello': 'Hei'}
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from werkzeug.wrappers import Request, Response

from flexclient.credits import usage_type
from flexclient.testing import _cors
from flexclient.testing._asset_trees import AssetTrees
from flexclient.testing._loopback import LoopbackServer
from flexclient.testing._metering import Metered, Meters, wire_path


@dataclass(frozen=True)
class RecordedRequest:
    """A request the fake received: method, the path and query as sent, and the headers."""

    method: str
    target: str
    headers: dict[str, str] = field(default_factory=lambda: {})


@dataclass
class _Fault:
    status: int
    body: bytes
    headers: dict[str, str]
    times: int


class FakeAssetCDN(Metered, LoopbackServer):
    """The Asset Delivery API for one client ID, on 127.0.0.1 (see the module docstring).

    `assets` (path -> JSON data) and `included` (resources such as `imageAsset`s, each with
    `id` and `type`) make the first version. Options: `client_id` (a fixed one by default, the
    fake marketplace's), `port` (0 picks a free one), `redirect_aliases`.

    `usage` counts what its answers would cost, a meter of its own (it is not a part of any
    `FakeMarketplace`): each request as a Simple asset read (0.5 credits), billed by its
    status as Sharetribe bills (a redirect from an alias, 3xx, is not; a missing asset, 404,
    is), under the asset path template (`/v1/assets/pub/{clientId}/v/...`).

    >>> with FakeAssetCDN({"content/x.json": {}}) as cdn:  # doctest: +SKIP
    ...     sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url)
    ...     sdk.asset_by_alias("content/x.json")  # a redirect, then the asset
    ...     cdn.usage
    <UsageMeter 2 requests, 0.5 credits>
    """

    _what = "the fake asset CDN"

    def __init__(
        self,
        assets: Mapping[str, Any] | None = None,
        *,
        included: Sequence[Mapping[str, Any]] = (),
        client_id: str | None = None,
        port: int = 0,
        redirect_aliases: bool = True,
    ) -> None:
        self.trees: AssetTrees = AssetTrees(
            client_id or str(uuid.UUID(int=0xC11E47)),
            assets or {},
            included,
            redirect_aliases=redirect_aliases,
        )
        self.client_id: str = self.trees.client_id
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._faults: list[_Fault] = []
        self._meters = Meters()
        super().__init__(port)

    def __repr__(self) -> str:
        where = self.url if self._server is not None else "not started"
        return f"FakeAssetCDN({where}, versions={len(self.versions)})"

    @property
    def redirect_aliases(self) -> bool:
        """Whether an alias is answered with a redirect to its version."""
        return self.trees.redirect_aliases

    @redirect_aliases.setter
    def redirect_aliases(self, value: bool) -> None:
        self.trees.redirect_aliases = value

    # --- content ---------------------------------------------------------------------------

    def publish(self, assets: Mapping[str, Any], included: Iterable[Mapping[str, Any]] = ()) -> str:
        """Make a new version of the tree with these assets (path -> JSON data, or an image's
        bytes; a leading `/` is optional) and included resources; `latest` names it. Returns
        the version."""
        return self.trees.publish(assets, included)

    def set_alias(self, alias: str, version: str) -> None:
        """Make `alias` name `version` (`latest` is moved by every `publish()`)."""
        self.trees.set_alias(alias, version)

    @property
    def versions(self) -> list[str]:
        """Every version published, oldest first."""
        return self.trees.versions

    @property
    def latest(self) -> str:
        """The version `latest` names."""
        return self.trees.latest

    # --- test controls ---------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received, as sent (method, path and query, headers)."""
        with self._lock:
            return list(self._requests)

    def inject(
        self,
        status: int,
        body: bytes | str | dict[str, Any] = b"",
        *,
        headers: Mapping[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next `times` requests with `status` and `body` (a dict as JSON)."""
        if isinstance(body, dict):
            raw = json.dumps(body).encode()
            kinds = {"Content-Type": "application/json"}
        else:
            raw = body.encode() if isinstance(body, str) else body
            kinds = {"Content-Type": "text/plain"}
        with self._lock:
            self._faults.append(_Fault(status, raw, {**kinds, **(headers or {})}, times))

    # --- the API ---------------------------------------------------------------------------

    def _wsgi(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        target = environ.get("RAW_URI") or environ.get("REQUEST_URI") or request.full_path
        path = wire_path(environ, request.path)
        response = _cors.preflight(request) or self._meters.answer(
            path, lambda: self._answer(request, str(target)), endpoint_exists=bool(usage_type(path))
        )
        return _cors.allow(request, response)(environ, start_response)

    def _answer(self, request: Request, target: str) -> Response:
        with self._lock:
            self._requests.append(
                RecordedRequest(request.method, target, {k: v for k, v in request.headers.items()})
            )
            fault = self._faults[0] if self._faults else None
            if fault is not None:
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.pop(0)
        if fault is not None:
            return Response(fault.body, fault.status, headers=fault.headers)
        return self.trees.answer(request, target)
