"""What the fake does for each endpoint it implements, for both APIs.

`MARKETPLACE` and `INTEGRATION` map an endpoint path (`"listings/query"`) to its handler; an
endpoint of the API that is not in them answers 501.
"""

from __future__ import annotations

import datetime as dt
import math
import struct
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from flexclient._types import Money
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, forbidden, invalid, not_found

Handler = Callable[[Call], dict[str, Any]]
T = TypeVar("T")
LISTING_FIELDS = (
    "title",
    "description",
    "geolocation",
    "price",
    "availabilityPlan",
    "publicData",
    "privateData",
    "images",
)
PROFILE_FIELDS = (
    "firstName",
    "lastName",
    "displayName",
    "bio",
    "publicData",
    "protectedData",
    "privateData",
    "profileImageId",
)

# --- helpers ---------------------------------------------------------------------------------


def _listing(c: Call, lid: uuid.UUID, *, own: bool = False) -> s.Listing:
    listing = c.state.listings.get(lid)
    if listing is None or listing.deleted:
        raise not_found("Listing")
    if own and listing.author_id != c.user().id:
        raise not_found("Listing")
    return listing


def _user(c: Call, uid: uuid.UUID) -> s.User:
    user = c.state.users.get(uid)
    if user is None or user.deleted:
        raise not_found("User")
    return user


def _ids(raw: str) -> list[uuid.UUID]:
    return [uuid.UUID(part) for part in raw.split(",") if part]


def _time(raw: str) -> dt.datetime:
    value = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError("a timestamp needs a timezone")
    return value


def _floats(count: int) -> Callable[[str], list[float]]:
    def parse(raw: str) -> list[float]:
        parts = [float(p) for p in raw.split(",")]
        if len(parts) != count or not all(math.isfinite(p) for p in parts):
            raise ValueError(f"expected {count} comma-separated numbers")
        return parts

    return parse


def _price_range(raw: str) -> tuple[int | None, int | None]:
    low, _, high = raw.partition(",")
    return (int(low) if low else None, int(high) if high else None)


def _matches_extended(value: Any, wanted: str) -> bool:
    if wanted.startswith(("has_any:", "has_all:")):
        mode, _, items = wanted.partition(":")
        options = set(items.split(","))
        have = (
            set(value) if isinstance(value, list) else {str(value)} if value is not None else set()
        )
        have = {str(v) for v in have}
        return bool(options & have) if mode == "has_any" else options <= have
    if isinstance(value, bool):
        return wanted == ("true" if value else "false")
    return str(value) == wanted


# Extended data: its query-filter prefix, its wire name, and the attribute that holds it.
EXTENDED = (
    ("pub_", "publicData", "public_data"),
    ("prot_", "protectedData", "protected_data"),
    ("priv_", "privateData", "private_data"),
    ("meta_", "metadata", "metadata"),
)


def _filter_extended(c: Call, items: list[T]) -> list[T]:
    """Keep the items whose extended data matches every `pub_*`, `meta_*`, ... parameter."""
    for key, wanted in c.params.items():
        for prefix, _wire, attr in EXTENDED:
            if key.startswith(prefix):
                if not all(hasattr(item, attr) for item in items):
                    raise invalid("query", key, f"these resources have no {_wire}")
                name = key[len(prefix) :]
                items = [i for i in items if _matches_extended(getattr(i, attr).get(name), wanted)]
    return items


def _merge_extended(c: Call, target: object, names: tuple[str, ...]) -> None:
    """Merge the body's extended data into `target`, key by key; a null value removes a key."""
    for _prefix, wire, attr in EXTENDED:
        if wire in names and wire in c.body:
            merged = {**getattr(target, attr), **(c.b(wire, dict) or {})}
            setattr(target, attr, {k: v for k, v in merged.items() if v is not None})


def _image_dimensions(content: bytes) -> tuple[int, int]:
    if content.startswith(b"\x89PNG\r\n\x1a\n") and len(content) >= 24:
        width, height = struct.unpack(">II", content[16:24])
        return int(width), int(height)
    return (0, 0)


IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")

# --- marketplace -----------------------------------------------------------------------------


def marketplace_show(c: Call) -> dict[str, Any]:
    return c.renderer.document([c.renderer.marketplace()], many=False)


# --- users -----------------------------------------------------------------------------------


def users_show(c: Call) -> dict[str, Any]:
    c.allow_query(["id"])
    return c.one(c.renderer.user(_user(c, c.q_id())))


def users_query(c: Call) -> dict[str, Any]:
    c.allow_query(["createdAtStart", "createdAtEnd", "sort"], extended_data=True)
    start, end = c.q("createdAtStart", _time), c.q("createdAtEnd", _time)
    users = [u for u in c.state.users.values() if not u.deleted]
    users = [
        u
        for u in users
        if (start is None or u.created_at >= start) and (end is None or u.created_at < end)
    ]
    users = _filter_extended(c, users)
    users.sort(
        key=lambda u: u.created_at, reverse=c.params.get("sort", "-createdAt").startswith("-")
    )
    return c.page([c.renderer.user(u) for u in users])


def _update_profile(c: Call, user: s.User, extra: tuple[str, ...] = ()) -> None:
    c.allow_body((*PROFILE_FIELDS, *extra))
    before = c.snapshot("user", user.id)
    for wire, attr in (
        ("firstName", "first_name"),
        ("lastName", "last_name"),
        ("displayName", "display_name"),
        ("bio", "bio"),
    ):
        if wire in c.body:
            setattr(user, attr, c.b(wire, str) if wire != "bio" else c.body[wire])
    _merge_extended(c, user, ("publicData", "protectedData", "privateData", "metadata"))
    if "profileImageId" in c.body:
        image_id = c.body["profileImageId"]
        if image_id is not None and uuid.UUID(str(image_id)) not in c.state.images:
            raise invalid("body", "profileImageId", "no such image")
        user.profile_image_id = uuid.UUID(str(image_id)) if image_id is not None else None
    c.emit("user/updated", "user", user.id, before)


def current_user_show(c: Call) -> dict[str, Any]:
    return c.renderer.document([c.renderer.user(c.user(), current=True)], many=False)


def current_user_create(c: Call) -> dict[str, Any]:
    c.allow_body(("email", "password", *PROFILE_FIELDS))
    email = (c.b("email", str, required=True) or "").lower()
    password = c.b("password", str, required=True) or ""
    if "@" not in email:
        raise invalid("body", "email", "not an email address")
    if len(password) < 8:
        raise invalid("body", "password", "at least 8 characters")
    if c.state.user_by_email(email) is not None:
        raise ApiFailure(409, "email-taken", "The email address is already taken")
    first = c.b("firstName", str, required=True) or ""
    last = c.b("lastName", str, required=True) or ""
    user = s.User(
        uuid.uuid4(), email, password, first, last, c.b("displayName", str) or f"{first} {last[:1]}"
    )
    c.state.users[user.id] = user
    user.public_data = c.b("publicData", dict) or {}
    user.protected_data = c.b("protectedData", dict) or {}
    user.private_data = c.b("privateData", dict) or {}
    c.emit("user/created", "user", user.id, None)
    return c.one(c.renderer.user(user, current=True))


def current_user_update_profile(c: Call) -> dict[str, Any]:
    user = c.user()
    _update_profile(c, user)
    return c.one(c.renderer.user(user, current=True))


def current_user_change_password(c: Call) -> dict[str, Any]:
    c.allow_body(("currentPassword", "newPassword"))
    user = c.user()
    if c.b("currentPassword", str, required=True) != user.password:
        raise ApiFailure(403, "forbidden", "The current password is wrong")
    new = c.b("newPassword", str, required=True) or ""
    if len(new) < 8:
        raise invalid("body", "newPassword", "at least 8 characters")
    user.password = new
    return c.one(c.renderer.user(user, current=True))


def users_update_profile(c: Call) -> dict[str, Any]:
    user = _user(c, c.b_id())
    c.body.pop("id")
    _update_profile(c, user, ("metadata",))
    return c.one(c.renderer.user(user))


def users_approve(c: Call) -> dict[str, Any]:
    c.allow_body(("id",))
    user = _user(c, c.b_id())
    before = c.snapshot("user", user.id)
    user.state = "active"
    c.emit("user/updated", "user", user.id, before)
    return c.one(c.renderer.user(user))


# --- listings --------------------------------------------------------------------------------

QUERY_KEYS = (
    "ids",
    "authorId",
    "keywords",
    "origin",
    "bounds",
    "price",
    "sort",
    "states",
    "start",
    "end",
    "seats",
    "availability",
    "minDuration",
    "minStock",
    "stockMode",
    "createdAtStart",
    "createdAtEnd",
    "paginationLimit",
)


def _query_listings(c: Call, listings: list[s.Listing], *, own: bool) -> dict[str, Any]:
    c.allow_query(QUERY_KEYS, extended_data=True)
    if "keywords" in c.params and "origin" in c.params:
        raise ApiFailure(
            400,
            "validation-invalid-params",
            "keywords and origin cannot be combined",
            ["query", "keywords"],
        )
    ids = c.q("ids", _ids)
    author = c.q("authorId", uuid.UUID)
    states = c.q("states", lambda raw: raw.split(","))
    low, high = c.q("price", _price_range) or (None, None)
    bounds = c.q("bounds", _floats(4))
    c.q("origin", _floats(2))
    min_stock = c.q("minStock", int)
    words = [w.lower() for w in c.params.get("keywords", "").split()]
    result = [lst for lst in listings if not lst.deleted]
    if not own and c.api == "marketplace":
        result = [lst for lst in result if lst.state == "published"]
    if ids is not None:
        result = [lst for lst in result if lst.id in ids]
    if author is not None:
        result = [lst for lst in result if lst.author_id == author]
    if states is not None:
        result = [lst for lst in result if lst.state in states]
    if low is not None or high is not None:
        result = [
            lst
            for lst in result
            if lst.price is not None
            and (low is None or lst.price.amount >= low)
            and (high is None or lst.price.amount < high)
        ]
    if bounds is not None:
        ne_lat, ne_lng, sw_lat, sw_lng = bounds
        result = [
            lst
            for lst in result
            if lst.geolocation is not None
            and sw_lat <= lst.geolocation.lat <= ne_lat
            and sw_lng <= lst.geolocation.lng <= ne_lng
        ]
    if min_stock is not None:
        result = [lst for lst in result if (lst.stock or 0) >= min_stock]
    if words:
        result = [
            lst
            for lst in result
            if all(w in f"{lst.title} {lst.description}".lower() for w in words)
        ]
    result = _filter_extended(c, result)
    sort = c.params.get("sort", "-createdAt")
    field_name = sort.lstrip("-")
    if field_name not in ("createdAt", "price"):
        raise invalid("query", "sort", "sort by createdAt or price")

    def sort_key(lst: s.Listing) -> Any:
        return (
            lst.created_at if field_name == "createdAt" else (lst.price.amount if lst.price else -1)
        )

    result.sort(key=sort_key, reverse=sort.startswith("-"))
    return c.page([c.renderer.listing(lst, own=own) for lst in result], limited=not own)


def listings_query(c: Call) -> dict[str, Any]:
    return _query_listings(c, list(c.state.listings.values()), own=False)


def listings_show(c: Call) -> dict[str, Any]:
    c.allow_query(["id"])
    listing = _listing(c, c.q_id())
    if (
        c.api == "marketplace"
        and listing.state != "published"
        and listing.author_id != c.grant.user_id
    ):
        raise not_found("Listing")
    return c.one(c.renderer.listing(listing))


def own_listings_query(c: Call) -> dict[str, Any]:
    me = c.user().id
    return _query_listings(
        c, [lst for lst in c.state.listings.values() if lst.author_id == me], own=True
    )


def own_listings_show(c: Call) -> dict[str, Any]:
    c.allow_query(["id"])
    return c.one(c.renderer.listing(_listing(c, c.q_id(), own=True), own=True))


def _write_listing(c: Call, listing: s.Listing) -> None:
    if "title" in c.body:
        title = c.b("title", str) or ""
        if not title.strip():
            raise invalid("body", "title", "must not be empty")
        listing.title = title
    if "description" in c.body:
        listing.description = c.b("description", str) or ""
    if "geolocation" in c.body:
        listing.geolocation = c.b_latlng("geolocation")
    if "price" in c.body:
        listing.price = c.b_money("price")
    if "availabilityPlan" in c.body:
        listing.availability_plan = c.b("availabilityPlan", dict)
    _merge_extended(c, listing, ("publicData", "privateData", "metadata"))
    if "images" in c.body:
        images = c.b("images", list) or []
        try:
            ids = [uuid.UUID(str(i)) for i in images]
        except ValueError as exc:
            raise invalid("body", "images", "not image ids") from exc
        if any(i not in c.state.images for i in ids):
            raise invalid("body", "images", "no such image")
        listing.image_ids = ids


def _create_listing(
    c: Call, author: s.User, state: str, extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    c.allow_body((*LISTING_FIELDS, *extra))
    listing = s.Listing(
        uuid.uuid4(), author.id, c.b("title", str, required=True) or "", state=state
    )
    _write_listing(c, listing)
    c.state.listings[listing.id] = listing
    c.emit("listing/created", "listing", listing.id, None)
    return c.one(c.renderer.listing(listing, own=c.api == "marketplace"))


def own_listings_create(c: Call) -> dict[str, Any]:
    return _create_listing(c, c.user(), "published")


def own_listings_create_draft(c: Call) -> dict[str, Any]:
    return _create_listing(c, c.user(), "draft")


def _update_listing(c: Call, listing: s.Listing, allowed: tuple[str, ...]) -> dict[str, Any]:
    c.allow_body(("id", *allowed))
    before = c.snapshot("listing", listing.id)
    _write_listing(c, listing)
    c.emit("listing/updated", "listing", listing.id, before)
    return c.one(c.renderer.listing(listing, own=c.api == "marketplace"))


def own_listings_update(c: Call) -> dict[str, Any]:
    return _update_listing(c, _listing(c, c.b_id(), own=True), LISTING_FIELDS)


def own_listings_add_image(c: Call) -> dict[str, Any]:
    listing = _listing(c, c.b_id(), own=True)
    c.allow_body(("id", "imageId"))
    image_id = c.b_id("imageId")
    if image_id not in c.state.images:
        raise invalid("body", "imageId", "no such image")
    before = c.snapshot("listing", listing.id)
    listing.image_ids.append(image_id)
    c.emit("listing/updated", "listing", listing.id, before)
    return c.one(c.renderer.listing(listing, own=True))


def _set_state(
    c: Call, listing: s.Listing, allowed_from: tuple[str, ...], to: str
) -> dict[str, Any]:
    c.allow_body(("id",))
    if listing.state not in allowed_from:
        raise ApiFailure(
            409, "listing-invalid-state", f"A {listing.state} listing cannot become {to}"
        )
    before = c.snapshot("listing", listing.id)
    listing.state = to
    c.emit("listing/updated", "listing", listing.id, before)
    return c.one(c.renderer.listing(listing, own=c.api == "marketplace"))


def _state_change(from_states: tuple[str, ...], to: str, *, own: bool) -> Handler:
    def handler(c: Call) -> dict[str, Any]:
        return _set_state(c, _listing(c, c.b_id(), own=own), from_states, to)

    return handler


def integ_listings_create(c: Call) -> dict[str, Any]:
    author = _user(c, c.b_id("authorId"))
    state = c.b("state", str) or "published"
    if state not in ("published", "pendingApproval"):
        raise invalid("body", "state", "published or pendingApproval")
    return _create_listing(c, author, state, ("authorId", "state", "metadata"))


def integ_listings_update(c: Call) -> dict[str, Any]:
    return _update_listing(c, _listing(c, c.b_id()), (*LISTING_FIELDS, "metadata"))


# --- images ----------------------------------------------------------------------------------


def images_upload(c: Call) -> dict[str, Any]:
    if "image" not in c.files:
        raise ApiFailure(
            400, "validation-missing-key", "Missing required key: image", ["body", "image"]
        )
    _filename, content_type, content = c.files["image"]
    if not content.startswith(IMAGE_MAGIC):
        raise ApiFailure(
            400, "image-invalid-content", "The file is not an image (JPEG, PNG or GIF)"
        )
    width, height = _image_dimensions(content)
    image = s.Image(uuid.uuid4(), content, content_type, width, height, c.grant.user_id)
    c.state.images[image.id] = image
    return c.one(c.renderer.image(image))


# --- availability exceptions -----------------------------------------------------------------


def _own_or_any_listing(c: Call, lid: uuid.UUID) -> s.Listing:
    return _listing(c, lid, own=c.api == "marketplace")


def exceptions_create(c: Call) -> dict[str, Any]:
    c.allow_body(("listingId", "start", "end", "seats"))
    listing = _own_or_any_listing(c, c.b_id("listingId"))
    start, end = c.b_time("start"), c.b_time("end")
    if end <= start:
        raise invalid("body", "end", "must be after start")
    seats = c.b("seats", int, required=True) or 0
    exc = s.AvailabilityException(uuid.uuid4(), listing.id, start, end, seats)
    c.state.exceptions[exc.id] = exc
    c.state.record(
        "availabilityException/created",
        c.source,
        "availabilityException",
        exc.id,
        c.renderer.exception(exc)[0],
        None,
        c.grant.user_id,
        c.grant.client_id,
    )
    return c.one(c.renderer.exception(exc))


def exceptions_query(c: Call) -> dict[str, Any]:
    c.allow_query(["listingId", "start", "end"])
    listing = _own_or_any_listing(c, c.q("listingId", uuid.UUID, required=True) or uuid.UUID(int=0))
    start = c.q("start", _time, required=True)
    end = c.q("end", _time, required=True)
    assert start is not None and end is not None
    found = [
        e
        for e in c.state.exceptions.values()
        if e.listing_id == listing.id and e.end > start and e.start < end
    ]
    found.sort(key=lambda e: e.start)
    return c.page([c.renderer.exception(e) for e in found])


def exceptions_delete(c: Call) -> dict[str, Any]:
    c.allow_body(("id",))
    exc = c.state.exceptions.get(c.b_id())
    if exc is None:
        raise not_found("Availability exception")
    _own_or_any_listing(c, exc.listing_id)
    rendered = c.renderer.exception(exc)
    del c.state.exceptions[exc.id]
    c.state.record(
        "availabilityException/deleted",
        c.source,
        "availabilityException",
        exc.id,
        None,
        {"attributes": rendered[0]["attributes"]},
        c.grant.user_id,
        c.grant.client_id,
    )
    return c.one(rendered)


# --- stock -----------------------------------------------------------------------------------


def stock_compare_and_set(c: Call) -> dict[str, Any]:
    c.allow_body(("listingId", "oldTotal", "newTotal"))
    listing = _own_or_any_listing(c, c.b_id("listingId"))
    old = c.body.get("oldTotal")
    new = c.b("newTotal", int, required=True)
    assert new is not None
    if new < 0:
        raise invalid("body", "newTotal", "must not be negative")
    if old != listing.stock:
        raise ApiFailure(409, "conflict", "oldTotal does not match the current stock")
    before = c.snapshot("listing", listing.id)
    _adjust(c, listing, new - (listing.stock or 0))
    listing.stock = new
    c.emit("listing/updated", "listing", listing.id, before)
    return c.one(c.renderer.stock(listing))


def _adjust(c: Call, listing: s.Listing, quantity: int) -> s.StockAdjustment:
    adj = s.StockAdjustment(uuid.uuid4(), listing.id, quantity)
    c.state.adjustments[adj.id] = adj
    return adj


def stock_adjustments_create(c: Call) -> dict[str, Any]:
    c.allow_body(("listingId", "quantity"))
    listing = _own_or_any_listing(c, c.b_id("listingId"))
    quantity = c.b("quantity", int, required=True)
    assert quantity is not None
    if (listing.stock or 0) + quantity < 0:
        raise ApiFailure(409, "conflict", "Stock cannot go below zero")
    before = c.snapshot("listing", listing.id)
    adj = _adjust(c, listing, quantity)
    listing.stock = (listing.stock or 0) + quantity
    c.emit("listing/updated", "listing", listing.id, before)
    return c.one(c.renderer.adjustment(adj))


def stock_adjustments_query(c: Call) -> dict[str, Any]:
    c.allow_query(["listingId", "start", "end"])
    listing = _own_or_any_listing(c, c.q("listingId", uuid.UUID, required=True) or uuid.UUID(int=0))
    start, end = c.q("start", _time, required=True), c.q("end", _time, required=True)
    assert start is not None and end is not None
    found = sorted(
        (
            a
            for a in c.state.adjustments.values()
            if a.listing_id == listing.id and start <= a.at < end
        ),
        key=lambda a: a.at,
    )
    return c.page([c.renderer.adjustment(a) for a in found])


# --- transactions ----------------------------------------------------------------------------


def transactions_initiate(c: Call) -> dict[str, Any]:
    c.allow_body(("processAlias", "transition", "params"))
    customer = c.user()
    alias = c.b("processAlias", str, required=True) or ""
    transition = c.b("transition", str, required=True) or ""
    params = c.b("params", dict) or {}
    if "listingId" not in params:
        raise ApiFailure(
            400,
            "validation-missing-key",
            "Missing required key: params.listingId",
            ["body", "params", "listingId"],
        )
    listing = _listing(c, uuid.UUID(str(params["listingId"])))
    if listing.author_id == customer.id:
        raise forbidden("You cannot start a transaction on your own listing")
    quantity = int(params.get("quantity", 1))
    price = listing.price or Money(0, "USD")
    items = [
        {
            "code": "line-item/item",
            "unitPrice": price,
            "quantity": quantity,
            "lineTotal": Money(price.amount * quantity, price.currency),
            "reversal": False,
            "includeFor": ["customer", "provider"],
        }
    ]
    name, _, version = alias.partition("/release-")
    tx = s.Transaction(
        uuid.uuid4(),
        listing.id,
        customer.id,
        listing.author_id,
        name,
        int(version or 1),
        transition,
        line_items=items,
        protected_data=params.get("protectedData") or {},
    )
    tx.transitions.append({"transition": transition, "createdAt": s.now(), "by": "customer"})
    c.state.transactions[tx.id] = tx
    c.emit("transaction/initiated", "transaction", tx.id, None)
    return c.one(c.renderer.transaction(tx))


def _party(c: Call, tx: s.Transaction) -> str:
    if c.api == "integration":
        return "operator"
    me = c.user().id
    if me == tx.customer_id:
        return "customer"
    if me == tx.provider_id:
        return "provider"
    raise not_found("Transaction")


def transactions_transition(c: Call) -> dict[str, Any]:
    c.allow_body(("id", "transition", "params"))
    tx = c.state.transactions.get(c.b_id())
    if tx is None:
        raise not_found("Transaction")
    by = _party(c, tx)
    transition = c.b("transition", str, required=True) or ""
    if any(t["transition"] == transition for t in tx.transitions):
        raise ApiFailure(409, "transaction-invalid-transition", f"{transition} was already taken")
    before = c.snapshot("transaction", tx.id)
    tx.last_transition = transition
    tx.transitions.append({"transition": transition, "createdAt": s.now(), "by": by})
    c.emit("transaction/transitioned", "transaction", tx.id, before)
    return c.one(c.renderer.transaction(tx))


def transactions_query(c: Call) -> dict[str, Any]:
    c.allow_query(
        [
            "only",
            "lastTransitions",
            "createdAtStart",
            "createdAtEnd",
            "sort",
            "userId",
            "customerId",
            "providerId",
            "listingId",
        ]
    )
    txs = list(c.state.transactions.values())
    if c.api == "marketplace":
        me = c.user().id
        only = c.params.get("only")
        txs = [
            t
            for t in txs
            if (only != "order" and t.provider_id == me) or (only != "sale" and t.customer_id == me)
        ]
    last = c.q("lastTransitions", lambda raw: raw.split(","))
    if last is not None:
        txs = [t for t in txs if t.last_transition in last]
    txs.sort(key=lambda t: t.created_at, reverse=True)
    return c.page([c.renderer.transaction(t) for t in txs])


def transactions_show(c: Call) -> dict[str, Any]:
    c.allow_query(["id"])
    tx = c.state.transactions.get(c.q_id())
    if tx is None:
        raise not_found("Transaction")
    _party(c, tx)
    return c.one(c.renderer.transaction(tx))


def transactions_update_metadata(c: Call) -> dict[str, Any]:
    c.allow_body(("id", "metadata"))
    tx = c.state.transactions.get(c.b_id())
    if tx is None:
        raise not_found("Transaction")
    before = c.snapshot("transaction", tx.id)
    _merge_extended(c, tx, ("metadata",))
    c.emit("transaction/updated", "transaction", tx.id, before)
    return c.one(c.renderer.transaction(tx))


# --- events ----------------------------------------------------------------------------------


def events_query(c: Call) -> dict[str, Any]:
    c.allow_query(
        ["startAfterSequenceId", "createdAtStart", "eventTypes", "resourceId", "relatedResourceId"]
    )
    after = c.q("startAfterSequenceId", int)
    start = c.q("createdAtStart", _time)
    types = c.q("eventTypes", lambda raw: raw.split(","))
    resource = c.q("resourceId", uuid.UUID)
    events = c.state.events
    if after is not None:
        events = [e for e in events if e.sequence_id > after]
    if start is not None:
        events = [e for e in events if e.created_at >= start]
    if types is not None:
        events = [e for e in events if e.event_type in types]
    if resource is not None:
        events = [e for e in events if e.resource_id == resource]
    per_page = c.q("perPage", int) or 100
    if not 1 <= per_page <= 100:
        raise invalid("query", "perPage", "1 to 100")
    body = c.renderer.document([c.renderer.event(e) for e in events[:per_page]], many=True)
    body["meta"] = {"perPage": per_page, "paginationUnsupported": True}
    return body


MARKETPLACE: dict[str, Handler] = {
    "marketplace/show": marketplace_show,
    "users/show": users_show,
    "current_user/show": current_user_show,
    "current_user/create": current_user_create,
    "current_user/update_profile": current_user_update_profile,
    "current_user/change_password": current_user_change_password,
    "listings/show": listings_show,
    "listings/query": listings_query,
    "own_listings/show": own_listings_show,
    "own_listings/query": own_listings_query,
    "own_listings/create": own_listings_create,
    "own_listings/create_draft": own_listings_create_draft,
    "own_listings/publish_draft": _state_change(("draft",), "published", own=True),
    "own_listings/update": own_listings_update,
    "own_listings/open": _state_change(("closed",), "published", own=True),
    "own_listings/close": _state_change(("published",), "closed", own=True),
    "own_listings/add_image": own_listings_add_image,
    "images/upload": images_upload,
    "availability_exceptions/create": exceptions_create,
    "availability_exceptions/query": exceptions_query,
    "availability_exceptions/delete": exceptions_delete,
    "transactions/initiate": transactions_initiate,
    "transactions/transition": transactions_transition,
    "transactions/query": transactions_query,
    "transactions/show": transactions_show,
    "stock/compare_and_set": stock_compare_and_set,
    "stock_adjustments/create": stock_adjustments_create,
    "stock_adjustments/query": stock_adjustments_query,
}

INTEGRATION: dict[str, Handler] = {
    "marketplace/show": marketplace_show,
    "users/show": users_show,
    "users/query": users_query,
    "users/update_profile": users_update_profile,
    "users/approve": users_approve,
    "listings/show": listings_show,
    "listings/query": listings_query,
    "listings/create": integ_listings_create,
    "listings/update": integ_listings_update,
    "listings/approve": _state_change(("pendingApproval",), "published", own=False),
    "listings/open": _state_change(("closed",), "published", own=False),
    "listings/close": _state_change(("published",), "closed", own=False),
    "images/upload": images_upload,
    "availability_exceptions/create": exceptions_create,
    "availability_exceptions/query": exceptions_query,
    "availability_exceptions/delete": exceptions_delete,
    "transactions/query": transactions_query,
    "transactions/show": transactions_show,
    "transactions/transition": transactions_transition,
    "transactions/update_metadata": transactions_update_metadata,
    "stock/compare_and_set": stock_compare_and_set,
    "stock_adjustments/create": stock_adjustments_create,
    "stock_adjustments/query": stock_adjustments_query,
    "events/query": events_query,
}
