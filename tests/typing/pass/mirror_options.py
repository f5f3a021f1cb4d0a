from flexclient import IntegrationClient
from flexclient.mirror import Mirror, OptionalTables
from flexclient.mirror.dlt import dlt_source

integ = IntegrationClient("id", "secret")
# Each optional table is a keyword of both, typed.
Mirror(integ, "sqlite:///m.db", messages=True, stock_adjustments=True, poll_interval=30)
dlt_source(integ, staging="sqlite:///staging.db", availability_exceptions=True)
# The same keywords, chosen once and given to either.
chosen: OptionalTables = {"messages": True, "availability_exceptions": False}
Mirror(integ, "sqlite:///m.db", **chosen)
dlt_source(integ, **chosen)
