import StoreServerAPI

/// `GET /forge/console` (`?environment=sandbox` for the sandbox store): one page, no CDN
/// and no build step, that shows a store and drives it through the control API it already
/// has: the clock with buttons to move it, a form per control verb, the subscriptions with
/// their status, the transactions and events newest first (50 a page), and the request
/// journal. Its script reads `/forge/v1/state` and `/forge/v1/requests` and posts to
/// `/forge/v1/VERB`; every element a test drives has an `id`.
enum ConsolePage {
    static let path = "/forge/console"

    /// Why the page's query is refused (anything but `environment=production|sandbox`), or nil.
    static func refusal(query: String?) -> String? {
        for item in ServerAPIRequest.queryItems(query ?? "") {
            guard item.name == "environment", ["production", "sandbox"].contains(item.value) else {
                return "query '\(item.name)=\(item.value)': the console takes environment=production or environment=sandbox only"
            }
        }
        return nil
    }

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Receipt Forge: local App Store</title>
        <style>
          body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d1d1f; }
          h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.1em; margin: 1.2em 0 .4em; }
          nav a { margin-right: .8em; } nav a.current { font-weight: 600; text-decoration: none; color: inherit; }
          table { border-collapse: collapse; width: 100%; font-size: 13px; }
          th, td { text-align: left; padding: .2em .6em; border-bottom: 1px solid #e5e5ea; white-space: nowrap; }
          th { background: #f5f5f7; }
          form, .row { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; }
          #message { min-height: 1.4em; font-weight: 600; } #message.error { color: #c00; } #message.ok { color: #070; }
          .status-1 { color: #070; } .status-2 { color: #888; } .status-3, .status-4 { color: #b60; } .status-5 { color: #c00; }
          .pager button { margin: .3em .3em 0 0; }
        </style>
        </head>
        <body>
        <h1>Local App Store</h1>
        <nav>Environment: <a id="env-production" href="?environment=production">production</a><a id="env-sandbox" href="?environment=sandbox">sandbox</a>
          · <a href="/forge/v1/state">state JSON</a> · <a href="/forge/v1/requests">request journal JSON</a></nav>

        <h2>Clock</h2>
        <div class="row">Store time: <time id="now">…</time>
          <button id="advance-day" data-seconds="86400">+1 day</button>
          <button id="advance-month" data-seconds="2678400">+31 days</button>
          <button id="advance-year" data-seconds="31536000">+1 year</button></div>

        <h2>Buy</h2>
        <form id="buy-form">
          <label>Customer <input id="buy-customer" required value="console"></label>
          <label>Product <select id="buy-product"></select></label>
          <button id="buy-submit" type="submit">Buy</button>
        </form>

        <h2>Act on a subscription or a transaction</h2>
        <form id="action-form">
          <select id="action-verb">
            <option value="forceRenewalOfSubscription" data-key="originalTransactionId">renew now</option>
            <option value="failRenewal" data-key="originalTransactionId">fail the next renewal (billing retry)</option>
            <option value="recoverBilling" data-key="originalTransactionId">recover billing</option>
            <option value="expireSubscription" data-key="originalTransactionId">expire</option>
            <option value="disableAutoRenewForTransaction" data-key="originalTransactionId">turn auto-renew off</option>
            <option value="enableAutoRenewForTransaction" data-key="originalTransactionId">turn auto-renew on</option>
            <option value="refundTransaction" data-key="transactionId">refund</option>
            <option value="declineRefund" data-key="transactionId">decline a refund request</option>
            <option value="reverseRefund" data-key="transactionId">reverse a refund</option>
            <option value="revokeTransaction" data-key="transactionId">revoke</option>
          </select>
          <input id="action-target" placeholder="originalTransactionId or transactionId" size="24" required>
          <button id="action-submit" type="submit">Send</button>
        </form>
        <p id="message" role="status"></p>

        <h2>Subscriptions <span id="subscription-count"></span></h2>
        <table id="subscriptions"><thead><tr><th>original transaction</th><th>customer</th><th>product</th><th>status</th>
          <th>expires</th><th>auto-renew</th><th>latest transaction</th></tr></thead><tbody></tbody></table>
        <div class="pager" id="subscriptions-pager"></div>

        <h2>Transactions, newest first <span id="transaction-count"></span></h2>
        <table id="transactions"><thead><tr><th>transaction</th><th>original</th><th>customer</th><th>product</th>
          <th>reason</th><th>purchased</th><th>expires</th><th>revoked</th></tr></thead><tbody></tbody></table>
        <div class="pager" id="transactions-pager"></div>

        <h2>Events, newest first</h2>
        <table id="events"><thead><tr><th>#</th><th>date</th><th>event</th><th>customer</th><th>product</th>
          <th>transaction</th></tr></thead><tbody></tbody></table>
        <div class="pager" id="events-pager"></div>

        <h2>Requests, newest first</h2>
        <table id="requests"><thead><tr><th>#</th><th>request</th><th>answered by</th><th>action</th><th>HTTP</th>
          <th>Apple's code</th><th>token check</th><th>why</th></tr></thead><tbody></tbody></table>

        <script>
        "use strict";
        const environment = new URLSearchParams(location.search).get("environment") === "sandbox" ? "sandbox" : "production";
        const prefix = environment === "sandbox" ? "/sandbox" : "";
        document.getElementById("env-" + environment).classList.add("current");
        const pageSize = 50;
        const pages = { subscriptions: 0, transactions: 0, events: 0 };
        const statusNames = { 1: "active", 2: "expired", 3: "billing retry", 4: "grace period", 5: "revoked" };
        let state = null;

        function date(milliseconds) { return milliseconds == null ? "" : new Date(milliseconds).toISOString().replace(".000Z", "Z"); }
        function cell(text, className) {
          const td = document.createElement("td");
          td.textContent = text == null ? "" : String(text);
          if (className) td.className = className;
          return td;
        }
        function fill(id, rows, page, render) {
          const body = document.querySelector("#" + id + " tbody");
          body.replaceChildren(...rows.slice(page * pageSize, (page + 1) * pageSize).map(item => {
            const tr = document.createElement("tr");
            tr.append(...render(item));
            return tr;
          }));
          const pager = document.getElementById(id + "-pager");
          if (!pager) return;
          const count = Math.max(1, Math.ceil(rows.length / pageSize));
          pager.replaceChildren();
          if (count > 1) {
            for (const [label, target] of [["previous", page - 1], ["next", page + 1]]) {
              const button = document.createElement("button");
              button.textContent = label;
              button.disabled = target < 0 || target >= count;
              button.onclick = () => { pages[id] = target; render_state(); };
              pager.append(button);
            }
            pager.append(document.createTextNode(" page " + (page + 1) + " of " + count));
          }
        }
        function render_state() {
          document.getElementById("now").textContent = date(state.now);
          const select = document.getElementById("buy-product");
          if (!select.options.length) {
            for (const product of state.products) select.append(new Option(product.productId + " (" + product.type + ")", product.productId));
          }
          document.getElementById("subscription-count").textContent = "(" + state.subscriptions.length + ")";
          document.getElementById("transaction-count").textContent = "(" + state.transactions.length + ")";
          fill("subscriptions", state.subscriptions, pages.subscriptions, s => [cell(s.originalTransactionId), cell(s.customerId),
            cell(s.productId), cell(statusNames[s.status] || s.status, "status-" + s.status), cell(date(s.expiresDate)),
            cell(s.autoRenewStatus === 1 ? "on" : "off"), cell(s.latestTransactionId)]);
          const transactions = state.transactions.slice().sort((a, b) => b.purchaseDate - a.purchaseDate || Number(b.transactionId) - Number(a.transactionId));
          fill("transactions", transactions, pages.transactions, t => [cell(t.transactionId), cell(t.originalTransactionId),
            cell(t.customerId), cell(t.productId), cell(t.transactionReason), cell(date(t.purchaseDate)), cell(date(t.expiresDate)),
            cell(date(t.revocationDate))]);
          const events = (state.events || []).slice().reverse();
          fill("events", events, pages.events, e => [cell(e.sequence), cell(date(e.date)), cell(e.type), cell(e.customerId),
            cell(e.productId), cell(e.transactionId)]);
        }
        async function refresh() {
          const answer = await fetch(prefix + "/forge/v1/state");
          state = await answer.json();
          render_state();
          const journal = await (await fetch(prefix + "/forge/v1/requests?limit=20")).json();
          fill("requests", journal.requests, 0, r => [cell(r.sequence), cell(r.method + " " + r.path), cell(r.surface),
            cell(r.action), cell(r.http), cell(r.appleErrorCode), cell(r.authFailure), cell(r.detail)]);
        }
        async function control(verb, body) {
          const message = document.getElementById("message");
          const answer = await fetch(prefix + "/forge/v1/" + verb, { method: "POST", headers: { "Content-Type": "application/json" },
                                                                     body: JSON.stringify(body) });
          const json = await answer.json().catch(() => ({}));
          if (answer.ok) {
            message.className = "ok";
            message.textContent = verb + ": done" + (json.transactionIds && json.transactionIds.length ? " (transaction " + json.transactionIds.join(", ") + ")" : "");
          } else {
            message.className = "error";
            message.textContent = verb + ": " + (json.error ? json.error.field + ": " + json.error.message : "HTTP " + answer.status);
          }
          await refresh();
        }
        for (const button of document.querySelectorAll("[data-seconds]")) {
          button.onclick = () => control("advanceClock", { seconds: Number(button.dataset.seconds) });
        }
        document.getElementById("buy-form").onsubmit = event => {
          event.preventDefault();
          control("buyProduct", { customer: document.getElementById("buy-customer").value,
                                  productId: document.getElementById("buy-product").value });
        };
        document.getElementById("action-form").onsubmit = event => {
          event.preventDefault();
          const option = document.getElementById("action-verb").selectedOptions[0];
          control(option.value, { [option.dataset.key]: document.getElementById("action-target").value.trim() });
        };
        refresh();
        </script>
        </body>
        </html>

        """#
}
