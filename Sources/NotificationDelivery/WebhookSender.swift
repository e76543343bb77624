/// What became of one POST to a webhook: Apple's word for it, and what the forge saw
/// (the HTTP status, or the error) for people reading the record.
public struct WebhookOutcome: Sendable, Hashable {
    public let result: SendAttemptResult
    public let detail: String

    public init(result: SendAttemptResult, detail: String) {
        self.result = result
        self.detail = detail
    }
}

/// Sends one notification body to a webhook. The HTTP one is `HTTPWebhookSender`;
/// anything else (a test's recorder) can stand in.
public protocol WebhookSender: Sendable {
    func post(_ body: [UInt8], to url: String) async -> WebhookOutcome
}
