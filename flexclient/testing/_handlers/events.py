"""`events`: the Integration API's feed of every change."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient.testing._call import Call, invalid
from flexclient.testing._handlers._lookup import time, words
from flexclient.testing._routes import handles

MAX_PER_PAGE = 100


@handles(Integ.events.cls.query)
def query(c: Call) -> dict[str, Any]:
    after = c.query_value("startAfterSequenceId", int)
    start = c.query_value("createdAtStart", time)
    types = c.query_value("eventTypes", words)
    resource = c.query_value("resourceId", uuid.UUID)
    related = c.query_value("relatedResourceId", uuid.UUID)
    events = c.state.kept_events()
    if after is not None:
        events = [e for e in events if (e.attributes.sequence_id or 0) > after]
    if start is not None:
        events = [e for e in events if e.attributes.created_at and e.attributes.created_at >= start]
    if types is not None:
        events = [e for e in events if e.attributes.event_type in types]
    if resource is not None:
        events = [e for e in events if e.attributes.resource_id == resource]
    if related is not None:
        relations = c.state.event_relations
        events = [e for e in events if related in relations.get(e.id, ())]
    per_page = c.query_value("perPage", int) or MAX_PER_PAGE
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise invalid("query", "perPage", f"1 to {MAX_PER_PAGE}")
    body = c.renderer.document([c.view(e) for e in events[:per_page]], many=True)
    body["meta"] = {"perPage": per_page, "paginationUnsupported": True}
    return body
