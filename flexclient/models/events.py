"""Events of the Integration API's event feed."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated, Any, ClassVar

from pydantic import Field

from flexclient.models._resource import (
    Attributes,
    Resource,
    ValidatedByItsType,
    WireModel,
    rebuilt_with_the_registry,
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
    # Declared before `resource`, which reads it when the resource has no `type` of its own.
    resource: Annotated[Resource, ValidatedByItsType("resource_type")] | None = None
    previous_values: dict[str, Any] | None = None
    audit_data: AuditData | None = None


class Event(Resource):
    """One change in the marketplace (`events.query` of the Integration API)."""

    resource_type: ClassVar[str | None] = "event"
    attributes: EventAttributes = Field(default_factory=EventAttributes)


rebuilt_with_the_registry(EventAttributes, Event)
