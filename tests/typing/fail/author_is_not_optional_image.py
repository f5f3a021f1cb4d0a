from flexclient import MarketplaceClient
from flexclient.models import Image

page = MarketplaceClient("id").listings.query().data
# E: Incompatible types in assignment (expression has type "Image | None"
image: Image = page.data[0].author.profile_image
