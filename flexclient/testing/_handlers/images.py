"""`images`: uploads. The image's bytes are kept, and its variants served, by the fake."""

from __future__ import annotations

import struct
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import ImageAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call
from flexclient.testing._routes import handles

IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")


def dimensions(content: bytes) -> tuple[int, int]:
    """Width and height of a PNG; (0, 0) for other formats, which the fake does not read."""
    if content.startswith(b"\x89PNG\r\n\x1a\n") and len(content) >= 24:
        width, height = struct.unpack(">II", content[16:24])
        return int(width), int(height)
    return (0, 0)


@handles(Market.images.cls.upload, Integ.images.cls.upload)
def upload(c: Call) -> dict[str, Any]:
    if "image" not in c.files:
        raise ApiFailure(
            400, "validation-missing-key", "Missing required key: image", ["body", "image"]
        )
    _filename, content_type, content = c.files["image"]
    if not content.startswith(IMAGE_MAGIC):
        raise ApiFailure(
            400, "image-invalid-content", "The file is not an image (JPEG, PNG or GIF)"
        )
    image = s.new("image", ImageAttributes)
    c.state.blobs[image.id] = s.Blob(content, content_type, *dimensions(content))
    c.state.images[image.id] = image
    return c.one(image)
