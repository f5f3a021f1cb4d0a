from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: Value of "perPage" has incompatible type "str"; expected "int"
sdk.listings.query({"perPage": "five", "pub_color": "red"})
