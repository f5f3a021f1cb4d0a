from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: "dict[str, str]"; expected "ListingsQueryParams | None"
sdk.listings.query({"perPage": "five"})
