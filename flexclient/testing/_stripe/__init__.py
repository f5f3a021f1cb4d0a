"""Stripe, as the fake marketplace simulates it, with no network: everything of Stripe's in one
place but for the two registries that find their entries by kind.

- `accounts`: the records the API keeps for users (Connect accounts, persons, customers,
  payment methods, setup intents), made from Stripe's test tokens; test cards that decline.
- `payment_intents`: the PaymentIntents that a process's payment actions make and move.
- `browser`: what a browser and Stripe itself do beside the marketplace's API: `fake.stripe`
  (`FakeStripe`) for tests, and the calls of the stand-in for Stripe.js (`stripe_js/v3.js`)
  that the fake serves to a web page.

The Stripe endpoints of the Marketplace API are handled in `flexclient.testing._handlers.stripe`
with the other endpoint groups; the process actions `action/stripe-*` are in
`flexclient.testing._actions.payments` with the other actions.
"""
