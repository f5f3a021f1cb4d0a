"""`flexclient credits estimate -- COMMAND`: what a job would cost on Sharetribe, from one run
of it against the fake marketplace.

The command runs with the variables `flexclient fake serve` prints, pointing
`MarketplaceClient()` and `IntegrationClient()` (and the command line) at a fake started for
it; when it ends, what the fake billed, by Sharetribe's rules and figures
(`FakeMarketplace.usage`), is printed to stderr, endpoint by endpoint. Cheap to import, as the
rest of the command line: the fake is imported when a job runs.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flexclient.credits import UsageSnapshot


class EstimateUsageError(Exception):
    """A mistake in the estimate's command line: the command line prints it with its usage."""


def add_estimate_options(estimate: argparse.ArgumentParser) -> None:
    """The options of `credits estimate`, on the parser that takes them."""
    estimate.add_argument(
        "--seed", choices=["demo", "none"], default="demo", help="the fake's initial data"
    )
    estimate.add_argument(
        "--process",
        action="append",
        default=[],
        metavar="PATH",
        help="a transaction process the job uses (a process.edn, or its folder); repeat for more",
    )
    estimate.add_argument(
        "--runs", type=int, metavar="N", help="also what N runs cost (a month's, say), in dollars"
    )
    estimate.add_argument(
        "job", nargs=argparse.REMAINDER, help="the command to run, after --: -- python job.py"
    )
    estimate.set_defaults(run=estimate_command)


def estimate_command(args: argparse.Namespace) -> int:
    """Run the job against a fake marketplace of its own; print what it would cost; answer the
    job's exit status (128 + N for a job ended by signal N, 127 for one that would not start)."""
    job: list[str] = list(args.job)
    if job[:1] == ["--"]:
        job = job[1:]
    if not job:
        raise EstimateUsageError(
            "give the job's command after --: credits estimate -- python job.py"
        )
    if args.runs is not None and args.runs < 1:
        raise EstimateUsageError("--runs wants a number of runs, 1 or more")
    from flexclient.testing import FakeMarketplace
    from flexclient.testing._serve import fake_variables

    fake = FakeMarketplace(seed="demo" if args.seed == "demo" else None, processes=args.process)
    with fake:
        environment = {**os.environ, **fake_variables(fake.url, fake.client_id, fake.client_secret)}
        try:
            # The job's own input and output: only the report below is ours, on stderr.
            code = subprocess.call(job, env=environment)
        except OSError as exc:
            print(f"flexclient: cannot run {job[0]!r}: {exc.strerror or exc}", file=sys.stderr)
            return 127
        usage = fake.usage.snapshot()
    print(report(usage, code, args.runs), file=sys.stderr)
    return 128 + -code if code < 0 else code


def report(usage: UsageSnapshot, code: int, runs: int | None) -> str:
    """What the job's requests would cost, endpoint by endpoint, as aligned text."""
    from flexclient.credits import INCLUDED_CREDITS, price

    ended = f"was ended by {signal.Signals(-code).name}" if code < 0 else f"exited {code}"
    header = ("path", "requests", "billed", "credits")
    rows = [
        (path, str(u.requests), str(u.billed_requests), f"{u.credits:,}")
        for path, u in usage.endpoints
    ]
    total = usage.total
    rows.append(("total", str(total.requests), str(total.billed_requests), f"{total.credits:,}"))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        f"flexclient: the job {ended}; on Sharetribe its {total.requests:,} requests to the "
        f"fake marketplace would cost {total.credits:,} credits:",
        *(
            "  "
            + "  ".join(
                cell.ljust(width) if column == 0 else cell.rjust(width)
                for column, (cell, width) in enumerate(zip(row, widths, strict=True))
            )
            for row in [header, *rows]
        ),
    ]
    if total.transfer_credits:
        lines.append(f"  of which data transfer: {total.transfer_credits:,} credits")
    if runs is not None:
        month = total.credits * runs
        lines.append(
            f"  {runs:,} runs: {month:,} credits; as a month's only use, ${price(month):,} "
            f"({INCLUDED_CREDITS:,} included)"
        )
    return "\n".join(line.rstrip() for line in lines)
