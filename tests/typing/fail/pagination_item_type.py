from flexclient import MarketplaceClient
from flexclient.models import User

sdk = MarketplaceClient("id")
# E: Incompatible types in assignment (expression has type "Listing", variable has type "User")
user: User = next(sdk.listings.query.iter())
