"""`python -m flexclient`: the same as the `flexclient` command (`python -m flexclient demo`)."""

import sys

from flexclient._cli import main

if __name__ == "__main__":
    sys.exit(main())
