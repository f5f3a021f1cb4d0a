"""Events of the Integration API's event feed."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, ClassVar

from pydantic import Field, model_validator

from flexclient._support.narrow import is_mapping
from flexclient.models._resource import (
    AnyResource,
    Attributes,
    Resource,
    WireModel,
    resource_from,
)


class AuditData(WireModel):
    """Who caused the event: a user, an operator (`admin_id`), and through which client."""

    user_id: uuid.UUID | None = None
    admin_id: uuid.UUID | None = None
    request_id: uuid.UUID | None = None
    client_id: uuid.UUID | None = None


class EventAttributes(Attributes):
    """An event's attributes.

    `event_type` is open-ended (`listing/created`, `transaction/transitioned`, and types added
    later). `resource` is the resource after the change, as the typed model for its type
    (None on delete); `previous_values` holds only what changed, as the API sent it.
    """

    sequence_id: int | None = None
    created_at: dt.datetime | None = None
    event_type: str | None = None
    source: str | None = None
    resource_id: uuid.UUID | None = None
    resource_type: str | None = None
    marketplace_id: uuid.UUID | None = None
    resource: AnyResource | None = None
    previous_values: dict[str, Any] | None = None
    audit_data: AuditData | None = None

    @model_validator(mode="before")
    @classmethod
    def _typed_resource(cls, data: Any) -> Any:
        if not is_mapping(data):
            return data
        raw = data.get("resource")
        if is_mapping(raw) and "id" in raw:
            rtype = raw.get("type") or data.get("resourceType") or data.get("resource_type")
            data = {**data, "resource": resource_from({**raw, "type": rtype})}
        return data


class Event(Resource):
    """One change in the marketplace (`events.query` of the Integration API)."""

    resource_type: ClassVar[str | None] = "event"
    attributes: EventAttributes = Field(default_factory=EventAttributes)
