from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: expected "ShowParams | None"
sdk.listings.show({"include": ["author"]})
