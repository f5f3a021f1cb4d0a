"""A short tour of flexclient that runs offline.

The client talks to a tiny canned marketplace mounted on its `requests` session, so every
call below goes through the real request encoding, authentication and response decoding.

    python examples/tour.py
"""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
from requests.adapters import BaseAdapter

from flexclient import MarketplaceClient, Money, NotFoundError, RelationshipNotIncludedError

AUTHOR = str(uuid.UUID(int=1))
IMAGES = [str(uuid.UUID(int=10 + i)) for i in range(3)]
LISTINGS: list[tuple[str, int, str, list[int]]] = [
    ("Road bike", 45000, "road", [0, 1]),
    ("City bike", 18000, "city", [2]),
    ("Tandem", 72000, "road", []),
]


def listing(i: int) -> dict[str, Any]:
    title, amount, category, images = LISTINGS[i]
    return {
        "id": str(uuid.UUID(int=100 + i)),
        "type": "listing",
        "attributes": {
            "title": title,
            "price": {"amount": amount, "currency": "EUR"},
            "geolocation": {"lat": 60.17, "lng": 24.94},
            "createdAt": "2026-11-01T10:00:00.000Z",
            "state": "published",
            "publicData": {"category": category},
        },
        "relationships": {
            "author": {"data": {"id": AUTHOR, "type": "user"}},
            "images": {"data": [{"id": IMAGES[n], "type": "image"} for n in images]},
        },
    }


INCLUDED = [
    {"id": AUTHOR, "type": "user", "attributes": {"profile": {"displayName": "Aino K"}}},
    *(
        {
            "id": image,
            "type": "image",
            "attributes": {
                "variants": {
                    "square-small": {
                        "name": "square-small",
                        "width": 240,
                        "height": 240,
                        "url": f"https://images.example/{image}.jpg",
                    }
                }
            },
        }
        for image in IMAGES
    ),
]


class CannedMarketplace(BaseAdapter):
    """Answers a handful of API paths with JSON, as the real API can."""

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: float | tuple[float, float] | tuple[float, None] | None = None,
        verify: bool | str = True,
        cert: bytes | str | tuple[bytes | str, bytes | str] | None = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        url = urlsplit(request.url or "")
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        status, body = self.answer(url.path, query, request.body)
        response = requests.Response()
        response.status_code = status
        response.headers["Content-Type"] = "application/json"
        response.raw = io.BytesIO(json.dumps(body).encode())
        response.request = request
        response.url = request.url or ""
        return response

    def answer(self, path: str, query: Mapping[str, str], body: object) -> tuple[int, object]:
        if path == "/v1/auth/token":
            return 200, {"access_token": "demo", "token_type": "bearer", "scope": "public-read"}
        if path == "/v1/api/listings/query":
            per_page = int(query.get("perPage", "100"))
            data = [listing(i) for i in range(len(LISTINGS))][:per_page]
            included = INCLUDED if "include" in query else []
            meta = {"totalItems": len(LISTINGS), "totalPages": 1, "page": 1, "perPage": per_page}
            return 200, {"data": data, "included": included, "meta": meta}
        if path == "/v1/api/own_listings/create":
            created = listing(0)
            created["type"] = "ownListing"
            created["attributes"]["title"] = "Brand new bike"
            return 200, {"data": created}
        return 404, {"errors": [{"status": 404, "code": "not-found", "title": "Not found"}]}

    def close(self) -> None:
        pass


def main() -> None:
    # `session=` is the seam for custom transports; here it leads to the canned marketplace.
    session = requests.Session()
    session.mount("https://marketplace.example", CannedMarketplace())
    sdk = MarketplaceClient("demo-id", base_url="https://marketplace.example", session=session)

    res = sdk.listings.query(
        {"perPage": 3, "include": ["author", "images"]}, custom={"pub_category": "a"}
    )
    print(f"{res.status} {res.status_text}: {res.data.meta.total_items} listings\n")
    print(f"{'title':<12} {'price':>10}  {'author':<8} images")
    for item in res.data.data:
        price = item.attributes.price
        shown = str(price) if price else "-"  # major units, by the currency's exponent
        author = item.author.attributes.profile.display_name or "?"
        print(f"{item.attributes.title or '':<12} {shown:>10}  {author:<8} {len(item.images)}")

    first = res.data.data[0]
    print("\nfirst image:", first.images[0].attributes.variants["square-small"].url)
    try:
        print(first.author.profile_image)
    except RelationshipNotIncludedError as e:
        print("not included:", e.include_path)

    created = sdk.own_listings.create({"title": "Brand new bike", "price": Money(5000, "EUR")})
    print("\ncreated:", created.data.data.attributes.title)

    try:
        sdk.listings.show({"id": uuid.uuid4()})
    except NotFoundError as e:
        print(f"\n{e.status} {e.status_text}: {e.data.errors[0].code}")


if __name__ == "__main__":
    main()
