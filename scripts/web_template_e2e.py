"""Run Sharetribe's Web Template against `flexclient fake serve` in headless Chromium, and
drive its flows: the check before every release that the fake is still good enough for the
template (docs/testing.md, "Running the Web Template against the fake").

    python scripts/web_template_e2e.py ~/src/web-template --out shots/

It starts `flexclient fake serve` (this checkout's, with `sys.executable`), builds the
template with its variables pointing at the fake (`--no-build` to use the last build: the
browser's variables are fixed when it is built), starts the template's server, and drives
the landing page, search, a listing page, sign up, log out, log in, the listing wizard, an
inquiry, a booking and a purchase, each to a screenshot in `--out`. Every request the browser
makes elsewhere than the template and the fake is refused (no internet), except Stripe.js,
which is the fake's stand-in (`/stripe/js/v3/`). It prints each flow's outcome and exits 1
if any failed.

Needs: the template's dependencies installed (`yarn install` in the checkout), Node 22
(`--node` names its `bin` folder when it is not on PATH), Chromium (`--chromium`, default
/usr/bin/chromium) and the `playwright` Python package (driving that browser; no
`playwright install`). Not run by `.ci/run`: CI has no template.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
import traceback
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STRIPE_KEY = "pk_test_flexclient_fake"
TIMEOUT_MS = 30_000


@dataclass
class Run:
    """Where the template and the fake are, and what the flows found."""

    site: str
    fake: str
    out: Path
    outcomes: dict[str, str] = field(default_factory=lambda: {})


def _wait_for(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


@contextlib.contextmanager
def fake_serve(port: int) -> Iterator[dict[str, str]]:
    """`flexclient fake serve` on `port`; the variables its banner printed."""
    from flexclient.testing._serve import read_banner

    proc = subprocess.Popen(
        [sys.executable, "-m", "flexclient", "fake", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        yield read_banner(proc.stdout)  # up to the blank line that ends it
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def template_env(
    printed: dict[str, str], site: str, port: int, node_bin: str | None
) -> dict[str, str]:
    """The template's variables: the fake's URL and client ID (from the banner), where the
    template is, a Stripe key of the fake's (the stand-in takes any) and a map token that no
    map will use offline."""
    env = dict(os.environ)
    if node_bin:
        env["PATH"] = f"{node_bin}{os.pathsep}{env['PATH']}"
    env.update(
        {
            "REACT_APP_SHARETRIBE_SDK_CLIENT_ID": printed["REACT_APP_SHARETRIBE_SDK_CLIENT_ID"],
            "SHARETRIBE_SDK_CLIENT_SECRET": printed["SHARETRIBE_SDK_CLIENT_SECRET"],
            "REACT_APP_SHARETRIBE_SDK_BASE_URL": printed["REACT_APP_SHARETRIBE_SDK_BASE_URL"],
            "REACT_APP_SHARETRIBE_SDK_ASSET_CDN_BASE_URL": printed[
                "REACT_APP_SHARETRIBE_SDK_ASSET_CDN_BASE_URL"
            ],
            "REACT_APP_STRIPE_PUBLISHABLE_KEY": STRIPE_KEY,
            "REACT_APP_MAPBOX_ACCESS_TOKEN": "no-map-offline",
            "REACT_APP_MARKETPLACE_ROOT_URL": site,
            "REACT_APP_MARKETPLACE_NAME": "Spokes",  # the default assets' marketplace
            "REACT_APP_ENV": "production",
            "NODE_ENV": "production",
            "PORT": str(port),
        }
    )
    return env


@contextlib.contextmanager
def template_server(checkout: Path, env: dict[str, str], log: Path) -> Iterator[None]:
    with log.open("w") as out:
        proc = subprocess.Popen(
            ["node", "server/index.js"], cwd=checkout, env=env, stdout=out, stderr=out
        )
        try:
            _wait_for(f"http://localhost:{env['PORT']}/robots.txt", 120)
            yield
        finally:
            proc.terminate()
            proc.wait(timeout=20)


# --- the flows -------------------------------------------------------------------------------

Page = Any  # playwright's Page: the package is imported only when the script runs


def open_page(run: Run, page: Page, path: str) -> None:
    """Go to a page of the template and wait until it has hydrated: what is typed into a form
    before that is lost, and menus do not open."""
    page.goto(run.site + path)
    page.wait_for_load_state("networkidle")


def shot(run: Run, page: Page, name: str) -> None:
    page.screenshot(path=str(run.out / f"{name}.png"), full_page=True)


def landing(run: Run, page: Page) -> None:
    open_page(run, page, "/")
    page.get_by_text("Every bike, a ride away").wait_for()
    shot(run, page, "01-landing")


def search(run: Run, page: Page) -> None:
    open_page(run, page, "/s")
    page.locator("a[href^='/l/']", has_text="bike #").first.wait_for()
    shot(run, page, "02-search")


def listing(run: Run, page: Page) -> None:
    open_page(run, page, "/s?pub_listingType=rent-a-bike")
    page.locator("a[href^='/l/']", has_text="bike #").first.click()
    page.get_by_text("Request to book").first.wait_for()
    page.get_by_text("per day").first.wait_for()
    shot(run, page, "03-listing")


def sign_up(run: Run, page: Page) -> None:
    open_page(run, page, "/signup")
    email = f"rider{int(time.time())}@example.com"
    page.fill("input[name=email]", email)
    page.fill("input[name=fname]", "Rita")
    page.fill("input[name=lname]", "Rider")
    page.fill("input[name=password]", "a-good-password")
    # the box is drawn over a hidden input, and its label holds links: click the input itself
    page.locator("input[name=terms]").first.evaluate("box => box.click()")
    page.locator("button[type=submit]").first.click()
    page.get_by_text("verify your email").first.wait_for()  # signed up and logged in
    shot(run, page, "04-signed-up")


def log_out(run: Run, page: Page) -> None:
    open_page(run, page, "/")
    page.locator("#profile-menu-label").click()
    page.locator("button:visible", has_text="Log out").first.click()
    visible(page, "Log in")
    shot(run, page, "05-logged-out")


def log_in(run: Run, page: Page, email: str = "aino@example.com") -> None:
    open_page(run, page, "/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", email.split("@")[0] + "-demo-pass")
    page.locator("button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/login" not in url, timeout=TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    shot(run, page, "06-logged-in")


def checked(page: Page, selector: str, on: bool) -> None:
    """Tick or untick a checkbox the template draws over a hidden input."""
    box = page.locator(selector).first
    if box.evaluate("b => b.checked") != on:
        box.evaluate("b => b.click()")


def next_tab(page: Page, button: str = "Next") -> None:
    page.locator("button[type=submit]:visible", has_text=button).first.click()


def wizard(run: Run, page: Page) -> None:
    """A bike for sale, with stock, from the first tab of the wizard to its listing page."""
    from flexclient.testing._seed import png

    open_page(run, page, "/l/new")
    page.select_option("select[name=listingType]", "sell-a-bike")
    page.select_option("select[name=categoryLevel1]", "road")
    page.fill("input[name=title]", "Wizard-made tandem")
    page.fill("textarea[name=description]", "A tandem for two, made through the listing wizard.")
    page.fill("input[name=pub_gears]", "3")
    checked(page, "input[id$='pub_tags.steel']", True)
    shot(run, page, "07-wizard-details")
    next_tab(page)
    page.wait_for_url(lambda url: url.endswith("/pricing-and-stock"), timeout=TIMEOUT_MS)
    page.locator("input[id$='PricingAndStockForm.price']").fill("350")
    page.fill("input[name=stock]", "3")
    next_tab(page)
    page.wait_for_url(lambda url: url.endswith("/delivery"), timeout=TIMEOUT_MS)
    checked(page, "input[id$='DeliveryForm.pickup']", False)  # an address needs a map service
    checked(page, "input[id$='DeliveryForm.shipping']", True)
    page.locator("input[id$='shippingPriceInSubunitsOneItem']").fill("15")
    page.locator("input[id$='shippingPriceInSubunitsAdditionalItems']").fill("5")
    # Saving the tab reads the listing again: a photo chosen before that answer is dropped
    # from the form when it comes (uploaded all the same, and never shown). The page's load
    # state cannot tell: the tabs are the page's own navigation, not loads.
    with page.expect_response(lambda r: "/own_listings/show" in r.url, timeout=TIMEOUT_MS):
        next_tab(page)
    page.wait_for_url(lambda url: url.endswith("/photos"), timeout=TIMEOUT_MS)
    image = {"name": "tandem.png", "mimeType": "image/png", "buffer": png(64, 48, (200, 60, 60))}
    page.locator("input[name=addImage]").set_input_files(image)
    page.locator("img[alt='tandem.png']").wait_for()  # in the form
    page.wait_for_load_state("networkidle")  # uploaded
    next_tab(page, "Publish listing")
    page.wait_for_url(lambda url: "/l/wizard-made-tandem/" in url, timeout=TIMEOUT_MS)
    visible(page, "This is your own listing")
    visible(page, "€350.00")
    shot(run, page, "08-wizard-published")


def inquiry(run: Run, page: Page) -> None:
    open_page(run, page, "/s?pub_listingType=ask-about-a-bike")
    page.locator("a[href^='/l/']", has_text="bike #").first.click()
    page.wait_for_load_state("networkidle")
    page.locator("button:visible", has_text="Send an inquiry").first.click()
    page.locator("textarea:visible").first.fill("Is it still around? I could come by on Saturday.")
    page.locator("form button[type=submit]:visible").last.click()
    page.wait_for_url(lambda url: "/order/" in url or "/sale/" in url, timeout=TIMEOUT_MS)
    page.get_by_text("Is it still around?").first.wait_for()
    page.locator("textarea:visible").last.fill("Saturday at ten, then?")
    page.locator("button:visible", has_text="Send message").first.click()
    visible(page, "Saturday at ten, then?")  # the conversation, read back from the fake
    shot(run, page, "09-inquiry")


def booking(run: Run, page: Page) -> None:
    open_page(run, page, "/s?pub_listingType=rent-a-bike")
    page.locator("a[href^='/l/']", has_text="bike #").nth(3).click()
    page.get_by_text("per day").first.wait_for()
    page.wait_for_load_state("networkidle")  # the time slots of the calendar
    page.locator("input[id$='bookingStartDate']").click()
    free = "td[role=button][data-date]:not([aria-disabled=true]):visible"
    page.locator(free).first.wait_for()
    start = page.locator(free).first.get_attribute("data-date") or ""
    page.locator(free).first.click()
    later = page.locator(free)  # read again: the end date's calendar
    for cell in later.all():
        if (cell.get_attribute("data-date") or "") > start:
            cell.click()
            break
    visible(page, "Total price")  # the estimate in the order panel
    shot(run, page, "10-booking-dates")
    page.locator("button:visible", has_text="Request to book").first.click()
    page.wait_for_url(lambda url: "/checkout" in url, timeout=TIMEOUT_MS)
    visible(page, "Total price")
    page.wait_for_load_state("networkidle")
    shot(run, page, "11-booking-checkout")
    pay(run, page, "12-booking-paid")


def visible(page: Page, text: str) -> None:
    """Wait until `text` shows (a page may hold it hidden too, for small screens)."""
    page.locator(f"text={text} >> visible=true").first.wait_for()


def pay(run: Run, page: Page, name: str) -> None:
    """Fill the checkout page's card and billing details and confirm: the fake's Stripe.js
    stand-in confirms the payment with the fake, as Stripe.js would with Stripe."""
    page.locator("input[data-fake-stripe-card]").fill("4242424242424242")
    page.fill("input[name=addressLine1]", "Pyöräkatu 1")
    page.fill("input[name=postal]", "00100")
    page.fill("input[name=city]", "Helsinki")
    page.select_option("select[name=country]", "FI")
    page.locator("button[type=submit]").last.click()
    page.wait_for_url(lambda url: "/order/" in url, timeout=TIMEOUT_MS)
    visible(page, "Activity")  # the order page, once its transaction has loaded
    visible(page, "Total price")
    shot(run, page, name)


def purchase(run: Run, page: Page) -> None:
    open_page(run, page, "/s?pub_listingType=sell-a-bike")
    page.locator("a[href^='/l/']", has_text="bike #").nth(2).click()
    page.wait_for_load_state("networkidle")
    page.wait_for_load_state("networkidle")
    page.locator("select[name=quantity]:visible").first.select_option("1")
    delivery = page.locator("select[name=deliveryMethod]:visible")
    if delivery.count():  # both pickup and shipping offered: pick it up (no address to give)
        delivery.first.select_option("pickup")
    page.locator("button:visible", has_text="Buy now").first.click()
    page.wait_for_url(lambda url: "/checkout" in url, timeout=TIMEOUT_MS)
    visible(page, "Total price")
    page.wait_for_load_state("networkidle")
    shot(run, page, "13-purchase-checkout")
    pay(run, page, "14-purchase-paid")


FLOWS: list[tuple[str, Callable[[Run, Page], None]]] = [
    ("landing page", landing),
    ("search with listings", search),
    ("a listing page", listing),
    ("sign up", sign_up),
    ("log out", log_out),
    ("log in", log_in),
    ("the listing wizard to a published listing with stock", wizard),
    ("an inquiry with its messages", inquiry),
    ("a booking to the checkout page", booking),
    ("a purchase to the checkout page", purchase),
]


def drive(run: Run, chromium: str, only: list[str] | None = None) -> None:
    from playwright.sync_api import Route, sync_playwright

    local = (run.site, run.fake)
    # The page asks for https://js.stripe.com/v3/: answered with the fake's stand-in.
    with urllib.request.urlopen(run.fake + "/stripe/js/v3/", timeout=10) as answer:
        stripe_js = answer.read()

    def route(r: Route) -> None:
        url = r.request.url
        if url.startswith("https://js.stripe.com/"):
            r.fulfill(body=stripe_js, content_type="text/javascript")
        elif url.startswith(local) or url.startswith("data:"):
            r.continue_()
        else:
            r.abort()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        page.route("**/*", route)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        by_name = {flow.__name__: (name, flow) for name, flow in FLOWS}
        for name, flow in [by_name[n] for n in only] if only else FLOWS:
            errors.clear()
            try:
                flow(run, page)
                run.outcomes[name] = "ok"
            except Exception as exc:  # one flow failing does not stop the others
                slug = name.replace(" ", "-")
                with contextlib.suppress(Exception):
                    shot(run, page, f"failed-{slug}")
                reason = "".join(traceback.format_exception_only(exc)).strip().splitlines()[0]
                run.outcomes[name] = f"FAILED: {reason}" + (
                    f" (page: {errors[0]})" if errors else ""
                )
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("template", type=Path, help="a checkout of sharetribe/web-template")
    parser.add_argument("--out", type=Path, default=Path("web-template-shots"))
    parser.add_argument("--fake-port", type=int, default=8765)
    parser.add_argument("--port", type=int, default=3000, help="the template's port")
    parser.add_argument("--node", help="the bin folder of Node 22, if it is not on PATH")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--no-build", action="store_true", help="use the template's last build")
    parser.add_argument(
        "--flow",
        action="append",
        choices=[flow.__name__ for _, flow in FLOWS],
        help="drive only this flow (repeatable; in the order given; each runs in the same "
        "browser, so log_in before what needs a user)",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    site = f"http://localhost:{args.port}"
    with fake_serve(args.fake_port) as printed:
        env = template_env(printed, site, args.port, args.node)
        if not args.no_build:
            print("# building the template (a few minutes) ...", flush=True)
            subprocess.run(
                ["npx", "--yes", "yarn@1", "run", "build"], cwd=args.template, env=env, check=True
            )
        with template_server(args.template, env, args.out / "template-server.log"):
            run = Run(site, printed["SHARETRIBE_SDK_BASE_URL"], args.out)
            drive(run, args.chromium, args.flow)
    for name, outcome in run.outcomes.items():
        print(f"{name}: {outcome}")
    return 0 if all(o == "ok" for o in run.outcomes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
