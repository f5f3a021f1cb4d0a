"""`images` endpoints of the Integration API: typed parameters and answers."""

from flexclient import IntegrationClient
from flexclient.models import Image

integ = IntegrationClient("id", "secret")

# Calls that pass, with the group's TypedDicts.
img: Image = integ.images.upload(
    {"image": "photo.jpg"}, {"expand": True}, progress_bar=True
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "image" for TypedDict "ImagesUploadParams"
# [mypy] Extra key "file" for TypedDict "ImagesUploadParams"
# [pyright] "file" is an undefined item in type "ImagesUploadParams"
integ.images.upload({"file": "photo.jpg"})
# [mypy] TypedDict item "image" has type "str | PathLike[str] | bytes | Readable")
# [pyright] Type "None" is not assignable to type "ImageFile"
integ.images.upload({"image": None})
# [mypy] Missing key "image" for TypedDict "ImagesUploadParams"
# [pyright] "image" is required in "ImagesUploadParams"
integ.images.upload({})
