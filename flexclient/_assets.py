"""The Asset Delivery API: a marketplace's assets (listing types, categories, translations,
branding, content pages) as JSON, from the asset CDN.

Requests are sent as the official SDK sends them: `GET <asset_cdn_base_url>/v1/assets/pub/
<client ID>/a/<alias>/<path>` (or `/v/<version>/`), `Accept: application/json`, no
credential (the client ID in the path is the authentication). Several assets are one request
at their longest common directory, with the rest of each path, sorted, in `assets=`. The CDN's
redirects are followed, as the SDK follows them, a bounded number of hops, over HTTPS (or to
loopback), through the credential-free session of `flexclient._file_transfer`.

Asset data refers to other assets with `{"_ref": {"type": "imageAsset", "id": "..."}}`; the
answer's `included` holds them. `JsonAsset.resolved()` puts each in the place of its reference,
as the web template's `denormalizeAssetData` does, as typed models (`ImageAsset`), and
raises `AssetReferenceError` for a reference to something not included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from flexclient._endpoints.kinds import Response
from flexclient._errors import AssetReferenceError, ParameterError, UnexpectedResponseError
from flexclient._file_transfer import Offsite, OffsiteUrl, offsite_url
from flexclient._http.transport import Metering, RawResponse, Timeout
from flexclient._support.json_reading import NestingError, read_json
from flexclient._support.narrow import is_dict, is_json_object, is_list, is_mapping, is_sequence
from flexclient._wire.query import write_query
from flexclient._wire.values import check_text
from flexclient.models._resource import wire_name

MAX_NESTING = 500
"""Asset data nested deeper than this is refused when read."""

# A path is percent-encoded as Node's URL parser encodes the official SDK's: space, the
# double quote, angle brackets, backtick and braces, and non-ASCII as UTF-8; everything else
# printable goes as it is, `%` included. Also `^`, `|`, `[` and `]`, which Node sends as they
# are: the HTTP library (urllib3) encodes them anyway, and servers read both forms alike.
_PATH_SAFE = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in '"<>`{}^|[]')
# What a path may not hold: it would end the path (`?`, `#`), be read as a separator (`\`),
# or is not text.
_FORBIDDEN = re.compile(r"[?#\\\x00-\x1f\x7f]")


class ImageAssetVariant(BaseModel):
    """One size of an image asset: `url`, `width`, `height`."""

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", frozen=True)

    url: str
    width: int | None = None
    height: int | None = None


class ImageAssetAttributes(BaseModel):
    """An image asset's `asset_path` and its `variants` by name."""

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow", frozen=True, alias_generator=wire_name, populate_by_name=True
    )

    asset_path: str | None = None
    variants: dict[str, ImageAssetVariant] = Field(default_factory=dict)


class ImageAsset(BaseModel):
    """An image an asset refers to (`type` `imageAsset`), e.g. a logo in `design/branding.json`.

    >>> logo = branding.resolved()["logo"]  # doctest: +SKIP
    >>> logo.attributes.variants["scaled"].url  # doctest: +SKIP
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", frozen=True)

    id: str
    type: Literal["imageAsset"] = "imageAsset"
    attributes: ImageAssetAttributes = Field(default_factory=ImageAssetAttributes)


class AssetResource(BaseModel):
    """An included asset of a type this version does not model; its attributes as sent."""

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", frozen=True)

    id: str
    type: str
    attributes: dict[str, Any] = Field(default_factory=dict)


IncludedAsset = ImageAsset | AssetResource

_DROP = object()


def _reference(value: object) -> tuple[str, str | int] | None:
    """The type and id a reference's `_ref` value names, or None if it is not one."""
    if not is_mapping(value):
        return None
    ref_type, ref_id = value.get("type"), value.get("id")
    if isinstance(ref_type, str) and isinstance(ref_id, str | int) and not isinstance(ref_id, bool):
        return ref_type, ref_id
    return None


@dataclass(frozen=True, repr=False)
class JsonAsset:
    """One asset: its `path` (`/content/translations.json`), its `data` as the API sent it,
    the asset tree `version` it comes from, and the assets it refers to (`included`).

    >>> res = sdk.asset_by_alias("content/translations.json")  # doctest: +SKIP
    >>> res.data.version, res.data.data["TopbarDesktop.login"]  # doctest: +SKIP
    ('ESz8ULLX68PiENQV', 'Log in')
    """

    path: str
    data: Any
    version: str | None = None
    included: tuple[IncludedAsset, ...] = ()
    id: str | None = None
    type: str = "jsonAsset"

    def __repr__(self) -> str:
        return f"JsonAsset({self.path!r}, version={self.version!r}, included={len(self.included)})"

    def resolved(self, *, dangling: Literal["raise", "drop"] = "raise") -> Any:
        """A copy of `data` with each reference (`{"_ref": {"type": ..., "id": ...}}`, in a
        mapping or a list) replaced by the included asset it names: an `ImageAsset`, or an
        `AssetResource` for another type.

        A reference to an asset that is not included raises `AssetReferenceError`; with
        `dangling="drop"` it is left out instead (`None` in a list), as the web template
        does."""
        index = {(r.type, r.id): r for r in self.included}

        def walk(value: object, where: str) -> object:
            if is_mapping(value):
                ref = _reference(value.get("_ref"))
                if ref is not None:
                    ref_type, ref_id = ref
                    found = index.get((ref_type, str(ref_id)))
                    if found is not None:
                        return found
                    if dangling == "raise":
                        raise AssetReferenceError(self.path, where, ref_type, ref_id)
                    return _DROP
                out: dict[object, object] = {}
                for key, item in value.items():
                    made = walk(item, f"{where}.{key}" if where else str(key))
                    if made is not _DROP:
                        out[key] = made
                return out
            if is_list(value):
                made_list = [walk(item, f"{where}[{i}]") for i, item in enumerate(value)]
                return [None if item is _DROP else item for item in made_list]
            return value

        if dangling not in ("raise", "drop"):
            raise ParameterError("dangling", "must be 'raise' or 'drop'")
        result = walk(self.data, "")
        return None if result is _DROP else result


@dataclass(frozen=True, repr=False)
class AssetSet(Mapping[str, JsonAsset]):
    """The assets of one `assets_by_alias` or `assets_by_version` call, by path.

    `sets["content/footer.json"]` and `sets["/content/footer.json"]` are the same `JsonAsset`;
    iterating gives the paths in the order the API sent them (not necessarily the order
    asked). All come from one asset tree `version`.
    """

    version: str | None
    assets: tuple[JsonAsset, ...]
    included: tuple[IncludedAsset, ...] = ()
    _by_path: dict[str, JsonAsset] = field(default_factory=dict[str, JsonAsset], compare=False)

    def __post_init__(self) -> None:
        self._by_path.update((a.path, a) for a in self.assets)

    def __repr__(self) -> str:
        return f"AssetSet({list(self._by_path)!r}, version={self.version!r})"

    def __getitem__(self, path: object) -> JsonAsset:
        # `object`: a key of another type (from untyped code) is a KeyError, as in a dict.
        if not isinstance(path, str):
            raise KeyError(path)
        key = path if path.startswith("/") else f"/{path}"
        try:
            return self._by_path[key]
        except KeyError:
            raise KeyError(
                f"no asset {key!r} in this answer; it has {list(self._by_path)}"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_path)

    def __len__(self) -> int:
        return len(self._by_path)


# --- requests -------------------------------------------------------------------------------


def _path_text(path: object, param: str) -> str:
    if not isinstance(path, str):
        raise ParameterError(param, f"an asset path is a string, not {type(path).__name__}")
    return path


def check_asset_path(path: object, param: str = "path") -> str:
    """An asset path without its leading `/` (as the SDK strips it), checked: text naming a
    file (not ending in `/`), without empty, `.` or `..` segments, `?`, `#`, `\\` or control
    characters."""
    path = _path_text(path, param)
    relative = path[1:] if path.startswith("/") else path
    if not relative:
        raise ParameterError(param, "an asset path cannot be empty")
    if relative.endswith("/"):
        raise ParameterError(param, f"an asset path names a file, not a folder: {path!r}")
    if _FORBIDDEN.search(relative):
        raise ParameterError(
            param, f"an asset path cannot hold ?, #, \\ or control characters: {path!r}"
        )
    if any(seg in ("", ".", "..") for seg in relative.split("/")):
        raise ParameterError(param, f"an asset path cannot have empty, '.' or '..' parts: {path!r}")
    check_text(relative, param)
    return relative


def _check_segment(value: object, param: str) -> str:
    if not isinstance(value, str) or not value:
        raise ParameterError(param, "must be a non-empty string")
    if value in (".", "..") or "/" in value or _FORBIDDEN.search(value):
        raise ParameterError(param, f"cannot hold /, ?, #, \\ or control characters: {value!r}")
    check_text(value, param)
    return value


def _encode(path: str) -> str:
    return quote(path, safe=_PATH_SAFE)


def _utf16_order(text: str) -> bytes:
    # JavaScript sorts strings by UTF-16 code units; big-endian UTF-16 bytes sort the same.
    return text.encode("utf-16-be")


def canonical_asset_paths(paths: Sequence[str]) -> tuple[str, list[str]]:
    """The common folder of several asset paths and the rest of each, as the official SDK
    computes them: duplicates dropped, the leading `/` stripped, sorted as JavaScript sorts
    strings, and the folder path shared by the first and the last of them.

    >>> canonical_asset_paths(["/content/b.json", "content/a.json", "content/sub/c.json"])
    ('content/', ['a.json', 'b.json', 'sub/c.json'])
    >>> canonical_asset_paths(["a.json", "content/b.json"])
    ('', ['a.json', 'content/b.json'])
    """
    unique = list(dict.fromkeys(paths))
    stripped = sorted((p[1:] if p.startswith("/") else p for p in unique), key=_utf16_order)
    parts = [p.split("/") for p in stripped]
    prefix = ""
    if len(parts) == 1:
        prefix = "/".join(parts[0][:-1]) + "/" if len(parts[0]) > 1 else ""
    elif parts:
        first, last = parts[0], parts[-1]
        while len(first) > 1 and len(last) > 1 and first[0] == last[0]:
            prefix += first[0] + "/"
            first, last = first[1:], last[1:]
    return prefix, [p[len(prefix) :] for p in stripped]


def _checked_paths(paths: object) -> list[str]:
    """The `paths` of a call for several assets (typed `object`: checked for untyped callers
    too), each checked."""
    if isinstance(paths, str) or not is_sequence(paths):
        raise ParameterError("paths", "give a list of asset paths")
    if not paths:
        raise ParameterError("paths", "give at least one asset path")
    checked: list[str] = []
    for i, item in enumerate(paths):
        where = f"paths[{i}]"
        p = _path_text(item, where)
        check_asset_path(p, where)
        if "," in p:
            # The API reads the `assets` parameter as a comma-separated list.
            raise ParameterError(where, f"a path of several assets cannot hold a comma: {p!r}")
        checked.append(p)
    return checked


@dataclass(frozen=True)
class AssetRequest:
    """One request to the asset CDN: the URL (path and `assets=` query) and what it asks."""

    url: OffsiteUrl
    by: Literal["alias", "version"]
    many: bool
    path: str = ""
    """The one path asked, with its leading `/` (not for several)."""


def asset_request(
    base_url: str,
    api_version: str,
    client_id: str,
    *,
    alias: str | None = None,
    version: str | None = None,
    path: str | None = None,
    paths: Sequence[str] | None = None,
) -> AssetRequest:
    """The request for one call, every part checked (a `ParameterError` naming it)."""
    if alias is not None:
        by: Literal["alias", "version"] = "alias"
        segment = f"a/{_encode(_check_segment(alias, 'alias'))}"
    else:
        by = "version"
        segment = f"v/{_encode(_check_segment(version, 'version'))}"
    client = _encode(_check_segment(client_id, "client_id"))
    query = ""
    if paths is None:
        relative_path = check_asset_path(path)
        asset_path = _encode(relative_path)
        many = False
    else:
        prefix, relative = canonical_asset_paths(_checked_paths(paths))
        asset_path = _encode(prefix)
        query = write_query({"assets": relative})
        many = True
        relative_path = ""
    api = _encode(_check_segment(api_version, "options.version"))
    url = f"{base_url.rstrip('/')}/{api}/assets/pub/{client}/{segment}/{asset_path}"
    checked = offsite_url(url, "asset_cdn_base_url")
    asked = f"/{relative_path}" if relative_path else ""
    return AssetRequest(OffsiteUrl(checked.origin, checked.path, query), by, many, asked)


# --- answers --------------------------------------------------------------------------------


def _depth_exceeds(value: object, limit: int) -> bool:
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[object]
        if is_dict(item):
            children = item.values()
        elif is_list(item):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _member(value: object, key: str) -> object:
    """`value[key]` of a JSON object; None if `value` is no object or has no `key`."""
    return value.get(key) if is_json_object(value) else None


def _included(raw: list[object]) -> tuple[IncludedAsset, ...]:
    out: list[IncludedAsset] = []
    for i, item in enumerate(raw):
        if not is_json_object(item):
            raise ValueError(f"included[{i}]: expected an object, got {type(item).__name__}")
        try:
            if item.get("type") == "imageAsset":
                out.append(ImageAsset.model_validate(item))
            else:
                out.append(AssetResource.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ValueError(f"included[{i}].{where}: {first['msg']}") from None
    return tuple(out)


_VERSION_IN_PATH = re.compile(r"/assets/pub/[^/]+/v/([^/]+)/")


def read_assets(raw: RawResponse, final: OffsiteUrl, request: AssetRequest) -> JsonAsset | AssetSet:
    """An answer of the asset CDN as a `JsonAsset` (one asked) or an `AssetSet` (several);
    an `UnexpectedResponseError`, with the status and body, if it is not one."""
    from flexclient._base_client import api_error  # the error for an answer, as for the API's

    if not 200 <= raw.status < 300:
        raise api_error(raw)
    try:
        try:
            body: object = read_json(raw.content)
        except NestingError:
            raise
        except ValueError:
            kind = raw.headers.get("Content-Type", "")
            raise ValueError(f"the body is not JSON (Content-Type {kind!r})") from None
        if not is_json_object(body):
            raise ValueError(f"expected a JSON object, got {type(body).__name__}")
        if _depth_exceeds(body, MAX_NESTING):
            raise ValueError(f"the data is nested more than {MAX_NESTING} levels deep")
        meta = body.get("meta")
        if meta is not None and not is_json_object(meta):
            raise ValueError("meta: expected an object")
        version = _member(meta, "version")
        if version is not None and not isinstance(version, str):
            raise ValueError("meta.version: expected a string")
        if version is None:
            # Without it in the answer, the version in the (redirected) URL, if any.
            found = _VERSION_IN_PATH.search(final.path)
            version = found.group(1) if found else None
        included_raw = body.get("included")
        if included_raw is not None and not is_list(included_raw):
            raise ValueError("included: expected a list")
        included = _included(included_raw or [])
        data = body.get("data")
        if not request.many:
            return JsonAsset(request.path, data, version, included)
        if not is_list(data):
            raise ValueError(f"data: expected a list of assets, got {type(data).__name__}")
        assets: list[JsonAsset] = []
        for i, item in enumerate(data):
            attributes = _member(item, "attributes")
            path = _member(attributes, "assetPath")
            if not isinstance(path, str):
                raise ValueError(f"data[{i}]: expected an asset with attributes.assetPath")
            item_id = _member(item, "id")
            assets.append(
                JsonAsset(
                    path=path,
                    data=_member(attributes, "data"),
                    version=version,
                    included=included,
                    id=item_id if isinstance(item_id, str) else None,
                    type=str(_member(item, "type") or "jsonAsset"),
                )
            )
        return AssetSet(version=version, assets=tuple(assets), included=included)
    except ValueError as exc:
        raise api_error(raw, UnexpectedResponseError, str(exc)) from None


def fetch_assets(
    offsite: Offsite, request: AssetRequest, timeout: Timeout | None, metering: Metering
) -> Response[Any]:
    """Send `request` to the asset CDN (following its redirects) and read the answer; each
    request is checked and recorded by `metering` (the Asset Delivery API bills its reads)."""
    raw, final = offsite.get(
        request.url, headers={"Accept": "application/json"}, timeout=timeout, metering=metering
    )
    return Response(
        status=raw.status,
        status_text=raw.reason,
        headers=raw.headers,
        data=read_assets(raw, final, request),
        retries=raw.retries,
    )
