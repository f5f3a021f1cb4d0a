"""Decoding a page: flexclient's whole typed decode against the bare parsers of the same bytes.

    python benchmarks/decode.py [--shape NAME]

A 100-listing page with 100 included users and 300 included images. "flexclient" is the full
path of a response body: decode, build typed models, and resolve every relationship of every
listing (author and images). Baselines are measured in the same run, in alternation with
flexclient: for JSON, the eager-model floor (plain pydantic models of the page's fields,
validated from the same bytes with the collector paused and the relationships resolved by
hand: `_plain_models.py`) and `json.loads`; for Transit, transit-python's `Reader.read`.
With node and the official SDK installed (.cache/js-sdks, as .ci/run installs it), the SDK's
own decode of the same Transit is timed too. Targets: JSON at most 1.1x the eager-model floor;
Transit at most 1x Reader.read. Then what a page leaves to the cyclic collector: the objects
it tracks, a pass of the young generations over it, and its freeing. Last, every shape of
page end_to_end.py reads (`_pages.SHAPES`; one with `--shape NAME`, which prints that alone):
the decode and what a program reads of it, in JSON against `json.loads` and in Transit
against `Reader.read`, and the JS SDK's own decode of the same Transit.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic_core import from_json
from transit.reader import Reader

sys.path.insert(0, str(Path(__file__).parent))

import _plain_models
from _machine import described, js_modules
from _pages import READS, SHAPES, encoded, encoded_shape

from flexclient._support.json_reading import gc_paused
from flexclient._wire.formats import JSON, TRANSIT
from flexclient.models import Listing
from flexclient.models._decoding import read_envelope
from flexclient.models._envelope import _adapter

ROOT = Path(__file__).parents[1]


def best(fn: Callable[[], Any], repeat: int = 15) -> float:
    """The best of `repeat` timings, in seconds; freeing the result is not timed."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
        del result
    return min(times)


def in_a_row(fn: Callable[[], Any], pages: int = 100) -> float:
    """Seconds a page over `pages` calls in a row, each result dropped before the next.

    Unlike `best`, this counts every collector pass a decode leaves for later.
    """
    started = time.perf_counter()
    for _ in range(pages):
        fn()
    return (time.perf_counter() - started) / pages


def paired(
    baseline: Callable[[], Any], ours: Callable[[], Any], rounds: int = 40
) -> tuple[float, float, float]:
    """Best times of both, measured in alternation (a slow moment of the machine hits both),
    and the median of each round's ratio, ours over the baseline: on a shared machine whose
    speed moves from one second to the next, the steadier of the two figures."""
    base, mine = [], []
    for _ in range(rounds):
        base.append(best(baseline, 1))
        mine.append(best(ours, 1))
    return min(base), min(mine), statistics.median(m / b for b, m in zip(base, mine, strict=True))


def full_decode(fmt: Any, raw: bytes) -> Any:
    env = read_envelope(fmt, raw)  # what the client does with a response's body
    for listing in env.data:
        _ = listing.author, listing.images
    return env


def verify(env: Any, listings: int) -> None:
    assert len(env.data) == listings and all(isinstance(x, Listing) for x in env.data)
    first = env.data[0]
    assert first.author.attributes.profile.display_name == "Jane D"
    assert len(first.images) == 3 and first.images[0].attributes.variants["default"].width == 750
    assert first.attributes.price is not None and first.attributes.price.currency == "EUR"


def js_decode_ms(transit: bytes) -> float | None:
    modules = js_modules()
    if modules is None:
        return None
    path = ROOT / "benchmarks" / ".page.transit"
    path.write_bytes(transit)
    try:
        done = subprocess.run(
            ["node", str(ROOT / "benchmarks" / "js_decode.js"), str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "NODE_PATH": str(modules)},
            check=True,
        )
    finally:
        path.unlink(missing_ok=True)
    return float(done.stdout.strip())


def print_stages(
    json_raw: bytes, transit_raw: bytes, t_json: float, t_transit: float, t_loads: float
) -> None:
    """Where flexclient's decode time goes, each stage timed on its own.

    Reading: Transit's parse and walk into plain values; for JSON, pydantic-core's parse of
    the bytes alone (JSON is parsed and validated in one pass, so this part of "models" is
    shown apart). Models: the validation into typed resources. Relationships: the envelope,
    resolving every relationship, and reading each listing's author and images. Collector:
    the cyclic garbage collector's pass over the new objects (full decode less the same with
    the collector off).
    """
    body = _adapter()
    # The client's own pause, held around every stage: the decodes inside leave the
    # collector off, so its pass is the difference from the full decode.
    with gc_paused():
        json_parse = best(lambda: from_json(json_raw), 40)
        json_models = best(lambda: body.validate_json(json_raw), 40)  # parse included
        json_rest = best(lambda: full_decode(JSON, json_raw), 40)
        walk = best(lambda: TRANSIT.decode(transit_raw), 40)
        # Each time on a fresh walk's output, as in a decode: a reused one stays in the caches.
        transit_read = best(lambda: body.validate_python(TRANSIT.decode(transit_raw)), 40)
        transit_rest = best(lambda: full_decode(TRANSIT, transit_raw), 40)
    rows = {
        "JSON": (json_parse, json_models - json_parse, json_rest - json_models, t_json - json_rest),
        "Transit": (
            walk,
            transit_read - walk,
            transit_rest - transit_read,
            t_transit - transit_rest,
        ),
    }
    print("\nwhere the time goes (ms; in brackets, times json.loads of the JSON):")
    print(f"  {'':8}{'reading':>16}{'models':>16}{'relationships':>16}{'collector':>16}")
    for name, parts in rows.items():
        cells = "".join(f"{t * 1e3:9.2f} ({t / t_loads:3.1f})" for t in parts)
        print(f"  {name:8}{cells}")


def shape_row(shape: str) -> str:
    """One shape's row of `print_shapes`."""
    json_raw, transit_raw = encoded_shape(shape)
    read = READS[shape]

    def ours(fmt: Any, raw: bytes) -> Any:
        envelope = read_envelope(fmt, raw)
        read(envelope.data)
        return envelope

    t_loads, t_json, r_json = paired(lambda: json.loads(json_raw), lambda: ours(JSON, json_raw))
    t_reader, t_transit, r_transit = paired(
        lambda: Reader("json").read(io.StringIO(transit_raw.decode())),
        lambda: ours(TRANSIT, transit_raw),
    )
    js = js_decode_ms(transit_raw)
    return (
        f"  {shape:14}{t_json * 1e3:8.2f}{t_loads * 1e3:12.2f}{r_json:7.2f}x"
        f"{t_transit * 1e3:10.2f}{t_reader * 1e3:13.2f}{r_transit:7.2f}x"
        + (f"{js:9.2f}" if js is not None else "   (none)")
    )


def print_shapes(shapes: list[str]) -> None:
    """Each shape's decode, and what a program reads of it, against the bare parsers of the
    same bytes (median of per-round ratios, best times), and the JS SDK's decode."""
    print("\nevery shape: decode and read, against the bare parser (median of per-round ratios)")
    print(f"  {'shape':14}{'JSON':>8}{'json.loads':>12}{'ratio':>8}{'Transit':>10}", end="")
    print(f"{'Reader.read':>13}{'ratio':>8}{'JS SDK':>9}")
    for shape in shapes:
        print(shape_row(shape))
    print("  (ms, best times; JS SDK: its own decode of the Transit, best of 15)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", choices=list(SHAPES), help="that shape's decode alone")
    args = parser.parse_args()
    print(described(js_modules()))
    if args.shape:
        print_shapes([args.shape])
        return
    json_raw, transit_raw = encoded(100, 100)
    verify(full_decode(JSON, json_raw), 100)
    verify(full_decode(TRANSIT, transit_raw), 100)

    t_json_loads, t_ours_json, _ = paired(
        lambda: json.loads(json_raw), lambda: full_decode(JSON, json_raw)
    )

    def floor() -> Any:
        with gc_paused():
            return _plain_models.decode(json_raw)

    assert floor().data[0].author is not None and len(floor().data[0].images) == 3
    t_floor, t_ours_vs_floor, median_floor = paired(floor, lambda: full_decode(JSON, json_raw))
    t_reader, t_ours_transit, median_reader = paired(
        lambda: Reader("json").read(io.StringIO(transit_raw.decode())),
        lambda: full_decode(TRANSIT, transit_raw),
    )
    sizes = f"JSON {len(json_raw)} B, Transit {len(transit_raw)} B"
    print(f"page: 100 listings, 100 users, 300 images; {sizes}")
    row = "{:<28}{:8.2f} ms{}"
    print(row.format("JSON    json.loads", t_json_loads * 1e3, ""))
    ratio = t_ours_json / t_json_loads
    print(row.format("JSON    flexclient", t_ours_json * 1e3, f"   {ratio:5.2f}x json.loads"))
    print(row.format("JSON    eager-model floor", t_floor * 1e3, ""))
    ratio = t_ours_vs_floor / t_floor
    print(
        row.format(
            "JSON    flexclient",
            t_ours_vs_floor * 1e3,
            f"   {ratio:5.2f}x the floor, median of rounds {median_floor:4.2f}x (target <= 1.1x)",
        )
    )
    print(row.format("Transit Reader.read", t_reader * 1e3, ""))
    ratio = t_ours_transit / t_reader
    print(
        row.format(
            "Transit flexclient",
            t_ours_transit * 1e3,
            f"   {ratio:5.2f}x, median of rounds {median_reader:4.2f}x (target <= 1x)",
        )
    )
    js = js_decode_ms(transit_raw)
    if js is None:
        print("Transit official JS SDK     (node or the SDK not installed; skipped)")
    else:
        ours_js = t_ours_transit * 1e3 / js
        print(row.format("Transit official JS SDK", js, f"   ours / JS {ours_js:5.2f}x"))

    print_stages(json_raw, transit_raw, t_ours_json, t_ours_transit, t_json_loads)

    print("\nper-listing cost as the page grows (json.loads of the same JSON for comparison):")
    for size in (10, 100, 1000):
        j, t = encoded(size)
        each = {
            name: best(fn, 7) / size * 1e6
            for name, fn in (
                ("JSON", lambda j=j: full_decode(JSON, j)),
                ("Transit", lambda t=t: full_decode(TRANSIT, t)),
                ("json.loads", lambda j=j: json.loads(j)),
            )
        }
        print(f"  {size:5d} listings: " + ", ".join(f"{k} {v:6.1f} us" for k, v in each.items()))

    # A client reading page after page: each result dropped before the next, so every pass
    # of the collector counts, for the baselines too (the best single time above leaves out
    # the passes json.loads triggers while it builds, and the freeing of each result).
    print("\n100 pages in a row, each dropped before the next (every collector pass counted):")
    for name, base, ours in (
        ("JSON", lambda: json.loads(json_raw), lambda: full_decode(JSON, json_raw)),
        (
            "Transit",
            lambda: Reader("json").read(io.StringIO(transit_raw.decode())),
            lambda: full_decode(TRANSIT, transit_raw),
        ),
    ):
        t_base = min(in_a_row(base) for _ in range(3))
        t_ours = min(in_a_row(ours) for _ in range(3))
        print(
            f"  {name:8}baseline {t_base * 1e3:5.2f} ms a page, flexclient {t_ours * 1e3:5.2f} ms:"
            f" {t_ours / t_base:5.2f}x"
        )

    print_objects(json_raw, transit_raw)
    print_shapes(list(SHAPES))


def print_objects(json_raw: bytes, transit_raw: bytes) -> None:
    """What a decoded page leaves to the cyclic collector: the objects it tracks, one pass of
    the young generations over a page decoded with the collector off (so that all of it is
    young), and the freeing of the page (the best of 15 each)."""
    print("\na decoded page and the collector (best of 15):")
    for name, fmt, raw in (("JSON", JSON, json_raw), ("Transit", TRANSIT, transit_raw)):
        gc.collect()
        before = len(gc.get_objects())
        page = full_decode(fmt, raw)
        gc.collect()
        tracked = len(gc.get_objects()) - before
        del page
        passes, frees = [], []
        for _ in range(15):
            # Turned on again only after the timed pass: the first allocation with the
            # collector on would run that pass at once, untimed.
            gc.disable()
            page = full_decode(fmt, raw)
            started = time.perf_counter()
            gc.collect(1)
            passes.append(time.perf_counter() - started)
            gc.enable()
            started = time.perf_counter()
            del page
            frees.append(time.perf_counter() - started)
        print(
            f"  {name:8}{tracked:6d} objects tracked, a young pass {min(passes) * 1e3:5.2f} ms,"
            f" freeing {min(frees) * 1e3:5.2f} ms"
        )


if __name__ == "__main__":
    main()
