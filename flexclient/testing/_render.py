"""Stored entities -> API resources: the views of each API, `include`, `fields.*`, variants."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from flexclient._types import Money
from flexclient.testing import _state as s

Api = Literal["marketplace", "integration"]
Ref = dict[str, Any]
Refs = dict[str, Ref | list[Ref] | None]
Resource = dict[str, Any]

STANDARD_VARIANTS: dict[str, tuple[int, int]] = {
    "default": (750, 750),
    "square-small": (240, 240),
    "square-small2x": (480, 480),
    "landscape-crop": (800, 600),
    "scaled-medium": (750, 750),
}


def ref(rtype: str, rid: uuid.UUID) -> Ref:
    return {"id": rid, "type": rtype}


def stock_id(listing_id: uuid.UUID) -> uuid.UUID:
    return uuid.uuid5(listing_id, "stock")


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
            out[key] = select(value, parts[key]) if isinstance(value, Mapping) else value
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

    # --- the views -----------------------------------------------------------------------

    def marketplace(self) -> tuple[Resource, Refs]:
        attrs = {"name": self.state.marketplace_name, "description": "An in-memory marketplace"}
        return self._res("marketplace", self.state.marketplace_id, attrs), {}

    def user(self, user: s.User, *, current: bool = False) -> tuple[Resource, Refs]:
        full = current or self.api == "integration"
        profile: dict[str, Any] = {
            "displayName": user.display_name,
            "abbreviatedName": user.abbreviated_name,
            "bio": user.bio,
            "publicData": user.public_data,
            "metadata": user.metadata,
        }
        attrs: dict[str, Any] = {
            "banned": user.banned,
            "deleted": user.deleted,
            "createdAt": user.created_at,
            "profile": profile,
        }
        if full:
            profile.update(
                firstName=user.first_name,
                lastName=user.last_name,
                protectedData=user.protected_data,
                privateData=user.private_data,
            )
            attrs.update(
                email=user.email,
                emailVerified=user.email_verified,
                pendingEmail=None,
                stripeConnected=False,
                identityProviders=[],
            )
        if self.api == "integration":
            attrs.update(state=user.state, permissions=user.permissions)
        if current:
            attrs.update(stripePayoutsEnabled=False, stripeChargesEnabled=False)
        refs: Refs = {
            "marketplace": ref("marketplace", self.state.marketplace_id),
            "profileImage": ref("image", user.profile_image_id) if user.profile_image_id else None,
        }
        rtype = "currentUser" if current else "user"
        return self._res(rtype, user.id, attrs), refs

    def listing(self, listing: s.Listing, *, own: bool = False) -> tuple[Resource, Refs]:
        attrs: dict[str, Any] = {
            "title": listing.title,
            "description": listing.description,
            "geolocation": listing.geolocation,
            "price": listing.price,
            "state": listing.state,
            "deleted": listing.deleted,
            "createdAt": listing.created_at,
            "availabilityPlan": listing.availability_plan,
            "publicData": listing.public_data,
            "metadata": listing.metadata,
        }
        if own or self.api == "integration":
            attrs["privateData"] = listing.private_data
        refs: Refs = {
            "marketplace": ref("marketplace", self.state.marketplace_id),
            "author": ref("user", listing.author_id),
            "images": [ref("image", i) for i in listing.image_ids],
            "currentStock": ref("stock", stock_id(listing.id))
            if listing.stock is not None
            else None,
        }
        return self._res("ownListing" if own else "listing", listing.id, attrs), refs

    def image(self, image: s.Image) -> tuple[Resource, Refs]:
        variants = {}
        for name in self._variant_names():
            width, height = self._variant_size(name, image)
            url = f"{self.base_url}/images/{image.id}/{name}"
            variants[name] = {"name": name, "width": width, "height": height, "url": url}
        return self._res("image", image.id, {"variants": variants}), {}

    def stock(self, listing: s.Listing) -> tuple[Resource, Refs]:
        return self._res("stock", stock_id(listing.id), {"quantity": listing.stock}), {}

    def exception(self, exc: s.AvailabilityException) -> tuple[Resource, Refs]:
        attrs = {"seats": exc.seats, "start": exc.start, "end": exc.end}
        return self._res("availabilityException", exc.id, attrs), {
            "listing": ref("listing", exc.listing_id)
        }

    def adjustment(self, adj: s.StockAdjustment) -> tuple[Resource, Refs]:
        attrs = {"at": adj.at, "quantity": adj.quantity}
        kind = "listing" if self.api == "integration" else "ownListing"
        return self._res("stockAdjustment", adj.id, attrs), {kind: ref("listing", adj.listing_id)}

    def transaction(self, tx: s.Transaction) -> tuple[Resource, Refs]:
        payin = sum(i["lineTotal"].amount for i in tx.line_items if "customer" in i["includeFor"])
        payout = sum(i["lineTotal"].amount for i in tx.line_items if "provider" in i["includeFor"])
        currency = tx.line_items[0]["lineTotal"].currency if tx.line_items else "USD"
        attrs = {
            "createdAt": tx.created_at,
            "processName": tx.process_name,
            "processVersion": tx.process_version,
            "lastTransition": tx.last_transition,
            "lastTransitionedAt": tx.last_transitioned_at,
            "payinTotal": Money(payin, currency),
            "payoutTotal": Money(payout, currency),
            "lineItems": tx.line_items,
            "protectedData": tx.protected_data,
            "metadata": tx.metadata,
            "transitions": tx.transitions,
        }
        refs: Refs = {
            "marketplace": ref("marketplace", self.state.marketplace_id),
            "listing": ref("listing", tx.listing_id),
            "provider": ref("user", tx.provider_id),
            "customer": ref("user", tx.customer_id),
            "booking": None,
            "stockReservation": None,
            "reviews": [],
            "messages": [],
        }
        return self._res("transaction", tx.id, attrs), refs

    def event(self, event: s.Event) -> tuple[Resource, Refs]:
        attrs = {
            "sequenceId": event.sequence_id,
            "createdAt": event.created_at,
            "eventType": event.event_type,
            "source": event.source,
            "resourceId": event.resource_id,
            "resourceType": event.resource_type,
            "marketplaceId": self.state.marketplace_id,
            "resource": event.resource,
            "previousValues": event.previous_values,
            "auditData": event.audit_data,
        }
        return self._res("event", event.id, attrs), {}

    def by_ref(self, rtype: str, rid: uuid.UUID) -> tuple[Resource, Refs] | None:
        """The view of a referenced resource, or None when it no longer exists."""
        st = self.state
        if rtype == "user" and rid in st.users:
            return self.user(st.users[rid])
        if rtype in ("listing", "ownListing") and rid in st.listings:
            return self.listing(st.listings[rid], own=rtype == "ownListing")
        if rtype == "image" and rid in st.images:
            return self.image(st.images[rid])
        if rtype == "marketplace":
            return self.marketplace()
        if rtype == "stock":
            owner = next((lst for lst in st.listings.values() if stock_id(lst.id) == rid), None)
            return self.stock(owner) if owner is not None else None
        if rtype == "transaction" and rid in st.transactions:
            return self.transaction(st.transactions[rid])
        return None

    # --- include and sparse fields ---------------------------------------------------------

    def document(self, primary: Iterable[tuple[Resource, Refs]], many: bool) -> dict[str, Any]:
        """The envelope's data and included, following the request's `include` paths."""
        tree = self._include_tree()
        included: dict[tuple[str, uuid.UUID], tuple[Resource, Refs]] = {}
        data = []
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

    def _variant_size(self, name: str, image: s.Image) -> tuple[int, int]:
        custom = self.params.get(f"imageVariant.{name}")
        if custom is not None:
            spec = parse_object_query(custom)
            return int(spec.get("w", "0") or 0), int(spec.get("h", "0") or 0)
        return STANDARD_VARIANTS.get(name, (image.width, image.height))
