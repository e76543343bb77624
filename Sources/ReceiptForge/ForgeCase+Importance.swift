extension ForgeCase {
    /// What it costs when a validator gets a case wrong: the `importance` in `case.json`,
    /// `manifest.json`, `forge list` and `forge check` results. The strings are stable.
    public enum Importance: String, Codable, Sendable, Hashable, CaseIterable {
        /// The validator accepts a receipt that gives the app to someone not entitled to
        /// it: forged or altered, signed by a key that may not sign receipts (unrelated
        /// root, no intermediate, no marker extension, expired signer), cut or replaced so
        /// nothing was verified, another app's or another device's receipt, an expired VPP
        /// licence, or no receipt at all. Only `invalid` cases.
        case critical
        /// The validator rejects a genuine receipt that paying users (or App Review, which
        /// uses sandbox receipts) hold: shapes seen in real App Store receipts — SHA-1,
        /// Mac receipts, hundreds of records, undocumented attribute types, 64-bit ids,
        /// fractional seconds where Apple writes them (attributes 8 and 18), a leaf
        /// certificate that expired after signing. Only `valid` cases.
        case high
        /// Strictness: nobody is let in or locked out in practice. Invalid receipts only
        /// Apple's key could have made, or that are the user's own (an undecodable payload,
        /// SHA-512, bytes appended, another version of the same app); valid shapes Apple
        /// does not ship to users (Xcode test receipts, BER, the sha256WithRSAEncryption
        /// signer algorithm, certificates in another order than leaf first, creation dates
        /// with an offset, fractional seconds in other dates, attribute type numbers
        /// beyond 31 bits).
        case low
    }
}
