"""The eager-model floor: plain pydantic models for the benchmark page, nothing more.

What any client that validates a response into pydantic models when it is read must spend:
one model per resource and per nested object, with the fields the page carries (as
flexclient's listing, user and image models have them, wire names by alias), validated from
the same bytes in one `model_validate_json`, and each listing's author and images resolved
by hand from `included`. tests/test_benchmark_models.py holds each field to the real
model's (name, wire name, type) and each model to the keys the page sends. No tricks of
flexclient's; the collector paused as flexclient does, so that the comparison is of the
models, not of the collector (benchmarks/decode.py).
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from flexclient import LatLng, Money


class _Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Ref(_Wire):
    id: uuid.UUID
    type: str


class ToOne(_Wire):
    data: Ref | None = None


class ToMany(_Wire):
    data: list[Ref] = []


class Variant(_Wire):
    name: str | None = None
    width: int | None = None
    height: int | None = None
    url: str | None = None


class ImageAttributes(_Wire):
    variants: dict[str, Variant] = {}


class Profile(_Wire):
    display_name: str | None = None
    abbreviated_name: str | None = None
    bio: str | None = None
    public_data: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class UserAttributes(_Wire):
    banned: bool | None = None
    deleted: bool | None = None
    created_at: dt.datetime | None = None
    profile: Profile | None = None


class ListingAttributes(_Wire):
    title: str | None = None
    description: str | None = None
    geolocation: LatLng | None = None
    price: Money | None = None
    state: str | None = None
    deleted: bool | None = None
    created_at: dt.datetime | None = None
    availability_plan: dict[str, Any] | None = None
    public_data: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class Image(_Wire):
    id: uuid.UUID
    type: Literal["image"]
    attributes: ImageAttributes


class User(_Wire):
    id: uuid.UUID
    type: Literal["user"]
    attributes: UserAttributes
    relationships: dict[str, ToOne] = {}


class Listing(_Wire):
    id: uuid.UUID
    type: Literal["listing"]
    attributes: ListingAttributes
    relationships: dict[str, ToMany | ToOne] = {}
    author: User | None = None
    images: list[Image] = []


class Page(_Wire):
    data: list[Listing]
    included: list[Annotated[User | Image, Field(discriminator="type")]] = []
    meta: dict[str, Any] = {}


def decode(raw: bytes) -> Page:
    """The page's JSON bytes as plain models, each listing's author and images resolved."""
    page = Page.model_validate_json(raw)
    by_id = {resource.id: resource for resource in page.included}
    for listing in page.data:
        author = listing.relationships["author"]
        images = listing.relationships["images"]
        if isinstance(author, ToOne) and author.data is not None:
            found = by_id.get(author.data.id)
            listing.author = found if isinstance(found, User) else None
        if isinstance(images, ToMany):
            listing.images = [i for r in images.data if isinstance(i := by_id.get(r.id), Image)]
    return page
