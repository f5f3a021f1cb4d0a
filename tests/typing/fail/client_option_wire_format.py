from flexclient import MarketplaceClient

# E: Argument "wire_format" to "MarketplaceClient" has incompatible type
MarketplaceClient("id", wire_format="xml")
