"""Parameters of the sitemap data endpoints."""

from flexclient.params._common import QueryOptions


class SitemapDataQueryListingsParams(QueryOptions, total=False):
    """`sitemap_data.query_listings`: the 10,000 newest public listings (IDs only); no
    parameters of its own."""


class SitemapDataQueryAssetsParams(QueryOptions, total=False):
    """`sitemap_data.query_assets`: the content pages made in Console, under `pathPrefix`
    (`"/content/pages/"`, as the web template asks)."""

    pathPrefix: str
