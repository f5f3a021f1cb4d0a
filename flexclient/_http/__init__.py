"""HTTP: the only code that talks to `requests`: the transport (retries, bounded bodies),
total deadlines, client-side rate limits, multipart bodies.
"""
