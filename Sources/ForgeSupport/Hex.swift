extension FixedWidthInteger where Self: UnsignedInteger {
    /// The value in lowercase hex with leading zeros, two digits a byte (`0x0a` as `0a`,
    /// a `UInt64` as 16 digits).
    package var zeroPaddedHex: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: Self.bitWidth / 4 - digits.count) + digits
    }
}
