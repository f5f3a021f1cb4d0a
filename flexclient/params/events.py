"""Parameters of the Integration API's events endpoint."""

import datetime as dt
from collections.abc import Sequence
from typing import TypedDict

from flexclient.params._common import Id
from flexclient.params._values import EventType


class EventsQueryParams(TypedDict, total=False):
    """Integration `events.query`: events after a sequence ID or from a time, optionally
    of some types (`listing/created`, ...) or about one resource."""

    startAfterSequenceId: int
    createdAtStart: dt.datetime
    eventTypes: Sequence[EventType] | EventType
    resourceId: Id
    relatedResourceId: Id
    perPage: int
