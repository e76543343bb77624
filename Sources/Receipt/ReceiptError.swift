import BER

/// Why a receipt file could not be read as a PKCS#7 app receipt.
public enum ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file holds something else entirely (an iOS 6 plist transaction receipt,
    /// base64 text, another first byte); the code says what it looks like.
    case notPKCS7(NotPKCS7)
    /// A PKCS#7 container or receipt payload that does not decode; the error names
    /// the byte offset and the schema path.
    case malformed(BERError)

    /// Every decoding failure is a `malformed` verdict.
    public var verdictReason: VerdictReason { .malformed }

    /// Why the file is not a receipt, in words a person can act on.
    public var description: String {
        switch self {
        case .notPKCS7(let what): return "not a PKCS#7 receipt: \(what)"
        case .malformed(let error): return "malformed receipt: \(error)"
        }
    }
}

/// What a file that is plainly not a PKCS#7 receipt looks like instead.
public enum NotPKCS7: Hashable, Sendable, CustomStringConvertible {
    /// The file has no bytes.
    case empty
    /// An iOS 6 style transaction receipt: a property list (old-style, XML or binary).
    case transactionReceipt
    /// Base64 text (of a receipt, most likely).
    case base64Text
    /// Anything else: its first byte, which is not a SEQUENCE's.
    case firstByte(UInt8)

    /// What the file looks like instead, and what to do about it.
    public var description: String {
        switch self {
        case .empty: return "the file is empty"
        case .transactionReceipt:
            return "this is an iOS 6 style transaction receipt (a property list with a signature and purchase-info), "
                + "not a PKCS#7 app receipt; it cannot be validated on the device"
        case .base64Text: return "this looks like base64 text; decode it to the binary receipt first"
        case .firstByte(let byte):
            let digits = String(byte, radix: 16)
            return "the first byte is 0x\(digits.count == 1 ? "0" + digits : digits), not a SEQUENCE (0x30)"
        }
    }
}
