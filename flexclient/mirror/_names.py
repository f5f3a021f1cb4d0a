"""What the command line needs of the mirror before it runs one (no models, no requests)."""

# Following polls once a minute: 7,200 credits a day (a poll is a Heavy read of 5 credits).
DEFAULT_POLL_INTERVAL = 60.0

# The schema a PostgreSQL mirror writes into unless told otherwise: its tables (`users`,
# `listings`, ...) then never meet a team's own tables of the same names in `public`.
DEFAULT_PG_SCHEMA = "sharetribe"
