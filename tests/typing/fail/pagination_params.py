from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: Value of "perPage" has incompatible type "str"; expected "int"
sdk.listings.query.iter({"perPage": "all", "pub_color": "red"})
