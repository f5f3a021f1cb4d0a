from flexclient import IntegrationClient

integ = IntegrationClient("id", "secret")
# E: expected "EventsQueryParams | None"
integ.events.query({"startAfterSequenceId": "12"})
