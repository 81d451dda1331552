/*
 * Referral Bridge: referral tracking (app embed).
 *
 * 1. Reads the referrer's short code (and campaign id) from the landing URL under
 *    the parameter names set on the embed (default ?mbsy=CODE&campaignid=ID).
 * 2. Keeps them in first-party storage (localStorage, or a cookie when
 *    localStorage is unavailable) until the lifetime runs out. First touch (the
 *    default) keeps an unexpired code; last touch replaces it with the newer one.
 * 3. Reads the cart (/cart.js) and, only when its attributes differ from the kept
 *    code and campaign, writes them with one POST to /cart/update.js as the hidden
 *    attributes _referral_code and _referral_campaign. The token of the cart it
 *    last saw in step with the kept values is remembered with them.
 *
 * 4. When the shop has a live friend's offer for the link's campaign (the
 *    campaigns are in data-offer-campaigns), applies the code from the URL to
 *    the session through Shopify's /discount/<code> path, once per arrival,
 *    so the friend sees the discount at checkout without typing it.
 *
 * Consent: when the store has Shopify's Customer Privacy API (a consent banner),
 * nothing is read from the URL, stored or written to the cart until the visitor
 * allows analytics and marketing, now or later (visitorConsentCollected). Without
 * the API the embed runs at once, as before.
 *
 * When: a landing from a share link (its code in the URL) is kept at once, since
 * the visitor may soon leave. On any other page the check waits until the page
 * has loaded and the browser is idle: the first use of localStorage on a page
 * loads the shop's storage on the main thread, one long task during the page's
 * own load, and nothing there is urgent.
 *
 * The check runs on every page load, which is enough: attributes stay on the cart
 * when items are added later, and a new cart (after checkout, or a cart that
 * expired) gets the attributes on the next page the visitor opens.
 * An expired code is dropped and never written; attributes already on a cart are
 * left alone. The script must never break the theme: everything is guarded and
 * it writes nothing to the console.
 */
(function () {
  var KEY = 'referral_bridge';
  var ATTR_CODE = '_referral_code';
  var ATTR_CAMPAIGN = '_referral_campaign';

  // Trimmed, case kept; anything absurd (too long, markup or control characters) is ignored.
  function clean(value) {
    value = (value || '').trim();
    return value.length <= 100 && !/[<>"]|[^\x20-\uffff]/.test(value) ? value : '';
  }

  function localStore() {
    try {
      var ls = localStorage;
      ls.setItem(KEY + '_probe', '1');
      ls.removeItem(KEY + '_probe');
      return {
        get: function () { return ls.getItem(KEY); },
        set: function (value) {
          if (value) ls.setItem(KEY, value);
          else ls.removeItem(KEY);
        }
      };
    } catch {
      return null;
    }
  }

  function cookieStore() {
    return {
      get: function () {
        var match = document.cookie.match(new RegExp('(?:^|; )' + KEY + '=([^;]*)'));
        return match ? decodeURIComponent(match[1]) : null;
      },
      set: function (value, expires) {
        document.cookie = KEY + '=' + encodeURIComponent(value || '') +
          '; path=/; expires=' + new Date(value ? expires : 0).toUTCString() + '; SameSite=Lax' +
          (location.protocol === 'https:' ? '; Secure' : '');
      }
    };
  }

  // Reads the body even of an error answer, so the connection is released.
  function json(response) {
    return response.json().then(function (body) {
      if (!response.ok) throw new Error(response.status);
      return body;
    });
  }

  function allowed(privacy) {
    if (typeof privacy.analyticsProcessingAllowed === 'function' && typeof privacy.marketingAllowed === 'function') {
      return privacy.analyticsProcessingAllowed() === true && privacy.marketingAllowed() === true;
    }
    return typeof privacy.userCanBeTracked === 'function' && privacy.userCanBeTracked() === true;
  }

  // Runs `track` once, when (and only when) the visitor's consent allows it.
  function whenAllowed(track) {
    var shopify = window.Shopify;
    if (!shopify || typeof shopify.loadFeatures !== 'function') return track();
    var done = false;
    var once = function () {
      if (done) return;
      done = true;
      track();
    };
    document.addEventListener('visitorConsentCollected', function (event) {
      try {
        var detail = (event && event.detail) || {};
        if (detail.analyticsAllowed === true && detail.marketingAllowed === true) once();
      } catch {
        // Never break the theme.
      }
    });
    shopify.loadFeatures([{ name: 'consent-tracking-api', version: '0.1' }], function (error) {
      try {
        var privacy = window.Shopify && window.Shopify.customerPrivacy;
        // A banner whose API failed to load is treated as refused: nothing is kept.
        if (!error && privacy && allowed(privacy)) once();
      } catch {
        // Never break the theme.
      }
    });
  }

  var script = document.currentScript || document.getElementById('ReferralBridgeTracking');
  var data = (script && script.dataset) || {};
  var params, code;

  function track() {
  try {
    var days = Number(data.lifetimeDays) > 0 ? Number(data.lifetimeDays) : 30;
    var cartUrl = (data.cartUrl || '/cart').replace(/\/$/, '');
    var now = Date.now();
    var store = localStore() || cookieStore();

    // Kept record: { c: code, k: campaign, x: expires at (ms), t: cart token in step }.
    var kept = null;
    try {
      kept = JSON.parse(store.get() || 'null');
    } catch {
      // A damaged record counts as none.
    }
    if (kept && !(kept.x > now && kept.c)) {
      store.set('');
      kept = null;
    }

    var campaign = code ? clean(params.get(data.campaignParam || 'campaignid')) : '';
    if (code && (!kept || kept.c === code || data.attribution === 'last_touch')) {
      kept = { c: code, k: campaign, x: now + days * 864e5, t: kept && kept.c === code && kept.k === campaign ? kept.t : '' };
      store.set(JSON.stringify(kept), kept.x);
    }
    var offers = (data.offerCampaigns || '').split(',').map(clean).filter(function (uid) { return uid && uid !== 'none'; });
    if (code && offers.length && (!campaign || offers.indexOf(campaign) >= 0)) {
      // Shopify keeps the code for checkout (a cookie set by the redirect answer); nothing else is needed from it.
      var root = (data.rootUrl || '/').replace(/\/?$/, '/');
      // Same-origin requests carry the shop's cookies: fetch's default, here and below.
      fetch(root + 'discount/' + encodeURIComponent(code) + '?redirect=' + encodeURIComponent(location.pathname), {
        redirect: 'manual'
      }).then(function (response) {
        return response.text(); // releases the connection, even of an error answer
      }).catch(function () {
        // Quiet by design: the link still counts through the cart attributes.
      });
    }
    if (!kept) return;

    var remember = function (cart) {
      if (cart && cart.token && cart.token !== kept.t) {
        kept.t = cart.token;
        store.set(JSON.stringify(kept), kept.x);
      }
    };
    var request = { headers: { Accept: 'application/json' } };

    fetch(cartUrl + '.js', request)
      .then(json)
      .then(function (cart) {
        var attributes = (cart && cart.attributes) || {};
        if (attributes[ATTR_CODE] === kept.c && (attributes[ATTR_CAMPAIGN] || '') === kept.k) {
          return remember(cart);
        }
        var body = { attributes: {} };
        body.attributes[ATTR_CODE] = kept.c;
        body.attributes[ATTR_CAMPAIGN] = kept.k;
        request.method = 'POST';
        request.headers['Content-Type'] = 'application/json';
        request.body = JSON.stringify(body);
        return fetch(cartUrl + '/update.js', request).then(json).then(remember);
      })
      .catch(function () {
        // Quiet by design: the next page load tries again.
      });
  } catch {
    // Never break the theme.
  }
  }

  try {
    params = new URLSearchParams(location.search);
    code = clean(params.get(data.codeParam || 'mbsy'));
    var run = function () { whenAllowed(track); };
    var idle = function () {
      if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 2000 });
      else setTimeout(run, 0);
    };
    if (code) run();
    else if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle);
  } catch {
    // Never break the theme.
  }
})();
