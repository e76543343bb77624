import BER

/// Why a receipt file could not be read as a PKCS#7 app receipt.
public enum ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file holds something else entirely (an iOS 6 plist transaction receipt,
    /// base64 text, another content type); `reason` says what it looks like.
    case notPKCS7(reason: String)
    /// A PKCS#7 container or receipt payload that does not decode; the error names
    /// the byte offset and the schema path.
    case malformed(BERError)

    /// Every decoding failure is a `malformed` verdict.
    public var verdictReason: VerdictReason { .malformed }

    public var description: String {
        switch self {
        case .notPKCS7(let reason): return "not a PKCS#7 receipt: \(reason)"
        case .malformed(let error): return "malformed receipt: \(error)"
        }
    }
}
