import LocalAppStore

/// The query of `GET /forge/v1/state`, read into a `StateQuery`:
/// - `customer=ID`: only that customer's record, transactions, subscriptions and events;
/// - `eventsFrom=N`: events from sequence number N on (a whole number, at least 1);
/// - `eventsLimit=N`: at most N events (1 to 100,000); the document's `nextEventsFrom`
///   then names the next page's `eventsFrom`.
/// Each at most once; any other parameter, or a value that is not one of these, is
/// refused (`invalidRequest`, naming the parameter), so a misspelt filter does not
/// quietly answer the whole store.
enum StateQueryParameters {
    static let names = ["customer", "eventsFrom", "eventsLimit"]
    /// The largest page of events one request may ask for.
    static let maximumEventsLimit = 100_000

    /// The query of `target` (what follows its first `?`); the default query without one.
    static func parse(_ target: String) throws(ControlError) -> StateQuery {
        var query = StateQuery()
        guard let mark = target.firstIndex(of: "?") else { return query }
        var seen: Set<String> = []
        for pair in target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count == 2 ? String(parts[1]) : ""
            guard names.contains(name) else {
                throw ControlError(.invalidRequest, field: "query",
                                   "'\(name)' is not a parameter of state (parameters: \(names.joined(separator: ", ")))")
            }
            guard seen.insert(name).inserted else {
                throw ControlError(.invalidRequest, field: name, "is given twice")
            }
            switch name {
            case "customer":
                // Customer ids are ASCII letters, digits, '.', '_' and '-': nothing to percent-decode.
                guard !value.isEmpty else { throw ControlError(.invalidRequest, field: name, "is empty") }
                query.customer = value
            case "eventsFrom":
                guard let number = Int(value), number >= 1 else {
                    throw ControlError(.invalidRequest, field: name, "'\(value)' is not an event sequence number (1 or more)")
                }
                query.eventsFrom = number
            default:
                guard let number = Int(value), (1...maximumEventsLimit).contains(number) else {
                    throw ControlError(.invalidRequest, field: name, "'\(value)' is not a number of events from 1 to \(maximumEventsLimit)")
                }
                query.eventsLimit = number
            }
        }
        return query
    }
}
