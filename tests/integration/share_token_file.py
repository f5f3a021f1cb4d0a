"""One of the processes of test_trust's shared-token-file test: `calls` calls as the user
whose token is in the file, printing what came back as JSON (run by the test, not by pytest)."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

from flexclient import FileTokenStore, FlexError, MarketplaceClient


def main(url: str, client_id: str, path: str, calls: int) -> None:
    sdk = MarketplaceClient(client_id, base_url=url, token_store=FileTokenStore(path))
    outcomes: Counter[str] = Counter()
    for _ in range(calls):
        try:
            sdk.current_user.show()
            outcomes["ok"] += 1
        except FlexError as exc:
            outcomes[type(exc).__name__ + str(getattr(exc, "status", ""))] += 1
        time.sleep(0.01)  # spread the calls over several token lifetimes
    info = sdk.auth_info()
    print(json.dumps({"outcomes": outcomes, "anonymous": info.is_anonymous}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
