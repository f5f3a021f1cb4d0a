from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: expected "OwnListingCreateParams | None"
sdk.own_listings.create({"title": "Bike", "price": 5000})
