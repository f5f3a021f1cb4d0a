"""Images and their variants."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource, WireModel


class ImageVariant(WireModel):
    """One rendition of an image: `name`, `width`, `height` (pixels) and `url`."""

    name: str | None = None
    width: int | None = None
    height: int | None = None
    url: str | None = None


class ImageAttributes(Attributes):
    variants: dict[str, ImageVariant] = Field(default_factory=dict)


class Image(Resource):
    """An image; `attributes.variants` is keyed by variant name (`"square-small"`, ...).

    >>> image.attributes.variants["square-small"].url  # doctest: +SKIP
    'https://...'
    """

    resource_type: ClassVar[str | None] = "image"
    attributes: ImageAttributes = Field(default_factory=ImageAttributes)
