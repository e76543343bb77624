import StoreAPIAuthentication

/// A fault injected into one answer, to drive a client's error paths: from the request
/// header `X-Forge-Fault`, or drawn at random from `--faults`.
///
/// | spelling | surface | answer |
/// |---|---|---|
/// | `21005`, `21009` | verifyReceipt | HTTP 200, `{"status": N}` |
/// | `21100` … `21199` | verifyReceipt | HTTP 200, `{"status": N, "is_retryable": true}` |
/// | `21100-final` … `21199-final` | verifyReceipt | the same with `"is_retryable": false` |
/// | `4290000`, `5000001`, `4040002` … (any `StoreAPIError` code) | Server API | HTTP = the code's first three digits, `{"errorCode","errorMessage"}`, `Content-Type: application/json`; 4290000 with `Retry-After` = now + 1 s in UNIX milliseconds |
/// | `http-500`, `http-503` | both | that HTTP status, no JSON (503 with `Retry-After: 1`) |
/// | `delay-MS` | both | the normal answer after MS milliseconds (0 … 60000) |
/// | `garbage` | both | HTTP 200 with a body that is not JSON |
/// | `close` | both | the connection is dropped without an answer |
package enum Fault: Sendable, Hashable, CustomStringConvertible {
    case status(VerifyReceiptStatus, isRetryable: Bool?)
    /// An App Store Server API error, as Apple's server sends it.
    case apiError(StoreAPIError)
    case http(Int)
    case delay(milliseconds: Int)
    case garbage
    case close

    /// The requests a fault can be injected into: a verifyReceipt status means nothing to
    /// a Server API client, and an App Store Server API error nothing to verifyReceipt's.
    package enum Surface: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case verifyReceipt
        case serverAPI

        package var description: String {
            switch self {
            case .verifyReceipt: return "verifyReceipt"
            case .serverAPI: return "the App Store Server API"
            }
        }

        /// The spellings of the faults of this surface alone.
        fileprivate var ownSpellings: String {
            switch self {
            case .verifyReceipt: return "21005, 21009, 21100…21199 (is_retryable true; `-final`: false)"
            case .serverAPI: return "an App Store Server API error code (4290000, 5000001, 4040002 …)"
            }
        }

        /// The spellings of the faults of this surface, for help and errors.
        package var spellings: String { ownSpellings + ", " + Fault.commonSpellings }
    }

    /// The longest `delay-MS`.
    package static let maximumDelay = 60_000

    /// How far ahead of the request a `4290000` fault's `Retry-After` points.
    package static let retryAfterMilliseconds: Int64 = 1_000

    private static let commonSpellings = "http-500, http-503, delay-MS (MS ≤ 60000), garbage, close"

    /// Every spelling, for help and errors.
    package static let spellings = Surface.allCases.map { "\($0.ownSpellings) for \($0)" }.joined(separator: "; ")
        + "; " + commonSpellings + " for both"

    /// Parses one spelling; nil when it is not one.
    package init?(_ text: String) {
        switch text {
        case "21005": self = .status(.serverUnavailable, isRetryable: nil)
        case "21009": self = .status(.internalDataAccessError, isRetryable: nil)
        case "http-500": self = .http(500)
        case "http-503": self = .http(503)
        case "garbage": self = .garbage
        case "close": self = .close
        default:
            if text.hasPrefix("delay-"), let milliseconds = Self.number(text.dropFirst(6)), milliseconds <= Self.maximumDelay {
                self = .delay(milliseconds: milliseconds)
                return
            }
            if text.utf8.count == 7, let code = Self.number(text[...]) {
                guard let error = StoreAPIError(rawValue: code) else { return nil }
                self = .apiError(error)
                return
            }
            let final = text.hasSuffix("-final")
            guard let code = Self.number(final ? text.dropLast(6) : text[...]),
                  VerifyReceiptStatus.internalErrors.contains(code) else { return nil }
            self = .status(VerifyReceiptStatus(rawValue: code), isRetryable: !final)
        }
    }

    /// Whether the fault can be answered on `surface`.
    package func applies(to surface: Surface) -> Bool {
        switch self {
        case .status: return surface == .verifyReceipt
        case .apiError: return surface == .serverAPI
        case .http, .delay, .garbage, .close: return true
        }
    }

    package var description: String {
        switch self {
        case .status(let status, let retryable): return retryable == false ? "\(status)-final" : "\(status)"
        case .apiError(let error): return String(error.rawValue)
        case .http(let code): return "http-\(code)"
        case .delay(let milliseconds): return "delay-\(milliseconds)"
        case .garbage: return "garbage"
        case .close: return "close"
        }
    }

    /// The JSON of a status fault.
    var json: ResponseJSON? {
        guard case .status(let status, let retryable) = self else { return nil }
        var members: [(String, ResponseJSON)] = [("status", .int(Int64(status.rawValue)))]
        if let retryable { members.append(("is_retryable", .bool(retryable))) }
        return .object(members)
    }

    /// Decimal digits only (no sign, no spaces), at most 9 of them.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
