"""The two public clients: `MarketplaceClient` and `IntegrationClient`.

Each is its API's endpoint groups (`flexclient._endpoints.table`) on the shared machinery
(`flexclient._base_client`), plus the authentication calls that differ between the two APIs.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, Unpack, cast

from flexclient._auth.tokens import MemoryTokenStore, Token
from flexclient._base_client import BaseClient, Connection
from flexclient._charging import TransferBill
from flexclient._endpoints.kinds import Response
from flexclient._endpoints.table import IntegrationEndpoints, MarketplaceEndpoints
from flexclient._environment import (
    INTEGRATION_ID_VAR,
    INTEGRATION_SECRET_VAR,
    MARKETPLACE_ID_VARS,
    MARKETPLACE_SECRET_VAR,
    base_url_from_env,
    from_env,
)
from flexclient._errors import ParameterError, UnexpectedResponseError
from flexclient._http.deadline import deadline_scope
from flexclient._http.multipart import FileInput, ProgressCallback, upload_bar
from flexclient._http.transport import UPLOAD_TIMEOUT, Timeout, check_timeout
from flexclient._options import ClientOptions
from flexclient._support.narrow import is_str
from flexclient._wire.values import uuid_value

# The asset, file and events modules are imported by the methods that use them: a program
# that does not is spared their import time.
if TYPE_CHECKING:
    from flexclient._assets import AssetRequest, AssetSet, JsonAsset
    from flexclient._events import EventFeed, FeedOptions
    from flexclient._file_transfer import FileTransfer, Offsite, UploadedFile


L = TypeVar("L", bound=Callable[..., Token])


def _keywords_only(keywords: str) -> Callable[[L], L]:
    """A login taking its keywords only, which says so to a caller giving a mapping, as the
    JS SDK takes them (`sdk.login({username, password})`), rather than a bare TypeError.
    The checkers see the login's own signature, which refuses the mapping too."""

    def wrap(login: L) -> L:
        @functools.wraps(login)
        def keywords_only(self: object, *js_style: object, **given: Any) -> Token:
            if js_style:
                raise ParameterError(
                    "params",
                    f"{login.__name__} takes keyword arguments, not a mapping as the JS SDK's"
                    f" does: write {login.__name__}({keywords})",
                )
            return login(self, **given)

        return cast(L, keywords_only)

    return wrap


class _OtherHosts(BaseClient):
    """Requests to hosts other than the API's (the asset CDN, file storage), through an
    `Offsite` session made on first use: never the API's session, never its credentials."""

    def __init__(
        self,
        client_id: str,
        client_secret: str | None = None,
        *,
        _parent: Connection | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        super().__init__(client_id, client_secret, _parent=_parent, **options)
        self._offsite_made: Offsite | None = None
        self._offsite_lock = threading.Lock()

    def _offsite(self) -> Offsite:
        with self._offsite_lock:
            if self._offsite_made is None:
                from flexclient._file_transfer import Offsite

                self._offsite_made = Offsite(self.options)
            return self._offsite_made

    def close(self) -> None:
        super().close()
        with self._offsite_lock:
            if self._offsite_made is not None:
                self._offsite_made.close()

    def _offsite_call(self, timeout: object, deadline: object) -> tuple[Timeout | None, float]:
        """A call's timeout (checked) and deadline, as for the API's calls."""
        checked = check_timeout(timeout) if timeout is not None else None
        return checked, self._deadline(deadline, checked)

    def _transfer_call(self, timeout: object, deadline: object) -> tuple[Timeout, float]:
        """A file transfer's timeout and deadline: as an upload's, by default."""
        checked = check_timeout(timeout) if timeout is not None else UPLOAD_TIMEOUT
        return checked, self._deadline(deadline, checked)

    def _bill(self, endpoint_path: str) -> TransferBill:
        """The data transfer to or from storage of a URL that `endpoint_path` gave."""
        return TransferBill(self._charge(), self.path_for(endpoint_path))

    # --- files in storage -------------------------------------------------------------------

    def send_file(
        self,
        target: object,
        file: FileInput,
        *,
        mime_type: str | None = None,
        on_upload_progress: ProgressCallback | None = None,
        progress_bar: bool = False,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> FileTransfer:
        """Upload a file's bytes to the storage target `file_uploads.create` gave (its
        resource, its response, or a mapping of `url`, `method`, `headers`), streamed, with
        the same progress options as `images.upload`, and no credential of the API.

        >>> target = sdk.file_uploads.create({"fileId": file_id}).data.data  # doctest: +SKIP
        >>> sdk.send_file(target, "terms.pdf", progress_bar=True)  # doctest: +SKIP
        """
        from flexclient._file_transfer import UploadTarget, send_file

        upload = UploadTarget.of(target)
        checked, seconds = self._transfer_call(timeout, deadline)
        progress = upload_bar(on_upload_progress) if progress_bar else on_upload_progress
        with deadline_scope(seconds):
            return send_file(
                self._offsite(),
                upload,
                file,
                mime_type=mime_type,
                on_upload_progress=progress,
                timeout=checked,
                bill=self._bill("file_uploads/create"),
            )

    def save_file(
        self,
        url: str,
        to: str | os.PathLike[str],
        *,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> FileTransfer:
        """Stream a file's download URL (of `file_downloads.create`) to the path `to`,
        which holds the whole file or is left as it was."""
        from flexclient._file_transfer import save_file

        checked, seconds = self._transfer_call(timeout, deadline)
        # Billed as a file download's transfer (own_file_downloads.create bills the same).
        bill = self._bill("file_downloads/create")
        with deadline_scope(seconds):
            return save_file(self._offsite(), url, to, timeout=checked, bill=bill)


class MarketplaceClient(MarketplaceEndpoints, _OtherHosts):
    """A client of the Marketplace API, acting anonymously or as one logged-in user.

    >>> sdk = MarketplaceClient("CLIENT_ID")
    >>> res = sdk.listings.query({"perPage": 5, "include": ["author"]})  # doctest: +SKIP

    Without a client ID, it is read from `SHARETRIBE_SDK_CLIENT_ID` (or
    `REACT_APP_SHARETRIBE_SDK_CLIENT_ID`, as Sharetribe's web template names it), and the
    secret from `SHARETRIBE_SDK_CLIENT_SECRET`.

    Options (all keywords): `client_secret` (for trusted tokens and identity providers), and
    those of `ClientOptions`; see docs/usage.md.
    """

    api_segment: ClassVar[str] = "api"
    default_base_url: ClassVar[str] = "https://flex-api.sharetribe.com"

    def __init__(
        self,
        client_id: str | None = None,
        *,
        client_secret: str | None = None,
        _parent: Connection | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        if client_id is None:
            # The names of Sharetribe's web template, whose .env a backend often shares.
            client_id = from_env(MARKETPLACE_ID_VARS, "client_id")
            if client_secret is None:
                client_secret = os.environ.get(MARKETPLACE_SECRET_VAR) or None
            # The API's address goes with the credentials (`flexclient fake serve` sets both).
            base_url = base_url_from_env(integration=False)
            if base_url and options.get("base_url") is None:
                options["base_url"] = base_url
        super().__init__(client_id, client_secret, _parent=_parent, **options)

    def _default_grant(self) -> dict[str, str]:
        return {
            "client_id": self.client_id,
            "grant_type": "client_credentials",
            "scope": "public-read",
        }

    def _require_secret(self, action: str) -> str:
        if self._client_secret is None:
            raise ParameterError("client_secret", f"{action} needs the client secret")
        return self._client_secret

    @_keywords_only("username=..., password=...")
    def login(self, *, username: str, password: str, revoke_replaced: bool = True) -> Token:
        """Log in as a user (password grant); the token is stored and used from now on.

        A user session already in the store is revoked once replaced, unless
        `revoke_replaced=False` (for a store that other copies of the session still use, such
        as a web app's per-request `CookieTokenStore`: see docs/web-sessions.md)."""
        form = {
            "scope": "user",
            "grant_type": "password",
            "username": username,
            "password": password,
            "client_id": self.client_id,
        }
        return self._log_in(form, revoke_replaced=revoke_replaced)

    @_keywords_only("code=..., redirect_uri=..., code_verifier=...")
    def login_as(
        self, *, code: str, redirect_uri: str, code_verifier: str, revoke_replaced: bool = True
    ) -> Token:
        """Log in as a user on an operator's behalf (authorization code grant); see
        `login` for `revoke_replaced`."""
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": code_verifier,
            "client_id": self.client_id,
        }
        return self._log_in(form, logged_in_as=True, revoke_replaced=revoke_replaced)

    @_keywords_only("idp_id=..., idp_client_id=..., idp_token=...")
    def login_with_idp(
        self, *, idp_id: str, idp_client_id: str, idp_token: str, revoke_replaced: bool = True
    ) -> Token:
        """Log in with an identity provider's token (needs the client secret); see `login`
        for `revoke_replaced`."""
        form = {
            "idp_id": idp_id,
            "idp_client_id": idp_client_id,
            "idp_token": idp_token,
            "client_id": self.client_id,
            "client_secret": self._require_secret("login_with_idp"),
        }
        return self._log_in(form, action="auth_with_idp", revoke_replaced=revoke_replaced)

    def _log_in(
        self,
        form: dict[str, str],
        *,
        action: str = "token",
        logged_in_as: bool = False,
        revoke_replaced: bool,
    ) -> Token:
        # One deadline for all of it: the token request, the store's lock, the revoke.
        with deadline_scope(self._deadline(None, None)):
            token = self._request_token(form, action=action)
            if logged_in_as:
                token = dataclasses.replace(token, is_logged_in_as=True)
            self._store_new(token, revoke_replaced=revoke_replaced)
        return token

    def logout(self) -> None:
        """Revoke the stored refresh token, then forget the token.

        As the official SDK: an expired access token is refreshed and the revoke sent again;
        if the refresh token is refused, the token is forgotten and logout returns normally.
        Any other failure (a 5xx, no connection) raises and keeps the token: try again."""
        self._revoke()

    def exchange_token(self) -> Token:
        """A trusted token (`trusted:user`) for the logged-in user; needs the client secret.

        The token is returned, not stored; `trusted_client()` makes a client that uses one.
        """
        subject = self._token()
        return self._request_token(
            {
                "client_id": self.client_id,
                "client_secret": self._require_secret("exchange_token"),
                "subject_token": subject.access_token,
                "grant_type": "token_exchange",
            }
        )

    def trusted_client(self) -> MarketplaceClient:
        """A client with this one's options that acts with a fresh trusted token (in a
        memory token store of its own), sharing this one's connection pool."""
        return self.with_options(token_store=MemoryTokenStore(self.exchange_token()))

    # --- files ------------------------------------------------------------------------------

    def upload_file(
        self,
        file: FileInput,
        *,
        name: str | None = None,
        mime_type: str | None = None,
        on_upload_progress: ProgressCallback | None = None,
        progress_bar: bool = False,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> UploadedFile:
        """Upload a file in one call: `own_files.create` with its name, MIME type and size,
        `file_uploads.create` for the storage target, and the bytes sent there, streamed.

        >>> uploaded = sdk.upload_file("terms.pdf", progress_bar=True)  # doctest: +SKIP
        >>> uploaded.id  # the file, to attach to a message  # doctest: +SKIP

        `file` is a path, a binary file object or bytes (with `name=`). The MIME type is
        guessed from the name unless given. `timeout` and `deadline` are the storage
        upload's (300 s to answer by default) and the whole call's. See docs/files.md.
        """
        from flexclient._file_transfer import UploadedFile, UploadTarget, file_metadata, send_file

        metadata = file_metadata(file, name=name, mime_type=mime_type)
        checked, seconds = self._transfer_call(timeout, deadline)
        progress = upload_bar(on_upload_progress) if progress_bar else on_upload_progress
        with deadline_scope(seconds):
            own = self.own_files.create(metadata.params(), {"expand": True}).data.data
            answer = self.file_uploads.create({"fileId": own.id}, {"expand": True})
            try:
                target = UploadTarget.of(answer.data.data)
            except ParameterError as exc:
                raise UnexpectedResponseError(
                    answer.status,
                    answer.status_text,
                    headers=answer.headers,
                    request="POST file_uploads/create",
                    reason=f"no usable upload target: {exc.problem}",
                ) from None
            transfer = send_file(
                self._offsite(),
                target,
                file,
                name=metadata.name,
                mime_type=metadata.mime_type,
                on_upload_progress=progress,
                timeout=checked,
                bill=self._bill("file_uploads/create"),
            )
        return UploadedFile(own, answer.data.data, transfer)

    def download_file(
        self,
        file_id: uuid.UUID | str,
        to: str | os.PathLike[str],
        *,
        own: bool = False,
        attachment: bool = False,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> FileTransfer:
        """Download a file to the path `to`: a download URL from `file_downloads.create`
        (`own_file_downloads.create` with `own=True`, for the logged-in user's own files),
        streamed to disk; `to` holds the whole file or is left as it was.

        The file is named by `fileId`, as the official SDK's guide does; with
        `attachment=True`, `file_id` is the ID of a file attachment, sent as
        `fileAttachmentId`, the key of the API reference.
        """
        file_id = uuid_value("file_id", file_id)
        if own and attachment:
            raise ParameterError("attachment", "own files are named by their file ID")
        from flexclient._file_transfer import attribute, save_file

        checked, seconds = self._transfer_call(timeout, deadline)
        with deadline_scope(seconds):
            answer: Response[Any]
            issuer = "own_file_downloads/create" if own else "file_downloads/create"
            if own:
                answer = self.own_file_downloads.create({"fileId": file_id}, {"expand": True})
            elif attachment:
                answer = self.file_downloads.create({"fileAttachmentId": file_id}, {"expand": True})
            else:
                answer = self.file_downloads.create({"fileId": file_id}, {"expand": True})
            url = attribute(answer.data.data, "url")
            if not isinstance(url, str):
                raise UnexpectedResponseError(
                    answer.status,
                    answer.status_text,
                    headers=answer.headers,
                    request="POST file_downloads/create",
                    reason="the answer has no download URL",
                )
            return save_file(self._offsite(), url, to, timeout=checked, bill=self._bill(issuer))

    # --- the Asset Delivery API -------------------------------------------------------------

    def _assets(self, request: AssetRequest, timeout: object, deadline: object) -> Response[Any]:
        from flexclient._assets import fetch_assets

        checked, seconds = self._offsite_call(timeout, deadline)
        with deadline_scope(seconds):
            return fetch_assets(self._offsite(), request, checked, self._charge())

    def _asset_request(self, **what: Any) -> AssetRequest:
        from flexclient._assets import asset_request

        return asset_request(self.options.asset_cdn_base_url, self.version, self.client_id, **what)

    def asset_by_alias(
        self,
        path: str,
        alias: str = "latest",
        *,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> Response[JsonAsset]:
        """One asset of the marketplace by a version alias (`"latest"`, the only one today).

        >>> res = sdk.asset_by_alias("content/translations.json")  # doctest: +SKIP
        >>> res.data.version, res.data.data  # doctest: +SKIP

        `data` is a `JsonAsset`: `.data` as sent, `.version` (of the asset tree), `.resolved()`
        (references to included assets put in place). See docs/assets.md.
        """
        return self._assets(self._asset_request(alias=alias, path=path), timeout, deadline)

    def asset_by_version(
        self,
        path: str,
        version: str,
        *,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> Response[JsonAsset]:
        """One asset of the marketplace from an asset tree `version` (as an answer's
        `.version` gave it), which never changes."""
        return self._assets(self._asset_request(version=version, path=path), timeout, deadline)

    def assets_by_alias(
        self,
        paths: Sequence[str],
        alias: str = "latest",
        *,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> Response[AssetSet]:
        """Several assets in one request, all from the version the alias names; `data` is
        an `AssetSet` (a mapping of path to `JsonAsset`)."""
        return self._assets(self._asset_request(alias=alias, paths=paths), timeout, deadline)

    def assets_by_version(
        self,
        paths: Sequence[str],
        version: str,
        *,
        timeout: Timeout | None = None,
        deadline: float | None = None,
    ) -> Response[AssetSet]:
        """Several assets in one request from an asset tree `version`."""
        return self._assets(self._asset_request(version=version, paths=paths), timeout, deadline)


class IntegrationClient(IntegrationEndpoints, _OtherHosts):
    """A client of the Integration API (server side, full access to the marketplace).

    >>> integ = IntegrationClient("CLIENT_ID", "CLIENT_SECRET")
    >>> integ.events.query({"startAfterSequenceId": 0})  # doctest: +SKIP

    Without them, the client ID and secret are read from `FLEX_INTEGRATION_CLIENT_ID` and
    `FLEX_INTEGRATION_CLIENT_SECRET`, the names Sharetribe's examples use.
    """

    api_segment: ClassVar[str] = "integration_api"
    default_base_url: ClassVar[str] = "https://flex-integ-api.sharetribe.com"
    # The Integration API limits concurrent requests; the official SDK keeps at most 10.
    default_options: ClassVar[ClientOptions] = {"max_connections": 10}

    def __init__(
        self,
        client_id: str | None = None,
        client_secret: str | None = None,
        *,
        _parent: Connection | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        # The names of Sharetribe's Integration API examples.
        if client_id is None:
            client_id = from_env((INTEGRATION_ID_VAR,), "client_id")
            base_url = base_url_from_env(integration=True)
            if base_url and options.get("base_url") is None:
                options["base_url"] = base_url
        if client_secret is None:
            client_secret = from_env((INTEGRATION_SECRET_VAR,), "client_secret")
        if not is_str(client_secret) or not client_secret:
            raise ParameterError("client_secret", "the Integration API needs the client secret")
        super().__init__(client_id, client_secret, _parent=_parent, **options)

    def _default_grant(self) -> dict[str, str]:
        assert self._client_secret is not None
        return {
            "client_id": self.client_id,
            "client_secret": self._client_secret,
            "grant_type": "client_credentials",
            "scope": "integ",
        }

    def events_feed(self, **options: Unpack[FeedOptions]) -> EventFeed:
        """Follow the marketplace's events, for ever (or until caught up); the options are
        `FeedOptions`'.

        >>> from flexclient import FilePositionStore
        >>> store = FilePositionStore("sync.position")
        >>> with integ.events_feed(position=store) as feed:  # doctest: +SKIP
        ...     for event in feed:
        ...         handle(event)
        """
        from flexclient._events import EventFeed

        return EventFeed(self, **options)

    def revoke(self) -> None:
        """Revoke the stored refresh token and forget the token, as `MarketplaceClient.logout`
        does (a 401 is answered by a refresh and a second revoke; other failures raise and
        keep the token)."""
        self._revoke()
