import datetime as dt
import uuid

from flexclient import MarketplaceClient
from flexclient.models import (
    CurrentUser,
    FileAttachment,
    FileUpload,
    PermissionSet,
    Resource,
    StripeAccount,
    StripeCustomer,
    StripePaymentMethod,
    Transaction,
)

sdk = MarketplaceClient("id")
me: CurrentUser = sdk.current_user.show({"include": ["stripeCustomer"]}).data.data
customer: StripeCustomer | None = me.stripe_customer
method: StripePaymentMethod | None = customer.default_payment_method if customer else None
digits: str | None = (
    method.attributes.card.last4_digits if method and method.attributes.card else None
)
account: StripeAccount | None = me.stripe_account
perms: PermissionSet = me.effective_permission_set
attached: list[FileAttachment] = me.private_file_attachments
upload: FileUpload = sdk.file_uploads.create({"fileId": uuid.uuid4()}).data.data
expires: dt.datetime | None = upload.attributes.expires_at
headers: dict[str, str] = upload.attributes.headers
tx: Transaction = sdk.transactions.show({"id": uuid.uuid4()}).data.data
state: str | None = tx.attributes.state
any_relation: Resource | list[Resource] | None = tx.related("listing")
reset_bare: bool = sdk.password_reset.request({"email": "a@b.test"}).data.data.has_attributes
