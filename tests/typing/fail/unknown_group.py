from flexclient import IntegrationClient

integ = IntegrationClient("id", "secret")
# E: "IntegrationClient" has no attribute "own_listings"
integ.own_listings.create({"title": "x"})
