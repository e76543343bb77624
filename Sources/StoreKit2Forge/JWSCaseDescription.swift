import ReceiptVerifier
import StoreKit2

/// How a case's verifier is set up (`case.json` `verifier`): Apple's
/// `SignedDataVerifier` arguments, roots as paths relative to the tree.
public struct JWSVerifierSettings: Codable, Hashable, Sendable {
    public var bundleId: String
    /// Null outside Production (Apple requires it there).
    public var appAppleId: Int64?
    public var environment: JWSEnvironment
    public var rootCertificates: [String]

    package enum CodingKeys: String, CodingKey { case bundleId, appAppleId, environment, rootCertificates }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundleId, forKey: .bundleId)
        try container.encode(appAppleId, forKey: .appAppleId)  // null, not absent
        try container.encode(environment, forKey: .environment)
        try container.encode(rootCertificates, forKey: .rootCertificates)
    }
}

/// A StoreKit 2 case's `case.json` (Schemas/jws-case.schema.json).
public struct JWSCaseDescription: Codable, Hashable, Sendable {
    public struct Expected: Codable, Hashable, Sendable {
        /// The status name Apple's `SignedDataVerifier` gives the file.
        public var status: JWSVerificationStatus
        /// For notifications: the status of each nested JWS (`data.signedTransactionInfo` …)
        /// verified with the same settings as its kind.
        public var nested: [String: JWSVerificationStatus]?
    }

    public var id: String
    public var kind: JWSKind
    public var file: String
    public var summary: String
    public var expected: Expected
    public var verifier: JWSVerifierSettings
    /// The payload's `signedDate` in milliseconds (the chain is validated then); absent for Xcode's float dates.
    public var signedDate: Int64?
}

/// `manifest.json` of a StoreKit 2 tree (Schemas/jws-manifest.schema.json).
public struct JWSManifest: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable {
        public var id: String
        public var kind: JWSKind
        public var file: String
        public var expectedStatus: JWSVerificationStatus
    }

    public var generator = "receipt-forge"
    public var format = "storekit2"
    public var now: Int64
    public var seed: UInt64
    public var bundleId: String
    public var appAppleId: Int64
    public var rootCertificate: String
    public var cases: [Entry]
}
