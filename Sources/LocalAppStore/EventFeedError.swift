/// Why a store refused a consumer for its events (`LocalAppStore.attachEventConsumer`):
/// the feed has one owner, since taking events is destructive; a second one would
/// silently take half of them.
public struct EventFeedError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Another consumer (another notification channel) already owns the store's events.
        case storeHasAnEventConsumer
    }

    public let code: Code
    /// Why, in a sentence (naming the store's environment).
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(reason) (\(code.rawValue))" }
}
