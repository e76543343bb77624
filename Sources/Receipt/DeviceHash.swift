import Crypto

/// The identifier of the device a receipt was issued to: the 16 bytes of
/// `identifierForVendor` (iOS, iPadOS, tvOS) or the 6-byte MAC address of the primary
/// built-in network interface (macOS).
public struct DeviceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// Which of the two identifiers the bytes are.
    public enum Kind: String, Sendable {
        /// A 16-byte `identifierForVendor` (iOS, iPadOS, tvOS).
        case uuid
        /// A 6-byte MAC address (macOS).
        case macAddress
    }

    /// The identifier's bytes as they enter the device hash: 16 or 6.
    public let bytes: [UInt8]

    /// 16 bytes (a UUID) or 6 bytes (a MAC address); nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 || bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// `956328D9-CC6A-47F4-BE40-6953FB0AB6C7` (case-insensitive).
    public init?(uuidString: String) {
        let parts = uuidString.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [8, 4, 4, 4, 12], let bytes = hexBytes(parts.joined()) else { return nil }
        self.bytes = bytes
    }

    /// `6c:40:08:b5:94:5e` (also with `-` separators).
    public init?(macAddress: String) {
        let parts = macAddress.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }), let bytes = hexBytes(parts.joined()) else {
            return nil
        }
        self.bytes = bytes
    }

    /// 32 or 12 hex digits.
    public init?(hex: String) {
        guard let bytes = hexBytes(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// Any of the forms a user types: a UUID, a MAC address, or 32 or 12 hex digits.
    public init?(text: String) {
        guard let device = DeviceIdentifier(uuidString: text) ?? DeviceIdentifier(macAddress: text)
                ?? DeviceIdentifier(hex: text) else { return nil }
        self = device
    }

    /// A UUID for 16 bytes, a MAC address for 6.
    public var kind: Kind { bytes.count == 16 ? .uuid : .macAddress }

    /// Lowercase hex, no separators.
    public var hex: String { lowercaseHex(bytes) }

    /// The UUID form (uppercase, as iOS prints it) or the MAC form (lowercase, colons).
    public var formatted: String {
        let digits = hex
        switch kind {
        case .uuid:
            var text = digits.uppercased()
            for position in [20, 16, 12, 8] {
                text.insert("-", at: text.index(text.startIndex, offsetBy: position))
            }
            return text
        case .macAddress:
            var pairs: [String] = []
            var rest = Substring(digits)
            while !rest.isEmpty {
                pairs.append(String(rest.prefix(2)))
                rest = rest.dropFirst(2)
            }
            return pairs.joined(separator: ":")
        }
    }

    /// The identifier as a person writes it: a UUID with dashes or a MAC address with colons.
    public var description: String { formatted }
}

/// Attribute 5 of a receipt: `SHA-1(device identifier ‖ raw attribute 4 ‖ whole raw
/// value of attribute 2)` — the attribute 2 part is the complete DER UTF8String (tag,
/// length and bytes), not the bare string. Still SHA-1 in SHA-256-signed receipts.
public enum DeviceHash {
    /// The hash for `device` over the raw opaque value and bundle identifier value.
    public static func compute<Opaque: Sequence<UInt8>, Bundle: Sequence<UInt8>>(
        device: DeviceIdentifier, opaqueValue: Opaque, bundleIdentifierValue: Bundle
    ) -> [UInt8] {
        var hasher = Insecure.SHA1()
        hasher.update(data: device.bytes)
        hasher.update(data: Array(opaqueValue))
        hasher.update(data: Array(bundleIdentifierValue))
        return Array(hasher.finalize())
    }

    /// The hash `receipt` should carry for `device`; nil if attribute 2 or 4 is missing.
    public static func expected(for receipt: AppReceipt, device: DeviceIdentifier) -> [UInt8]? {
        guard let opaque = receipt.opaqueValue, let bundle = receipt.bundleIdentifierValue else { return nil }
        return compute(device: device, opaqueValue: opaque, bundleIdentifierValue: bundle)
    }

    /// True if `receipt`'s attribute 5 was computed for `device`.
    public static func matches(_ receipt: AppReceipt, device: DeviceIdentifier) -> Bool {
        guard let expected = expected(for: receipt, device: device), let actual = receipt.sha1Hash else { return false }
        return constantTimeEqual(expected, actual)
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

func hexBytes<S: StringProtocol>(_ text: S) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
        guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
        bytes.append(high << 4 | low)
        index += 2
    }
    return bytes
}

/// Lowercase hex of `bytes`.
public func lowercaseHex<S: Sequence<UInt8>>(_ bytes: S) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
}
