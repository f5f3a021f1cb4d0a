import uuid

from flexclient import IntegrationClient, MarketplaceClient
from flexclient.mirror import Mirror
from flexclient.mirror.dlt import dlt_source
from flexclient.models import Image, User

sdk = MarketplaceClient("id")
integ = IntegrationClient("id", "secret")
page = sdk.listings.query().data
# [mypy] Incompatible types in assignment (expression has type "Image | None", variable
# [pyright] Type "Image | None" is not assignable to declared type "Image"
image: Image = page.data[0].author.profile_image
# [mypy] Argument "wire_format" to "MarketplaceClient" has incompatible type
# [pyright] Argument of type "Literal['xml']" cannot be assigned to parameter "wire_format"
MarketplaceClient("id", wire_format="xml")
# [mypy] Incompatible types in assignment (expression has type "Listing", variable has type "User")
# [pyright] Type "Listing" is not assignable to declared type "User"
user: User = next(sdk.listings.query.iter())
# [mypy] "IntegrationClient" has no attribute "own_listings"
# [pyright] Cannot access attribute "own_listings" for class "IntegrationClient"
integ.own_listings.create({"title": "x"})
# A command whose endpoint needs keys cannot be called without them.
# [mypy] Too few arguments for "__call__" of "Command"
# [pyright] Expected 1 more positional argument
sdk.own_listings.create()
# [mypy] Too few arguments for "__call__" of "Query"
# [pyright] Expected 1 more positional argument
sdk.listings.show()
# [mypy] Too few arguments for "iter" of "ListQuery"
# [pyright] Expected 1 more positional argument
sdk.timeslots.query.iter()
# Only uploads report their progress.
# [mypy] Unexpected keyword argument "progress_bar" for "__call__" of "Command"
# [pyright] No parameter named "progress_bar"
sdk.own_listings.create({"title": "T"}, progress_bar=True)
# Open key families are not keys of the TypedDict: they go in custom=.
# [mypy] Extra key "pub_category" for TypedDict "ListingsQueryParams"
# [pyright] "pub_category" is an undefined item in type "ListingsQueryParams"
sdk.listings.query({"perPage": 5, "pub_category": "road"})
# [mypy] Extra key "imageVariant.x" for TypedDict "CommandQueryParams"
# [pyright] "imageVariant.x" is an undefined item in type "CommandQueryParams"
sdk.own_listings.create({"title": "T"}, {"expand": True, "imageVariant.x": "w:1"})
# [mypy] Argument "custom" to "__call__" of "OptionalQuery" has incompatible type "list[str]"
# [pyright] Argument of type "list[str]" cannot be assigned to parameter "custom"
sdk.listings.query(custom=["pub_category"])
# [mypy] Extra key "expnad" for TypedDict "CommandQueryParams"
# [pyright] "expnad" is an undefined item in type "CommandQueryParams"
sdk.own_listings.close({"id": uuid.uuid4()}, {"expnad": True})
# [mypy] Unexpected keyword argument "timeuot" for "__call__" of "OptionalQuery"
# [pyright] No parameter named "timeuot"
sdk.listings.query(timeuot=3)
# A query takes no second argument (the JS SDK drops it silently; at run time it is an error).
# [mypy] Argument 2 to "__call__" of "Query" has incompatible type "dict[str, bool]"
# [pyright] Argument of type "dict[str, bool]" cannot be assigned to parameter "extra"
sdk.transactions.show({"id": uuid.uuid4()}, {"expand": True})
# [mypy] Argument 2 to "__call__" of "OptionalQuery" has incompatible type "dict[str, bool]"
# [pyright] Argument of type "dict[str, bool]" cannot be assigned to parameter "extra"
sdk.marketplace.show({}, {"expand": True})
# A login takes keywords, not the JS SDK's mapping (at run time too, a ParameterError).
# [mypy] Too many positional arguments for "login" of "MarketplaceClient"
# [mypy] Argument 1 to "login" of "MarketplaceClient" has incompatible type "dict[str, str]"
# [mypy] Missing named argument "password" for "login" of "MarketplaceClient"
# [pyright] Expected 0 positional arguments
sdk.login({"username": "a@example.com", "password": "secret"})
# The mirror's optional tables are keywords a checker knows (`OptionalTables`).
# [mypy] Unexpected keyword argument "message" for "Mirror"; did you mean "messages"?
# [pyright] No parameter named "message"
Mirror(integ, "sqlite:///m.db", message=True)
# [mypy] Unexpected keyword argument "availability_exception" for "dlt_source"
# [pyright] No parameter named "availability_exception"
dlt_source(integ, availability_exception=True)
# [mypy] Argument "messages" to "Mirror" has incompatible type "str"; expected "bool"
# [pyright] Argument of type "Literal['yes']" cannot be assigned to parameter "messages"
Mirror(integ, "sqlite:///m.db", messages="yes")
