"""Custom image variants: the `imageVariant.<name>` query parameters.

An image's variants are chosen with sparse fields (`"fields.image": ["variants.<name>"]`); a
variant the marketplace does not predefine is described by an `imageVariant.<name>`
parameter whose value is an "object query string", `w:320;h:640;fit:scale`, written as the
official SDK's `util.objectQueryString` writes it (`flexclient.params.object_query`).
`ImageVariantSpec` is that description typed; `image_variants` turns a set of them into the
parameters, names checked. (`flexclient.models.ImageVariant` is a variant of an image in an
answer: its name, size and URL.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from flexclient._errors import ParameterError
from flexclient._support.narrow import is_mapping, is_whole
from flexclient._wire.query import object_query

ImageFit = Literal["scale", "crop"]
"""How an image meets the variant's box: `scale` keeps its aspect ratio within `w` x `h`,
`crop` fills the box and cuts what is left over."""

# Characters that would change the meaning of an object query string or a parameter name.
_SEPARATORS = frozenset(";:,")


def _is_name(value: object) -> bool:
    # `object`: the names are checked for untyped callers too.
    return isinstance(value, str) and value != "" and not _SEPARATORS & set(value)


@dataclass(frozen=True)
class ImageVariantSpec:
    """A custom image variant to ask for: `width` x `height` pixels, and how the image is `fit`
    in them.

    >>> ImageVariantSpec(320, 640).value
    'w:320;h:640;fit:scale'
    >>> ImageVariantSpec(400, 400, "crop").scaled(2).value
    'w:800;h:800;fit:crop'
    """

    width: int
    height: int
    fit: ImageFit = "scale"

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value: object = getattr(self, name)
            if not is_whole(value, 1):
                raise ParameterError(
                    name, f"must be a whole number of pixels, 1 or more, not {value!r}"
                )
        # Typed as the two values the API documents; another name passes, for a later API.
        if not _is_name(self.fit):
            raise ParameterError("fit", f"must be 'scale' or 'crop', not {self.fit!r}")

    @property
    def value(self) -> str:
        """The parameter's value: `w:<width>;h:<height>;fit:<fit>`."""
        return object_query({"w": self.width, "h": self.height, "fit": self.fit})

    def scaled(self, factor: int) -> ImageVariantSpec:
        """This variant with both sides multiplied by `factor`, e.g. 2 for a "2x" variant of
        high-density screens."""
        if not is_whole(factor, 1):
            raise ParameterError("factor", f"must be a whole number, 1 or more, not {factor!r}")
        return dataclasses.replace(self, width=self.width * factor, height=self.height * factor)

    def __str__(self) -> str:
        return self.value


ImageVariant = ImageVariantSpec
"""Deprecated: `ImageVariantSpec`'s name until 0.1; `flexclient.ImageVariant` warns."""


def image_variants(
    variants: Mapping[str, ImageVariantSpec | Mapping[str, object]],
) -> dict[str, str]:
    """The `imageVariant.<name>` query parameters for these custom variants, to merge into a
    query's parameters. A variant is an `ImageVariantSpec` or a mapping written as it is
    (`{"w": 320, "h": 640, "fit": "scale"}`).

    >>> image_variants({"card": ImageVariantSpec(400, 300, "crop")})
    {'imageVariant.card': 'w:400;h:300;fit:crop'}

    Ask for the variants too, with `"fields.image": ["variants.card", ...]`.
    """
    if not is_mapping(variants):
        raise ParameterError("variants", "give a mapping of variant names to ImageVariantSpec")
    params: dict[str, str] = {}
    for name, variant in variants.items():
        if not _is_name(name):
            raise ParameterError(
                "variants", f"a variant name must be a non-empty string without ';:,': {name!r}"
            )
        key = f"imageVariant.{name}"
        if isinstance(variant, ImageVariantSpec):
            params[key] = variant.value
        elif is_mapping(variant):
            params[key] = object_query(variant)
        else:
            raise ParameterError(key, f"give an ImageVariantSpec, not {type(variant).__name__}")
    return params
