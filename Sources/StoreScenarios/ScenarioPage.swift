import CheckReport
import Foundation
import StrictJSON

/// `forge scenario run --html`: one self-contained page (no external resource, no
/// script) drawing a run: a timeline of store time with each step, the subscription's
/// status band (from each notification's status and Get All Subscription Statuses after
/// each step) and, per step, the
/// action and its notifications with their delivery attempts. Styled like
/// `forge report --html` (`HTMLPage`); every string is escaped.
public enum ScenarioPage {
    /// Apple's subscription status numbers, as the band names and colours them.
    static let statuses: [Int: (name: String, colour: String)] = [
        1: ("active", "#2e7d32"), 2: ("expired", "#757575"), 3: ("billing retry", "#c62828"),
        4: ("grace period", "#ef6c00"), 5: ("revoked", "#6a1b9a"),
    ]

    public static func render(_ transcript: ScenarioTranscript) -> String {
        let escape = HTMLEscaping.escaped
        let start = transcript.start
        let end = max(transcript.steps.last?.storeInstant ?? start, start + 1)
        func position(_ instant: Int64) -> String {
            String(format: "%.2f", Double(instant - start) / Double(end - start) * 100)
        }
        var body = "<h1>Scenario \(escape(transcript.scenario))</h1>\n<p>\(escape(transcript.summary))</p>\n"
        body += "<dl class=\"meta\"><dt>Environment</dt><dd>\(escape(transcript.environment))</dd>"
            + "<dt>Customer</dt><dd>\(escape(transcript.customer))</dd><dt>Store time</dt><dd>\(escape(date(start))) to \(escape(date(end)))</dd>"
            + "<dt>Notifications</dt><dd>\(transcript.notificationSequence.count)</dd></dl>\n"

        // The status band: each status holds until the next change.
        body += "<h2>Subscription status</h2>\n<div class=\"band\" role=\"img\" aria-label=\"subscription status over store time\">"
        let changes = statusChanges(transcript)
        for (offset, change) in changes.enumerated() {
            guard let shown = statuses[change.status] else { continue }
            let until = offset + 1 < changes.count ? changes[offset + 1].instant : end
            let width = max(Double(until - change.instant) / Double(end - start) * 100, 0.5)
            body += "<span class=\"segment\" style=\"left:\(position(change.instant))%;width:\(String(format: "%.2f", width))%;"
                + "background:\(shown.colour)\" title=\"\(escape(shown.name)) from \(escape(date(change.instant)))\">\(escape(shown.name))</span>"
        }
        body += "</div>\n<div class=\"axis\">"
        for step in transcript.steps {
            body += "<span class=\"tick\" style=\"left:\(position(step.storeInstant))%\" title=\"step \(step.index) at \(escape(date(step.storeInstant)))\">\(step.index)</span>"
        }
        body += "</div>\n<p class=\"legend\">" + statuses.keys.sorted().map { key in
            "<span class=\"swatch\" style=\"background:\(statuses[key]!.colour)\"></span>\(escape(statuses[key]!.name))"
        }.joined(separator: " ") + "</p>\n"

        body += "<h2>Steps</h2>\n<table class=\"steps\"><thead><tr><th>#</th><th>Store time</th><th>Action</th><th>Notifications</th></tr></thead><tbody>\n"
        for step in transcript.steps {
            body += "<tr><td>\(step.index)</td><td>\(escape(date(step.storeInstant)))</td><td>"
            if let note = step.note { body += "<div class=\"note\">\(escape(note))</div>" }
            body += "<code>\(escape(actionLine(step.action)))</code></td><td>"
            if step.notifications.isEmpty { body += "—" }
            for notification in step.notifications {
                body += "<div class=\"notification\"><strong>\(escape(notification.kind))</strong> <code>\(escape(notification.notificationUUID))</code>"
                if notification.deliveryAttempts.isEmpty {
                    body += " <span class=\"attempt\">not sent</span>"
                }
                for attempt in notification.deliveryAttempts {
                    let good = attempt.sendAttemptResult == "SUCCESS"
                    body += " <span class=\"attempt \(good ? "ok" : "bad")\" title=\"\(escape(attempt.detail))\">#\(attempt.attempt) "
                        + "\(escape(date(attempt.attemptDate))) \(escape(attempt.sendAttemptResult))</span>"
                }
                body += "</div>"
            }
            body += "</td></tr>\n"
        }
        body += "</tbody></table>\n"
        body += """
        <style>
        .band, .axis { position: relative; height: 26px; border: 1px solid #d4d4d4; background: #fafafa; }
        .axis { height: 18px; border: none; background: none; }
        .segment { position: absolute; top: 0; bottom: 0; color: #fff; font-size: 11px; overflow: hidden; white-space: nowrap;
                   padding: 4px 2px; box-sizing: border-box; }
        .tick { position: absolute; font-size: 11px; transform: translateX(-50%); }
        .swatch { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 10px; vertical-align: middle; }
        table.steps td, table.steps th { border: 1px solid #d4d4d4; padding: 4px 6px; vertical-align: top; text-align: left; }
        .note { font-style: italic; margin-bottom: 2px; }
        .attempt { font-size: 12px; padding: 0 4px; border-radius: 3px; background: #eee; }
        .attempt.ok { background: #e6f4e9; } .attempt.bad { background: #fde2e2; }
        </style>

        """
        return HTMLPage.document(title: "Scenario \(escape(transcript.scenario))", body: body)
    }

    /// The first subscription's `lastTransactions` item in Get All Subscription Statuses after the step.
    static func firstSubscription(after step: ScenarioTranscript.Step) -> JSONValue? {
        step.serverAPI?.subscriptionStatuses["data"]?[0]?["lastTransactions"]?[0]
    }

    /// Where the band changes colour, in store time. A step can pass through several
    /// statuses (one clock move: grace period, then billing retry), so each notification
    /// about the first subscription places its `data.status` at its `signedDate`, and the
    /// status the Server API answers after the step is placed at the step's instant
    /// (where nothing was notified, the change shows there). Repeats are dropped.
    static func statusChanges(_ transcript: ScenarioTranscript) -> [(instant: Int64, status: Int)] {
        var changes: [(instant: Int64, status: Int)] = []
        func note(_ instant: Int64, _ status: Int) {
            if changes.last?.status != status { changes.append((instant, status)) }
        }
        for step in transcript.steps {
            guard let subscription = firstSubscription(after: step),
                  let originalTransactionId = subscription["originalTransactionId"]?.stringValue else { continue }
            for notification in step.notifications
            where notification.transactionInfo?["originalTransactionId"]?.stringValue == originalTransactionId {
                if let status = notification.payload["data"]?["status"]?.intValue { note(notification.signedDate, status) }
            }
            if let status = subscription["status"]?.intValue { note(step.storeInstant, status) }
        }
        return changes
    }

    /// `buyProduct {"customer":"alice",…}`, `PUT /inApps/…`, `requestTestNotification`.
    static func actionLine(_ action: JSONValue) -> String {
        if let verb = action["control"]?.stringValue {
            return verb + " " + String(decoding: (action["body"] ?? .object([])).encoded, as: UTF8.self)
        }
        if let request = action["serverAPI"] {
            return "\(request["method"]?.stringValue ?? "") \(request["path"]?.stringValue ?? "")"
                + (request["body"].map { " " + String(decoding: $0.encoded, as: UTF8.self) } ?? "")
        }
        return "requestTestNotification"
    }

    static func date(_ instant: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(instant) / 1_000))
    }
}
