"""Actions on a transaction's extended data and files: protected data from the caller or
revealed from a party's profile, metadata from a trusted caller, and the listing's protected
files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flexclient.testing._step import Step


def _merge(current: Mapping[str, Any] | None, update: Mapping[str, Any]) -> dict[str, Any]:
    merged = {**(current or {}), **update}
    return {k: v for k, v in merged.items() if v is not None}


def update_protected_data(step: Step, config: Mapping[str, Any]) -> None:
    """`update-protected-data`: `protectedData` merged into the transaction's."""
    data = step.param("protectedData", Mapping[str, Any])
    if data:
        step.tx.set(protected_data=_merge(step.tx.attributes.protected_data, data))


def update_metadata(step: Step, config: Mapping[str, Any]) -> None:
    """`privileged-update-metadata`: `metadata` merged into the transaction's."""
    data = step.param("metadata", Mapping[str, Any])
    if data:
        step.tx.set(metadata=_merge(step.tx.attributes.metadata, data))


def reveal_protected_data(step: Step, config: Mapping[str, Any], *, role: str) -> None:
    """`reveal-customer-protected-data` and `reveal-provider-protected-data`: the party's own
    protected data merged into the transaction's; `key-mapping` picks and renames keys."""
    user = step.party(role)
    found: Mapping[str, Any] = (user.attributes.profile.protected_data or {}) if user else {}
    mapping: Mapping[str, str] | None = config.get("key-mapping")
    if mapping is not None:
        found = {new: found[old] for old, new in mapping.items() if old in found}
    if found:
        step.tx.set(protected_data=_merge(step.tx.attributes.protected_data, found))


def reveal_listing_files(step: Step, config: Mapping[str, Any]) -> None:
    """`reveal-listing-protected-files`: the listing's protected files, attached anew to the
    transaction (its `protectedFileAttachments`)."""
    table = step.state.table("fileAttachment")
    made = list(step.tx.many("protectedFileAttachments"))
    for aid in step.listing.many("protectedFileAttachments"):
        attachment = table.get(aid)
        if attachment is None or attachment.attributes.deleted:
            continue
        if attachment.attributes.scope != "protected":
            continue
        copy = step.new("fileAttachment", {"scope": "protected", "deleted": False})
        copy.link("file", "file", attachment.one("file"))
        copy.link("transaction", "transaction", step.tx.id)
        made.append(copy.id)
    if made:
        step.tx.link_many("protectedFileAttachments", "fileAttachment", made)
