/// A fault injected into one answer, to drive a client's error paths: from the request
/// header `X-Forge-Fault`, or drawn at random from `--faults`.
///
/// | spelling | answer |
/// |---|---|
/// | `21005`, `21009` | HTTP 200, `{"status": N}` |
/// | `21100` … `21199` | HTTP 200, `{"status": N, "is_retryable": true}` |
/// | `21100-final` … `21199-final` | the same with `"is_retryable": false` |
/// | `http-500`, `http-503` | that HTTP status, no JSON (503 with `Retry-After: 1`) |
/// | `delay-MS` | the normal answer after MS milliseconds (0 … 60000) |
/// | `garbage` | HTTP 200 with a body that is not JSON |
/// | `close` | the connection is dropped without an answer |
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    case status(VerifyReceiptStatus, isRetryable: Bool?)
    case http(Int)
    case delay(milliseconds: Int)
    case garbage
    case close

    /// The longest `delay-MS`.
    public static let maximumDelay = 60_000

    /// Every spelling, for help and errors.
    public static let spellings = "21005, 21009, 21100…21199 (is_retryable true; `-final`: false), http-500, http-503, delay-MS (MS ≤ 60000), garbage, close"

    /// Parses one spelling; nil when it is not one.
    public init?(_ text: String) {
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
            let final = text.hasSuffix("-final")
            guard let code = Self.number(final ? text.dropLast(6) : text[...]),
                  VerifyReceiptStatus.internalErrors.contains(code) else { return nil }
            self = .status(VerifyReceiptStatus(rawValue: code), isRetryable: !final)
        }
    }

    public var description: String {
        switch self {
        case .status(let status, let retryable): return retryable == false ? "\(status)-final" : "\(status)"
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
