"""A marketplace's asset trees and the Asset Delivery API that serves them, as a WSGI answer
that both `FakeAssetCDN` (a server of its own) and `FakeMarketplace` (on its own port) give.

The trees come in versions, as the real API keeps them: every `publish()` makes a new,
immutable version and moves the `latest` alias to it. The API answers

- `GET /v1/assets/pub/<client ID>/v/<version>/<path>`: one asset, `{"data": <its JSON>,
  "meta": {"version": ...}, "included": [...]}`;
- the same with `/<folder>/?assets=a.json,b/c.json` (or `/?assets=...`): several, as
  `jsonAsset` resources (`attributes.assetPath`, `attributes.data`);
- `/a/<alias>/...`: a 307 redirect to the version the alias names (or, with
  `redirect_aliases=False`, the answer itself).

`included` holds the resources that the data refers to with `{"_ref": {"type", "id"}}`. An
image in the tree (bytes rather than JSON: a PNG, JPEG, GIF, WebP or SVG file) is such a
resource, an `imageAsset` whose ID is the UUID at the end of its file name
(`design/branding/logo-<uuid>.svg`, as Sharetribe names them) or else one made from its path;
its variants' URLs are served under `/v1/assets/pub/<client ID>/images/<version>/<path>`.
Errors are the API's JSON error envelopes; an unknown client ID, version, alias or asset
answers 404.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import struct
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from werkzeug.wrappers import Request, Response

from flexclient._support.narrow import is_json_object, is_list

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
}
_ID_AT_END = re.compile(r"-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$")
_SVG_SIZE = re.compile(rb'<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"')
IMMUTABLE = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class ImageFile:
    """An image of the tree: its path, bytes, media type and size in pixels (0 if unknown)."""

    path: str
    content: bytes
    content_type: str
    width: int
    height: int

    @property
    def id(self) -> str:
        stem = Path(self.path).stem
        found = _ID_AT_END.search(stem)
        return found[1] if found else str(uuid.uuid5(uuid.NAMESPACE_URL, self.path))


@dataclass(frozen=True)
class AssetTree:
    """One immutable version of the asset tree: JSON assets by path (`content/x.json`, without
    the leading slash), the resources they may refer to by (type, id), and the images."""

    version: str
    assets: Mapping[str, Any]
    included: Mapping[tuple[str, str], Mapping[str, Any]]
    images: Mapping[str, ImageFile]


def image_size(content: bytes) -> tuple[int, int]:
    """The width and height a PNG or SVG file declares; (0, 0) for anything else."""
    if content[:8] == b"\x89PNG\r\n\x1a\n" and len(content) >= 24:
        width, height = struct.unpack(">II", content[16:24])
        return int(width), int(height)
    found = _SVG_SIZE.search(content[:2000])
    return (int(found[1]), int(found[2])) if found else (0, 0)


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


def read_asset_folder(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The assets in a folder, by their paths in it: each `.json` file's JSON, and each image
    as its bytes. Other files are left out. A file that is not valid JSON raises ValueError
    naming it."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"{root} is not a folder")
    assets: dict[str, Any] = {}
    for file in sorted(root.rglob("*")):
        relative = file.relative_to(root).as_posix()
        if not file.is_file() or any(part.startswith(".") for part in relative.split("/")):
            continue
        suffix = file.suffix.lower()
        if suffix == ".json":
            try:
                assets[relative] = json.loads(file.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ValueError(f"{file} is not valid JSON: {exc}") from None
        elif suffix in IMAGE_TYPES:
            assets[relative] = file.read_bytes()
    return assets


def default_assets() -> dict[str, Any]:
    """The fake's own asset tree (`flexclient/testing/default_assets/`): a whole marketplace's
    configuration for the web template, matching the demo data."""
    folder = resources.files("flexclient.testing") / "default_assets"
    with resources.as_file(folder) as path:
        return read_asset_folder(path)


class AssetTrees:
    """The asset tree versions of one client ID, and the Asset Delivery API's answers from
    them (see the module docstring)."""

    def __init__(
        self,
        client_id: str,
        assets: Mapping[str, Any],
        included: Iterable[Mapping[str, Any]] = (),
        *,
        redirect_aliases: bool = True,
    ) -> None:
        self.client_id = client_id
        self.redirect_aliases = redirect_aliases
        self._trees: dict[str, AssetTree] = {}
        self._order: list[str] = []
        self._aliases: dict[str, str] = {}
        self._lock = threading.Lock()
        self.publish(assets, included)

    def publish(self, assets: Mapping[str, Any], included: Iterable[Mapping[str, Any]] = ()) -> str:
        """Make a new version of the tree with these assets (path -> JSON data, or an image's
        bytes; a leading `/` is optional) and included resources; `latest` names it. Returns
        the version."""
        tree_assets: dict[str, Any] = {}
        images: dict[str, ImageFile] = {}
        for raw_path, data in assets.items():
            path = raw_path.lstrip("/")
            suffix = Path(path).suffix.lower()
            if isinstance(data, bytes) and suffix in IMAGE_TYPES:
                width, height = image_size(data)
                image = ImageFile(path, data, IMAGE_TYPES[suffix], width, height)
                images[image.id] = image
            elif isinstance(data, bytes):
                raise ValueError(f"{raw_path}: only images may be given as bytes")
            else:
                tree_assets[path] = copy.deepcopy(data)
        pool: dict[tuple[str, str], Mapping[str, Any]] = {}
        for resource in included:
            if not isinstance(resource.get("type"), str) or "id" not in resource:
                raise ValueError("an included resource needs a type and an id")
            pool[(resource["type"], str(resource["id"]))] = copy.deepcopy(dict(resource))
        with self._lock:
            number = len(self._order)
            digest = hashlib.sha256(
                json.dumps(
                    [number, tree_assets, sorted(images)], sort_keys=True, default=str
                ).encode()
            ).digest()
            version = "".join(_BASE62[b % 62] for b in digest[:16])
            self._trees[version] = AssetTree(version, tree_assets, pool, images)
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
        """The version `latest` names."""
        with self._lock:
            return self._aliases["latest"]

    def tree(self, version: str | None = None) -> AssetTree:
        """A version of the tree (by default the latest)."""
        with self._lock:
            return self._trees[version or self._aliases["latest"]]

    # --- the API ---------------------------------------------------------------------------

    def answer(self, request: Request, target: str) -> Response:
        """The Asset Delivery API's answer to `request` (`target`: its path and query as
        sent)."""
        if request.method not in ("GET", "HEAD"):
            return _error(405, "method-not-allowed", "Method Not Allowed")
        parts = request.path.split("/", 7)
        # ['', 'v1', 'assets', 'pub', client, 'a'|'v'|'images', alias or version, rest]
        if len(parts) < 8 or parts[1:4] != ["v1", "assets", "pub"]:
            return _error(404, "not-found", "Not Found")
        client, kind, name, rest = parts[4], parts[5], parts[6], parts[7]
        if client != self.client_id or kind not in ("a", "v", "images"):
            return _error(404, "not-found", "Not Found")
        with self._lock:
            version = self._aliases.get(name) if kind == "a" else name
            tree = self._trees.get(version or "")
        if tree is None:
            return _error(404, "not-found", f"No such {'alias' if kind == 'a' else 'version'}")
        if kind == "images":
            return self._image(tree, rest)
        if kind == "a" and self.redirect_aliases:
            query = request.query_string.decode("latin-1")
            raw_rest = target.split("?", 1)[0].split("/", 7)[-1]
            location = f"/v1/assets/pub/{client}/v/{tree.version}/{raw_rest}"
            headers = {"Location": location + (f"?{query}" if query else "")}
            return Response(b"", 307, headers={**headers, "Cache-Control": "no-cache"})
        cache = IMMUTABLE if kind == "v" else "public, max-age=10"
        host = request.host_url.rstrip("/")
        if rest and not rest.endswith("/"):
            if rest not in tree.assets:
                return _error(404, "asset-not-found", f"No asset /{rest}")
            data = tree.assets[rest]
            body = {
                "data": data,
                "meta": {"version": tree.version},
                "included": self._included(tree, [data], host),
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
        included = self._included(tree, [tree.assets[p] for p in found], host)
        return _json(
            {"data": data_list, "meta": {"version": tree.version}, "included": included}, cache
        )

    def _included(self, tree: AssetTree, values: list[Any], host: str) -> list[Mapping[str, Any]]:
        seen: dict[tuple[str, str], Mapping[str, Any]] = {}
        for value in values:
            for ref in _refs(value):
                if ref in seen:
                    continue
                if ref in tree.included:
                    seen[ref] = tree.included[ref]
                elif ref[0] == "imageAsset" and ref[1] in tree.images:
                    seen[ref] = self._image_asset(tree, tree.images[ref[1]], host)
        return list(seen.values())

    def _image_asset(self, tree: AssetTree, image: ImageFile, host: str) -> dict[str, Any]:
        url = f"{host}/v1/assets/pub/{self.client_id}/images/{tree.version}/{image.path}"
        # One file serves both sizes: a browser scales it to the size the page asks for.
        variants = {
            name: {"name": name, "url": url, "width": image.width * k, "height": image.height * k}
            for name, k in (("scaled", 1), ("scaled2x", 2))
        }
        return {
            "id": image.id,
            "type": "imageAsset",
            "attributes": {"assetPath": f"/{image.path}", "variants": variants},
        }

    def _image(self, tree: AssetTree, path: str) -> Response:
        image = next((i for i in tree.images.values() if i.path == path), None)
        if image is None:
            return _error(404, "asset-not-found", f"No image /{path}")
        headers = {"Content-Type": image.content_type, "Cache-Control": IMMUTABLE}
        return Response(image.content, 200, headers=headers)


def _json(body: Any, cache: str) -> Response:
    return Response(
        json.dumps(body),
        200,
        headers={"Content-Type": "application/json; charset=utf-8", "Cache-Control": cache},
    )


def _error(status: int, code: str, title: str) -> Response:
    body = {"errors": [{"status": status, "code": code, "title": title}]}
    return Response(json.dumps(body), status, headers={"Content-Type": "application/json"})
