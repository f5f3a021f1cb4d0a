"""`sitemap_data` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import Asset, Listing

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
recent: list[Listing] = sdk.sitemap_data.query_listings().data.data
pages: list[Asset] = sdk.sitemap_data.query_assets({"pathPrefix": "/content/pages/"}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "prefix" for TypedDict "SitemapDataQueryAssetsParams"
# [pyright] "prefix" is an undefined item in type "SitemapDataQueryAssetsParams"
sdk.sitemap_data.query_assets({"prefix": "/content/"})
# [mypy] TypedDict item "pathPrefix" has type "str")
# [pyright] "list[str]" is not assignable to "str"
sdk.sitemap_data.query_assets({"pathPrefix": ["/content/"]})
