"""`images` endpoints of the Marketplace API: typed parameters and answers."""

import io
from pathlib import Path

from flexclient import MarketplaceClient
from flexclient.models import Image

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
img: Image = sdk.images.upload(
    {"image": Path("photo.jpg")}, {"expand": True}, on_upload_progress=print
).data.data
sdk.images.upload({"image": io.BytesIO(b"...")})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "image" for TypedDict "ImagesUploadParams"
# [mypy] Extra key "imgae" for TypedDict "ImagesUploadParams"
# [pyright] "imgae" is an undefined item in type "ImagesUploadParams"
sdk.images.upload({"imgae": "photo.jpg"})
# [mypy] TypedDict item "image" has type "str | PathLike[str] | bytes | Readable")
# [pyright] Type "Literal[5]" is not assignable to type "ImageFile"
sdk.images.upload({"image": 5})
# [mypy] Missing key "image" for TypedDict "ImagesUploadParams"
# [pyright] "image" is required in "ImagesUploadParams"
sdk.images.upload({})
