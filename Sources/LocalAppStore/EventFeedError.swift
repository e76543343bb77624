import AppInput

/// Why a store refused a consumer for its events (`LocalAppStore.attachEventConsumer`):
/// the feed has one owner, since taking events is destructive; a second one would
/// silently take half of them.
public enum EventFeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another consumer (another notification channel), still alive, owns the events of
    /// the store of this environment: share that one instead of making a second.
    case storeHasAnEventConsumer(AppEnvironment)

    public var description: String {
        switch self {
        case .storeHasAnEventConsumer(let environment):
            return "the \(environment.rawValue) store's events already go to another consumer (a notification channel); "
                + "share that one instead of making a second (storeHasAnEventConsumer)"
        }
    }
}
