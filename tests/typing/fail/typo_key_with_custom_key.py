from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: "ListingsQueryParams" has no key "perpage"
sdk.listings.query({"perpage": 5, "pub_color": "red"})
