"""Stored records -> API resources: what each API and each caller sees of them, `include`,
`fields.*` and image variants.

A resource's attributes are its record's, under the model's wire names; the view's own model
(`user` or `currentUser`) says which fields it has, and the tables below what a caller may
not see of them.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from flexclient._support.narrow import is_mapping
from flexclient.testing import _state as s
from flexclient.testing._schema import attributes_model, relations, wire

Api = Literal["marketplace", "integration"]
Refs = dict[str, s.Link]
Resource = dict[str, Any]

# The types under which the Marketplace API shows a resource to its owner, and the type the
# resource has for everyone else (and is stored as).
OWNER_TYPES = {
    "currentUser": "user",
    "ownListing": "listing",
    "ownFile": "file",
    "ownFileDownload": "fileDownload",
}

# What the Marketplace API shows only to a resource's owner, under the owner's type; the
# operator (the Integration API) sees all of it. Wire names; dots reach into nested parts.
OWNER_ONLY: dict[str, frozenset[str]] = {
    "user": frozenset(
        {
            "email",
            "emailVerified",
            "pendingEmail",
            "state",
            "stripeConnected",
            "identityProviders",
            "profile.firstName",
            "profile.lastName",
            "profile.protectedData",
            "profile.privateData",
        }
    ),
    "listing": frozenset({"privateData"}),
}

# What only the operator sees (a user sees their own permissions as the
# `effectivePermissionSet` resource instead).
OPERATOR_ONLY: dict[str, frozenset[str]] = {"user": frozenset({"permissions"})}


STANDARD_VARIANTS: dict[str, tuple[int, int]] = {
    "default": (750, 750),
    "square-small": (240, 240),
    "square-small2x": (480, 480),
    "landscape-crop": (800, 600),
    "scaled-medium": (750, 750),
}


def _retyped(link: s.Link, rtype: str) -> s.Link:
    if isinstance(link, list):
        return [{**r, "type": rtype} for r in link]
    return {**link, "type": rtype} if link is not None else None


def stored_type(rtype: str) -> str:
    """The type a resource of type `rtype` is stored as (`ownListing` -> `listing`)."""
    return OWNER_TYPES.get(rtype, rtype)


def parse_object_query(text: str) -> dict[str, str]:
    """`w:640;h:1280;fit:scale` -> {"w": "640", ...}."""
    out: dict[str, str] = {}
    for part in text.split(";"):
        key, sep, value = part.partition(":")
        if sep:
            out[key] = value
    return out


def select(attrs: Mapping[str, Any], paths: Iterable[str]) -> dict[str, Any]:
    """The attributes that sparse `fields.<type>` paths ask for, as the API sends them.

    `title` keeps that attribute whole; a dotted path keeps only that part of a map
    (`publicData.category`, `profile.displayName`, `variants.square-small`); the rest is
    absent, not empty. A map asked for only by keys it lacks is sent as `{}` here: it was
    asked for, and nothing of it matched.
    """
    whole: set[str] = set()
    parts: dict[str, list[str]] = {}
    for path in paths:
        head, dot, rest = path.partition(".")
        if dot:
            parts.setdefault(head, []).append(rest)
        else:
            whole.add(head)
    out: dict[str, Any] = {}
    for key, value in attrs.items():
        if key in whole:
            out[key] = value
        elif key in parts:
            out[key] = select(value, parts[key]) if is_mapping(value) else value
    return out


def without(attrs: Mapping[str, Any], paths: Iterable[str]) -> dict[str, Any]:
    """`attrs` less the dotted paths named."""
    out = dict(attrs)
    for path in paths:
        head, dot, rest = path.partition(".")
        if not dot:
            out.pop(head, None)
        elif isinstance(out.get(head), Mapping):
            out[head] = without(out[head], [rest])
    return out


class Renderer:
    """Renders resources for one request: its API, its user, and its query parameters."""

    def __init__(
        self,
        state: s.State,
        base_url: str,
        api: Api,
        viewer: uuid.UUID | None,
        params: Mapping[str, str],
    ) -> None:
        self.state = state
        self.base_url = base_url
        self.api = api
        self.viewer = viewer
        self.params = params

    def resource(self, record: s.Record[Any], as_type: str | None = None) -> tuple[Resource, Refs]:
        """A record as a resource of type `as_type` (by default the type it is stored as)."""
        rtype = as_type or record.type
        attrs = self._attributes(record, rtype)
        return self._res(rtype, record.id, attrs), self._relationships(record, rtype)

    def _relationships(self, record: s.Record[Any], rtype: str) -> Refs:
        """The record's relationships, and every other one its view's model declares (empty
        until linked). A relationship the model names after the owner's view of what it
        refers to (a stock adjustment's `ownListing`) is the stored link to the resource
        (`listing`), under that name and type in the Marketplace API."""
        refs: Refs = dict(record.relationships)
        for name, (many, target) in relations(rtype).items():
            if name in refs:
                continue
            twin = stored_type(target) if target else None
            if twin is not None and twin != name and twin in refs:
                if self.api == "marketplace":
                    refs[name] = _retyped(refs.pop(twin), target or twin)
                continue
            refs[name] = [] if many else None
        return refs

    def _attributes(self, record: s.Record[Any], rtype: str) -> dict[str, Any]:
        values: dict[str, Any] = wire(record.attributes)
        model = attributes_model(rtype)
        if model.model_fields:  # the view's model names the fields it has
            kept = set(record.attributes.model_extra or {})
            kept |= {info.alias or name for name, info in model.model_fields.items()}
            values = {k: v for k, v in values.items() if k in kept}
        hidden: set[str] = set()
        if self.api == "marketplace":
            hidden |= OPERATOR_ONLY.get(record.type, frozenset())
            if rtype == record.type:  # not the owner's view
                hidden |= OWNER_ONLY.get(record.type, frozenset())
        values = without(values, hidden)
        if record.type == "image":
            values["variants"] = self._variants(record)
        return values

    def by_ref(self, rtype: str, rid: uuid.UUID) -> tuple[Resource, Refs] | None:
        """The view of a referenced resource, or None when it no longer exists."""
        record = self.state.find(stored_type(rtype), rid)
        return self.resource(record, rtype) if record is not None else None

    def _variants(self, image: s.Record[Any]) -> dict[str, Any]:
        variants: dict[str, Any] = {}
        for name in self._variant_names():
            width, height = self._variant_size(name, self.state.blobs.get(image.id))
            url = f"{self.base_url}/images/{image.id}/{name}"
            variants[name] = {"name": name, "width": width, "height": height, "url": url}
        return variants

    # --- include and sparse fields ---------------------------------------------------------

    def document(self, primary: Iterable[tuple[Resource, Refs]], many: bool) -> dict[str, Any]:
        """The envelope's data and included, following the request's `include` paths."""
        tree = self._include_tree()
        included: dict[tuple[str, uuid.UUID], tuple[Resource, Refs]] = {}
        data: list[Resource] = []
        for res, refs in primary:
            self._apply(res, refs, tree, included)
            data.append(res)
        body: dict[str, Any] = {"data": data if many else (data[0] if data else None)}
        if included:
            body["included"] = [res for res, _ in included.values()]
        return body

    def _include_tree(self) -> dict[str, Any]:
        tree: dict[str, Any] = {}
        for path in filter(None, self.params.get("include", "").split(",")):
            node = tree
            for part in path.split("."):
                node = node.setdefault(part, {})
        return tree

    def _apply(
        self,
        res: Resource,
        refs: Refs,
        tree: Mapping[str, Any],
        included: dict[tuple[str, uuid.UUID], tuple[Resource, Refs]],
    ) -> None:
        for name, subtree in tree.items():
            if name not in refs:
                continue
            data = refs[name]
            res.setdefault("relationships", {})[name] = {"data": data}
            targets = data if isinstance(data, list) else [data] if data is not None else []
            limit = self.params.get(f"limit.{name}")
            if limit is not None and limit.isdigit() and isinstance(data, list):
                targets = targets[: int(limit)]
                res["relationships"][name] = {"data": targets}
            for target in targets:
                key = (target["type"], target["id"])
                if key not in included:
                    rendered = self.by_ref(*key)
                    if rendered is None:
                        continue
                    included[key] = rendered
                self._apply(*included[key], subtree, included)

    def _res(self, rtype: str, rid: uuid.UUID, attrs: dict[str, Any]) -> Resource:
        fields = self.params.get(f"fields.{rtype}")
        if fields is not None:
            # `none` names no attribute, which is how the API reads it: no attributes at all.
            attrs = select(attrs, fields.split(","))
        return {"id": rid, "type": rtype, "attributes": attrs}

    def _variant_names(self) -> list[str]:
        fields = self.params.get("fields.image")
        if fields is None:
            return list(STANDARD_VARIANTS)
        return [f.removeprefix("variants.") for f in fields.split(",") if f.startswith("variants.")]

    def _variant_size(self, name: str, blob: s.Blob | None) -> tuple[int, int]:
        custom = self.params.get(f"imageVariant.{name}")
        if custom is not None:
            spec = parse_object_query(custom)
            return int(spec.get("w", "0") or 0), int(spec.get("h", "0") or 0)
        original = (blob.width, blob.height) if blob is not None else (0, 0)
        return STANDARD_VARIANTS.get(name, original)
