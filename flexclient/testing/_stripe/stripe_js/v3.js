// A stand-in for Stripe.js (https://js.stripe.com/v3/), served by flexclient's fake
// marketplace at /stripe/js/v3/ for browser tests that cannot load the real one. It has the
// few calls a marketplace's checkout makes, and confirms payments with the fake's Stripe:
// POST <fake>/stripe/v1/payment_intents/<id>/confirm. The card "element" is a plain text
// input: type a test card number (4242424242424242 is accepted, 4000000000000002 declined),
// or leave it for pm_card_visa.
(function () {
  var FAKE = "__FAKE_URL__";

  function cardElement() {
    var listeners = {};
    var input = document.createElement("input");
    input.setAttribute("data-fake-stripe-card", "");
    input.setAttribute("placeholder", "Card number (fake Stripe)");
    input.style.width = "100%";
    input.addEventListener("input", function () {
      var digits = input.value.replace(/\D/g, "");
      var event = {
        elementType: "card",
        empty: digits.length === 0,
        complete: digits.length >= 12,
        value: { postalCode: "" },  // a real card element asks for it too
      };
      (listeners.change || []).forEach(function (f) { f(event); });
    });
    var element = {
      mount: function (where) {
        var node = typeof where === "string" ? document.querySelector(where) : where;
        node.appendChild(input);
      },
      unmount: function () { if (input.parentNode) input.parentNode.removeChild(input); },
      destroy: function () { element.unmount(); },
      on: function (name, f) { (listeners[name] = listeners[name] || []).push(f); return element; },
      off: function (name, f) {
        listeners[name] = (listeners[name] || []).filter(function (g) { return g !== f; });
        return element;
      },
      update: function () {},
      focus: function () { input.focus(); },
      blur: function () { input.blur(); },
      clear: function () { input.value = ""; },
      _method: function () {
        var digits = input.value.replace(/\D/g, "");
        return digits.length >= 12 ? digits : "pm_card_visa";
      },
    };
    element.addEventListener = element.on;
    element.removeEventListener = element.off;
    return element;
  }

  function call(method, clientSecret, path, form) {
    var id = clientSecret.split("_secret_")[0];
    var body = new URLSearchParams(Object.assign({ client_secret: clientSecret }, form || {}));
    var url = FAKE + "/stripe/v1/payment_intents/" + id + path;
    var request = method === "GET"
      ? fetch(url + "?" + body.toString())
      : fetch(url, { method: "POST", body: body });
    return request.then(function (answer) {
      return answer.json().then(function (json) {
        return answer.ok ? { paymentIntent: json } : { error: json.error };
      });
    });
  }

  window.Stripe = function (publishableKey) {
    return {
      elements: function () { return { create: function () { return cardElement(); } }; },
      confirmCardPayment: function (clientSecret, data) {
        var given = (data || {}).payment_method;
        var method = typeof given === "string" ? given : given && given.card ? given.card._method() : "pm_card_visa";
        return call("POST", clientSecret, "/confirm", { payment_method: method });
      },
      retrievePaymentIntent: function (clientSecret) { return call("GET", clientSecret, ""); },
      handleCardAction: function (clientSecret) { return call("GET", clientSecret, ""); },
      createToken: function () {
        return Promise.resolve({ token: { id: "ct_fake_" + Date.now(), object: "token" } });
      },
      createPaymentMethod: function () {
        return Promise.resolve({ paymentMethod: { id: "pm_card_visa", object: "payment_method" } });
      },
    };
  };
})();
