"""Actions on reviews: each party writes one (pending, unseen), and they are published."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flexclient.testing import _state as s
from flexclient.testing._call import invalid
from flexclient.testing._step import Step, conflict


def _reviews(step: Step) -> list[s.Record[Any]]:
    table = step.state.table("review")
    return [table[r] for r in step.tx.many("reviews") if r in table]


def post(step: Step, config: Mapping[str, Any], *, author_role: str) -> None:
    """`post-review-by-customer` and `post-review-by-provider`."""
    subject_role = "provider" if author_role == "customer" else "customer"
    author = step.tx.one(author_role)
    if any(r.one("author") == author for r in _reviews(step)):
        raise conflict(
            f"The {author_role} has already reviewed",
            f"transaction-already-reviewed-by-{author_role}",
        )
    rating: int = step.required("reviewRating", int)
    if not 1 <= rating <= 5:
        raise invalid("body", "params.reviewRating", "1 to 5")
    content: str = step.required("reviewContent", str)
    values = {
        "type": f"of{subject_role.capitalize()}",
        "state": "pending",
        "rating": rating,
        "content": content,
        "created_at": step.state.time(),
    }
    review = step.new("review", values)
    review.link("author", "user", author)
    review.link("subject", "user", step.tx.one(subject_role))
    review.link("listing", "listing", step.tx.one("listing"))
    review.link("transaction", "transaction", step.tx.id)
    step.tx.link_many("reviews", "review", [*step.tx.many("reviews"), review.id])
    step.ctx.emit("review/created", review, None)


def publish(step: Step, config: Mapping[str, Any]) -> None:
    """`publish-reviews`: every review of the transaction becomes public."""
    for review in _reviews(step):
        if review.attributes.state != "public":
            before = step.ctx.snapshot(review)
            review.set(state="public")
            step.ctx.emit("review/updated", review, before)
