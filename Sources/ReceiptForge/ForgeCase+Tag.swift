extension ForgeCase {
    /// What a validator must get right to reach a case's verdict: the vocabulary of the
    /// `tags` in `case.json`, `manifest.json`, `forge list` and `forge check --tag`.
    /// The strings are stable; new tags may be added, none renamed. A case carries every
    /// tag that applies, listed in this order.
    public enum Tag: String, Codable, Sendable, Hashable, CaseIterable {
        /// The reference receipt every other case varies.
        case baseline
        /// No receipt file at all.
        case noFile = "no-file"
        /// The PKCS#7 container: its structure, the certificate set, bytes after it.
        case container
        /// BER encoding: indefinite lengths, constructed OCTET STRINGs.
        case ber
        /// The RSA signature and the signer's algorithm identifiers.
        case signature
        /// The digest algorithm and which ones are allowed.
        case digest
        /// A SHA-1 digest (every App Store receipt before February 2023).
        case sha1
        /// Building the certificate chain to the trust anchor, and the certificates' marker
        /// extensions.
        case chain
        /// The chain is validated at the receipt creation date (attribute 12), not now.
        case creationDateRule = "creation-date-rule"
        /// The receipt payload: the SET of attributes and how it decodes.
        case payload
        /// Attribute types the validator does not know, which it must ignore.
        case unknownAttributes = "unknown-attributes"
        /// Receipts over 64 KiB: multi-byte lengths, many records.
        case largeReceipt = "large-receipt"
        /// INTEGER values at and beyond 32 bits.
        case integers
        /// Date strings: fractional seconds, offsets, empty dates.
        case dates
        /// In-app purchase records (attribute 17).
        case inApp = "in-app"
        /// The bundle identifier (attribute 2).
        case bundle
        /// The app version (attribute 3).
        case version
        /// The device hash (attribute 5).
        case deviceHash = "device-hash"
        /// A Mac App Store receipt: the device is a MAC address.
        case macos
        /// A sandbox receipt (environment ProductionSandbox).
        case sandbox
        /// A Volume Purchase Program receipt (attribute 21, the one check against now).
        case vpp
        /// An Xcode StoreKit-testing receipt, with its own self-signed anchor.
        case xcode
        /// Reasonable validators may differ: the expected verdict is `invalid` by a rule
        /// Apple's format implies but a generic PKCS#7 verifier (OpenSSL) does not apply —
        /// the digest allow-list, the marker extension, trailing data.
        case strictPolicy = "strict-policy"
    }
}
