from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
# E: Missing key 'id' for "ShowParams"
sdk.listings.show({"fields.listing": "title"})
