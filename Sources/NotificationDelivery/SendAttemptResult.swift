/// What the App Store records for one attempt to send a notification: Apple's
/// `sendAttemptResult` words (App Store Server API, "sendAttemptResult"), as Get
/// Notification History and Get Test Notification Status return them.
///
/// Apple names the results without defining each; the forge's reading of a webhook's
/// behaviour (`WebhookOutcome`) into them is written down there.
public enum SendAttemptResult: String, Sendable, Hashable, Codable, CaseIterable {
    case success = "SUCCESS"
    case timedOut = "TIMED_OUT"
    case tlsIssue = "TLS_ISSUE"
    case circularRedirect = "CIRCULAR_REDIRECT"
    case noResponse = "NO_RESPONSE"
    case socketIssue = "SOCKET_ISSUE"
    case unsupportedCharset = "UNSUPPORTED_CHARSET"
    case invalidResponse = "INVALID_RESPONSE"
    case prematureClose = "PREMATURE_CLOSE"
    case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    case other = "OTHER"

    /// HTTP 200 to 206 is a delivered notification; any other status is a failed attempt
    /// (APPSTORESERVERAPI.md, "Notifications V2 delivery").
    public static func forStatus(_ status: Int) -> SendAttemptResult {
        (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode
    }
}
