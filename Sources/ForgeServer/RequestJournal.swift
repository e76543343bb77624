import ForgeSupport
import Foundation
import StoreControlAPI
import StoreServerAPI

/// The last requests `forge serve` answered, newest first, for `GET /forge/v1/requests`
/// (`/sandbox/forge/v1/requests`: the sandbox's only): what a client sent and what it got,
/// with the reason, so a request a client thinks "should have worked" is explained
/// without reading the log. A ring of `capacity` entries: memory stays bounded however
/// long the server runs. The bearer token is never kept: only the check it failed and
/// what that check found (`AuthenticationError`'s message names claims, not the token).
final class RequestJournal: Sendable {
    /// One answered request.
    struct Entry: Sendable {
        let sequence: Int
        /// When the answer was sent, milliseconds since 1970 (wall clock).
        let date: Int64
        /// `production` or `sandbox`, from the path; nil for `/health` and unknown paths.
        let environment: String?
        let method: String
        let path: String
        let query: String?
        /// What answered: `verifyReceipt`, `serverAPI`, `control`, `health`, `console` or `none`.
        let surface: String
        /// The store action the request asked for: the Server API endpoint's name or the control verb.
        let action: String?
        let http: Int?
        /// verifyReceipt's `status`.
        let verifyReceiptStatus: Int?
        /// Apple's `errorCode` of an error answer.
        let appleErrorCode: Int?
        /// The bearer-token check that failed (`X-Forge-Auth-Failure`).
        let authFailure: String?
        /// The log line's verdict: why the answer is what it is.
        let detail: String?
        let fault: String?
        let durationMicroseconds: Int64
    }

    let capacity: Int
    private let state: Locked<(entries: [Entry], next: Int, count: Int)>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Locked(([], 0, 0))
    }

    static let paths = ["/forge/v1/requests": nil, "/sandbox/forge/v1/requests": "sandbox"] as [String: String?]

    /// For a journal path: the environment it is limited to (`.some(nil)`: all); nil for any other path.
    static func environment(ofJournalPath path: String) -> String?? {
        paths[path]
    }

    /// Records the request a log line describes; not the journal's own requests (a page
    /// that polls it would push out what it is there to show).
    func record(_ line: LogLine, query: String?, microseconds: Int64) {
        let (surface, environment, action) = Self.classify(method: line.method, path: line.path)
        guard surface != "journal" else { return }
        let date = Int64((Date().timeIntervalSince1970 * 1_000).rounded())
        record { sequence in
            Entry(sequence: sequence, date: date, environment: environment, method: line.method, path: line.path,
                  query: query, surface: surface, action: action, http: line.http, verifyReceiptStatus: line.status,
                  appleErrorCode: line.appleErrorCode, authFailure: line.authFailure, detail: line.verdict, fault: line.fault,
                  durationMicroseconds: microseconds)
        }
    }

    /// What a path reaches: the surface, the environment, the action.
    static func classify(method: String, path: String) -> (surface: String, environment: String?, action: String?) {
        if let environment = environment(ofJournalPath: path) { return ("journal", environment ?? nil, nil) }
        if ServerAPIEndpoint.isServerAPIPath(path) {
            switch ServerAPIEndpoint.route(method: method, path: path) {
            case .endpoint(let endpoint, let environment): return ("serverAPI", environment.rawValue.lowercased(), endpoint.name.rawValue)
            case .methodNotAllowed, .notFound:
                return ("serverAPI", ServerAPIEndpoint.prefixes.route(path)?.0.rawValue.lowercased(), nil)
            }
        }
        if let control = ControlPath(path) { return ("control", control.environment.rawValue.lowercased(), control.verbName) }
        switch path {
        case "/verifyReceipt": return ("verifyReceipt", "production", nil)
        case "/sandbox/verifyReceipt": return ("verifyReceipt", "sandbox", nil)
        case "/health": return ("health", nil, nil)
        case ConsolePage.path: return ("console", nil, nil)
        default: return ("none", nil, nil)
        }
    }

    func record(_ make: (Int) -> Entry) {
        state.withLock { state in
            state.count += 1
            let entry = make(state.count)
            if state.entries.count < capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.next] = entry
            }
            state.next = (state.next + 1) % capacity
        }
    }

    /// The newest `limit` entries (of `environment` when given), newest first, and how
    /// many requests were recorded in all.
    func newest(_ limit: Int, environment: String?) -> (entries: [Entry], recorded: Int) {
        state.withLock { state in
            let ordered = state.entries.count < capacity
                ? state.entries : Array(state.entries[state.next...] + state.entries[..<state.next])
            let chosen = ordered.reversed().filter { environment == nil || $0.environment == environment }
            return (Array(chosen.prefix(limit)), state.count)
        }
    }

    /// `{"capacity", "recorded", "requests": [...]}`, as the journal endpoint answers.
    func json(limit: Int, environment: String?) -> ResponseJSON {
        let (entries, recorded) = newest(limit, environment: environment)
        func optional(_ name: String, _ value: ResponseJSON?) -> [(String, ResponseJSON)] { value.map { [(name, $0)] } ?? [] }
        return .object([
            ("capacity", .int(Int64(capacity))),
            ("recorded", .int(Int64(recorded))),
            ("requests", .array(entries.map { entry in
                .object([("sequence", .int(Int64(entry.sequence))), ("date", .int(entry.date))]
                        + optional("environment", entry.environment.map { .string($0) })
                        + [("method", .string(entry.method)), ("path", .string(entry.path))]
                        + optional("query", entry.query.map { .string($0) })
                        + [("surface", .string(entry.surface))]
                        + optional("action", entry.action.map { .string($0) })
                        + optional("http", entry.http.map { .int(Int64($0)) })
                        + optional("verifyReceiptStatus", entry.verifyReceiptStatus.map { .int(Int64($0)) })
                        + optional("appleErrorCode", entry.appleErrorCode.map { .int(Int64($0)) })
                        + optional("authFailure", entry.authFailure.map { .string($0) })
                        + optional("detail", entry.detail.map { .string($0) })
                        + optional("fault", entry.fault.map { .string($0) })
                        + [("durationMicroseconds", .int(entry.durationMicroseconds))])
            })),
        ])
    }
}
