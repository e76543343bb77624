import LocalAppStore
import StrictJSON

// The bodies of the verbs that act on the store as a whole or on a customer.

/// `{"seconds"}`, `{"milliseconds"}` or `{"to"}` (an instant, milliseconds since 1970):
/// exactly one. The clock only moves forward.
struct AdvanceClockRequest: Decodable {
    enum Amount {
        case seconds(Int64)
        case milliseconds(Int64)
        case to(StoreInstant)
    }

    var amount: Amount

    enum CodingKeys: String, CodingKey, CaseIterable {
        case seconds, milliseconds, to
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        let given = CodingKeys.allCases.filter(members.contains)
        guard given.count == 1 else {
            let names = CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")
            let path = given.count > 1 ? members.codingPath + [given[1]] : members.codingPath
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: given.isEmpty
                ? "give one of \(names)" : "give only one of \(names), not \(given.map(\.stringValue).joined(separator: " and "))"))
        }
        switch given[0] {
        case .seconds: amount = .seconds(try members.decode(Int64.self, forKey: .seconds))
        case .milliseconds: amount = .milliseconds(try members.decode(Int64.self, forKey: .milliseconds))
        case .to: amount = .to(try members.decode(Int64.self, forKey: .to))
        }
    }

    /// Moves the store's clock as asked, in parts (`LocalAppStore.advanceClock`).
    func apply(to store: LocalAppStore) throws(StoreError) -> StoreActionResult {
        try store.advanceClock { state throws(StoreError) in try target(in: state) }
    }

    /// The instant the clock is to move to. The store names the amount `milliseconds` or
    /// `instant`; a refusal names the member the request gave.
    func target(in state: StoreState) throws(StoreError) -> StoreInstant {
        do throws(StoreError) {
            switch amount {
            case .seconds(let seconds):
                let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: StoreDuration.second)
                guard !overflow else {
                    throw StoreError(.invalidValue, field: "seconds", "\(seconds) seconds is past the end of time")
                }
                return try state.clockTarget(by: milliseconds)
            case .milliseconds(let milliseconds):
                return try state.clockTarget(by: milliseconds)
            case .to(let instant):
                return try state.clockTarget(to: instant)
            }
        } catch {
            var renamed = error
            switch amount {
            case .seconds: renamed.field = "seconds"
            case .milliseconds: renamed.field = "milliseconds"
            case .to: renamed.field = "to"
            }
            throw renamed
        }
    }
}

/// `{"customer"}`: SKTestSession's `clearTransactions` for one customer, and the
/// customer's `receipt`.
struct CustomerRequest: Decodable {
    var customer: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case customer
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        customer = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .customer)
    }
}

/// `{}` or no body: resetToDefaultState and the state read take nothing.
struct EmptyRequest: Decodable {
    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(NoMembers.self)
    }

    private enum NoMembers: CodingKey, CaseIterable {}
}
