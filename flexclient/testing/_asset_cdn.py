"""`FakeAssetCDN`: the Asset Delivery API, served over real HTTP on 127.0.0.1.

It holds a marketplace's asset tree in versions, as the real API does: every `publish()`
makes a new, immutable version and moves the `latest` alias to it. It answers

- `GET /v1/assets/pub/<client ID>/v/<version>/<path>`: one asset, `{"data": <its JSON>,
  "meta": {"version": ...}, "included": [...]}`;
- the same with `/<folder>/?assets=a.json,b/c.json` (or `/?assets=...`): several, as
  `jsonAsset` resources (`attributes.assetPath`, `attributes.data`);
- `/a/<alias>/...`: a 307 redirect to the version the alias names (or, with
  `redirect_aliases=False`, the answer itself).

`included` holds the assets that the data refers to with `{"_ref": {"type", "id"}}`, among
those given to `publish()` (a reference to another is left dangling). Errors are the API's
JSON error envelopes; an unknown client ID, version, alias or asset answers 404.

>>> with FakeAssetCDN({"content/translations.json": {"hello": "Hei"}}) as cdn:  # doctest: +SKIP
...     sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url)
...     sdk.asset_by_alias("content/translations.json").data.data
{'hello': 'Hei'}
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from werkzeug.wrappers import Request, Response

from flexclient._support.narrow import is_json_object, is_list
from flexclient.credits import usage_type
from flexclient.testing._loopback import LoopbackServer
from flexclient.testing._metering import Metered, Meters, wire_path

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class AssetTree:
    """One immutable version of the asset tree: assets by path (`content/x.json`, without
    the leading slash) and the resources they may refer to, by (type, id)."""

    version: str
    assets: Mapping[str, Any]
    included: Mapping[tuple[str, str], Mapping[str, Any]]


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


def _refs(value: object) -> Iterator[tuple[str, str]]:
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if is_json_object(item):
            ref = item.get("_ref")
            if is_json_object(ref):
                rtype = ref.get("type")
                if isinstance(rtype, str) and "id" in ref:
                    yield rtype, str(ref["id"])
            stack.extend(item.values())
        elif is_list(item):
            stack.extend(item)


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
        self.client_id: str = client_id or str(uuid.UUID(int=0xC11E47))
        self.redirect_aliases = redirect_aliases
        self._trees: dict[str, AssetTree] = {}
        self._order: list[str] = []
        self._aliases: dict[str, str] = {}
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._faults: list[_Fault] = []
        self._meters = Meters()
        super().__init__(port)
        self.publish(assets or {}, included)

    def __repr__(self) -> str:
        where = self.url if self._server is not None else "not started"
        return f"FakeAssetCDN({where}, versions={len(self._order)})"

    # --- content ---------------------------------------------------------------------------

    def publish(self, assets: Mapping[str, Any], included: Iterable[Mapping[str, Any]] = ()) -> str:
        """Make a new version of the tree with these assets (path -> JSON data; a leading
        `/` is optional) and included resources; `latest` names it. Returns the version."""
        tree_assets = {path.lstrip("/"): copy.deepcopy(data) for path, data in assets.items()}
        pool: dict[tuple[str, str], Mapping[str, Any]] = {}
        for resource in included:
            if not isinstance(resource.get("type"), str) or "id" not in resource:
                raise ValueError("an included resource needs a type and an id")
            pool[(resource["type"], str(resource["id"]))] = copy.deepcopy(dict(resource))
        with self._lock:
            number = len(self._order)
            digest = hashlib.sha256(
                json.dumps([number, tree_assets], sort_keys=True, default=str).encode()
            ).digest()
            version = "".join(_BASE62[b % 62] for b in digest[:16])
            self._trees[version] = AssetTree(version, tree_assets, pool)
            self._order.append(version)
            self._aliases["latest"] = version
        return version

    def set_alias(self, alias: str, version: str) -> None:
        """Make `alias` name `version` (`latest` is moved by every `publish()`)."""
        with self._lock:
            if version not in self._trees:
                raise KeyError(version)
            self._aliases[alias] = version

    @property
    def versions(self) -> list[str]:
        """Every version published, oldest first."""
        with self._lock:
            return list(self._order)

    @property
    def latest(self) -> str:
        with self._lock:
            return self._aliases["latest"]

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

    # --- serving ---------------------------------------------------------------------------

    # --- the API ---------------------------------------------------------------------------

    def _wsgi(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        target = environ.get("RAW_URI") or environ.get("REQUEST_URI") or request.full_path
        path = wire_path(environ, request.path)
        response = self._meters.answer(
            path, lambda: self._answer(request, str(target)), endpoint_exists=bool(usage_type(path))
        )
        return response(environ, start_response)

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
        if request.method not in ("GET", "HEAD"):
            return _error(405, "method-not-allowed", "Method Not Allowed")
        parts = request.path.split("/", 7)
        # ['', 'v1', 'assets', 'pub', client, 'a'|'v', alias or version, rest]
        if len(parts) < 8 or parts[1:4] != ["v1", "assets", "pub"] or parts[5] not in ("a", "v"):
            return _error(404, "not-found", "Not Found")
        client, kind, name, rest = parts[4], parts[5], parts[6], parts[7]
        if client != self.client_id or not kind:
            return _error(404, "not-found", "Not Found")
        with self._lock:
            version = self._aliases.get(name) if kind == "a" else name
            tree = self._trees.get(version or "")
        if tree is None:
            return _error(404, "not-found", f"No such {'alias' if kind == 'a' else 'version'}")
        if kind == "a" and self.redirect_aliases:
            query = request.query_string.decode("latin-1")
            raw_rest = target.split("?", 1)[0].split("/", 7)[-1]
            location = f"/v1/assets/pub/{client}/v/{tree.version}/{raw_rest}"
            headers = {"Location": location + (f"?{query}" if query else "")}
            return Response(b"", 307, headers={**headers, "Cache-Control": "no-cache"})
        cache = "public, max-age=31536000, immutable" if kind == "v" else "public, max-age=10"
        if rest and not rest.endswith("/"):
            if rest not in tree.assets:
                return _error(404, "asset-not-found", f"No asset /{rest}")
            data = tree.assets[rest]
            body = {
                "data": data,
                "meta": {"version": tree.version},
                "included": _included(tree, [data]),
            }
            return _json(body, cache)
        wanted = request.args.get("assets")
        if not wanted:
            return _error(400, "bad-request", "Give the assets to get in the assets parameter")
        found: list[str] = []
        for relative in wanted.split(","):
            path = rest + relative
            if path not in tree.assets:
                return _error(404, "asset-not-found", f"No asset /{path}")
            found.append(path)
        data_list = [
            {
                "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{tree.version}/{path}")),
                "type": "jsonAsset",
                "attributes": {"assetPath": f"/{path}", "data": tree.assets[path]},
            }
            for path in found
        ]
        included = _included(tree, [tree.assets[p] for p in found])
        return _json(
            {"data": data_list, "meta": {"version": tree.version}, "included": included}, cache
        )


def _included(tree: AssetTree, values: list[Any]) -> list[Mapping[str, Any]]:
    seen: dict[tuple[str, str], Mapping[str, Any]] = {}
    for value in values:
        for ref in _refs(value):
            if ref in tree.included and ref not in seen:
                seen[ref] = tree.included[ref]
    return list(seen.values())


def _json(body: Any, cache: str) -> Response:
    return Response(
        json.dumps(body),
        200,
        headers={"Content-Type": "application/json; charset=utf-8", "Cache-Control": cache},
    )


def _error(status: int, code: str, title: str) -> Response:
    body = {"errors": [{"status": status, "code": code, "title": title}]}
    return Response(json.dumps(body), status, headers={"Content-Type": "application/json"})
