import ReceiptForge
import ReceiptVerifier
import StoreKit2

/// One StoreKit 2 fixture: what is signed, how it is broken, how the verifier is set
/// up, and the status Apple's `SignedDataVerifier` gives it. The catalogue drives the
/// forge (`forge jws`), the tests (our `JWSVerifier` and Apple's library must both
/// give `expected`) and the case table of docs/storekit2.md.
public struct JWSCase: FixtureCase, Hashable {
    /// What the payload is.
    public enum Content: Sendable, Hashable {
        /// A signed transaction of an auto-renewable subscription.
        case transaction
        /// The subscription's signed renewal info.
        case renewalInfo
        /// A signed app transaction.
        case appTransaction
        /// A notification with nested signed transaction and renewal info.
        case notification(type: String, subtype: String?, revoked: Bool)
        /// `TEST`: `data` names the app only.
        case testNotification
        /// `RENEWAL_EXTENSION` / `SUMMARY`: a `summary` instead of `data`.
        case summaryNotification
    }

    /// How the signed file departs from a genuine one.
    public enum Flaw: Sendable, Hashable {
        /// A genuine file.
        case none
        /// The payload names another environment than the verifier's.
        case payloadEnvironment(JWSEnvironment)
        /// The payload names another bundle identifier.
        case bundleId(String)
        /// The payload names another app Apple ID.
        case appAppleId(Int64)
        /// The payload changed after signing.
        case tamperedPayload
        /// A signature byte flipped.
        case tamperedSignature
        /// The signature in DER (as most ECDSA libraries write it) instead of JWS's raw `r ‖ s`.
        case derSignature
        /// A chain that ends at a root the verifier does not trust.
        case untrustedRoot
        /// `x5c` with this many certificates instead of three.
        case x5cCount(Int)
        /// No `x5c` in the header.
        case x5cMissing
        /// An empty `x5c`.
        case x5cEmpty
        /// `x5c[2]` is not a certificate (Apple ignores it: the root comes from the caller).
        case x5cThirdNotACertificate
        /// A chain certificate that does not decode.
        case certificateNotDER
        /// The leaf lacks Apple's marker extension.
        case leafWithoutMarker
        /// The intermediate lacks Apple's marker extension.
        case intermediateWithoutMarker
        /// The leaf's notAfter relative to `signedDate`, in seconds.
        case leafExpires(secondsAfterSignedDate: Int64)
        /// `alg` `none` and no signature.
        case algNone
        /// `alg` `HS256`, keyed with the PEM of the leaf's public key (the key-confusion attack).
        case hs256WithLeafPublicKey
        /// A `jwk` header with another key, which signed the data.
        case jwkHeaderWithOtherKey
        /// A payload that is JSON but not an object.
        case payloadNotAnObject
        /// A JWT `exp` claim at `signedDate` (long passed).
        case expiredJWTClaim
        /// Xcode's StoreKit testing data: `kid` Apple_Xcode_Key, one self-signed certificate.
        case xcode
    }

    /// The case's id: its folder in the tree (`transaction-wrong-bundle`).
    public let id: String
    /// What kind of JWS the file is.
    public let kind: JWSKind
    /// One line: what the file is and why a verifier must answer what it should.
    public let summary: String
    /// The status Apple's `SignedDataVerifier` gives the file.
    public let expected: JWSVerificationStatus
    /// What the payload is.
    public let content: Content
    /// How the file departs from a genuine one.
    public let flaw: Flaw
    /// The environment the verifier is built for.
    public let environment: JWSEnvironment
    /// Whether the verifier is given the app's Apple id (Apple's library requires it in Production).
    public let givesAppAppleId: Bool

    package init(_ id: String, _ kind: JWSKind, _ expected: JWSVerificationStatus, _ summary: String, content: Content? = nil,
         flaw: Flaw = .none, environment: JWSEnvironment = .production) {
        self.id = id
        self.kind = kind
        self.expected = expected
        self.summary = summary
        self.content = content ?? {
            switch kind {
            case .transaction: return .transaction
            case .renewalInfo: return .renewalInfo
            case .appTransaction: return .appTransaction
            case .notification: return .testNotification
            }
        }()
        self.flaw = flaw
        self.environment = environment
        givesAppAppleId = environment == .production
    }

    /// What Apple's Swift library answers the file (`SwiftLibraryVerdict`, which says
    /// where and why it differs from ``expected``, the Python library's status).
    public var swiftLibrary: SwiftLibraryVerdict {
        switch flaw {
        case .tamperedPayload, .tamperedSignature, .derSignature, .jwkHeaderWithOtherKey:
            return .invalidJWTFormat  // jwt-kit's signature failure is caught as a format error
        case .algNone, .hs256WithLeafPublicKey, .x5cCount, .x5cMissing, .x5cEmpty:
            return .invalidJWTFormat  // `alg` must be ES256 and `x5c` hold three entries
        case .payloadNotAnObject, .certificateNotDER:
            return .invalidJWTFormat  // the payload or the leaf does not decode
        case .expiredJWTClaim:
            return .valid  // no registered claim is checked
        case .xcode where environment != .xcode:
            return .invalidJWTFormat  // one certificate in `x5c`
        case .none, .payloadEnvironment, .bundleId, .appAppleId, .untrustedRoot, .x5cThirdNotACertificate,
             .leafWithoutMarker, .intermediateWithoutMarker, .leafExpires, .xcode:
            return SwiftLibraryVerdict(sameAs: expected) ?? .invalidJWTFormat
        }
    }

    /// ``swiftLibrary`` where it is not the same answer as ``expected``; nil where Apple's two libraries agree.
    public var swiftLibraryWhereItDiffers: SwiftLibraryVerdict? {
        SwiftLibraryVerdict(sameAs: expected) == swiftLibrary ? nil : swiftLibrary
    }

    /// `signed.jws`, or `notification.json` (`{"signedPayload": …}`) for notifications.
    public var fileName: String { kind == .notification ? "notification.json" : "signed.jws" }

    /// Every case, in the order they are listed and minted.
    public static let catalogue: [JWSCase] = [
        // Genuine data.
        JWSCase("transaction-production", .transaction, .ok, "Auto-renewable subscription purchase, Production"),
        JWSCase("transaction-sandbox", .transaction, .ok,
                "The same in Sandbox (verifier without an app Apple id, as Apple allows outside Production)",
                environment: .sandbox),
        JWSCase("renewal-info", .renewalInfo, .ok, "Renewal info of the subscription (auto-renew on)"),
        JWSCase("app-transaction", .appTransaction, .ok, "App transaction, `receiptType` Production"),
        JWSCase("app-transaction-sandbox", .appTransaction, .ok, "App transaction in Sandbox (app Apple id not checked)",
                environment: .sandbox),
        JWSCase("notification-subscribed", .notification, .ok,
                "`SUBSCRIBED`/`INITIAL_BUY` with a nested signed transaction and renewal info",
                content: .notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", revoked: false)),
        JWSCase("notification-did-renew", .notification, .ok, "`DID_RENEW`, transaction reason `RENEWAL`",
                content: .notification(type: "DID_RENEW", subtype: nil, revoked: false)),
        JWSCase("notification-expired", .notification, .ok, "`EXPIRED`/`VOLUNTARY`, auto-renew off, expiration intent 1",
                content: .notification(type: "EXPIRED", subtype: "VOLUNTARY", revoked: false)),
        JWSCase("notification-refund", .notification, .ok, "`REFUND`: the nested transaction has a revocation date and reason",
                content: .notification(type: "REFUND", subtype: nil, revoked: true)),
        JWSCase("notification-test", .notification, .ok, "`TEST` notification (data names the app only)",
                content: .testNotification),
        JWSCase("notification-summary", .notification, .ok, "`RENEWAL_EXTENSION`/`SUMMARY` with a `summary` instead of `data`",
                content: .summaryNotification),
        JWSCase("transaction-leaf-expired-after-signed-date", .transaction, .ok,
                "Leaf expired since, but valid at `signedDate`: checked at `signedDate`, so OK",
                flaw: .leafExpires(secondsAfterSignedDate: 86_400)),
        JWSCase("transaction-x5c-third-ignored", .transaction, .ok,
                "`x5c[2]` is not a certificate: Apple ignores the third entry (the root comes from the caller)",
                flaw: .x5cThirdNotACertificate),
        JWSCase("transaction-xcode", .transaction, .ok,
                "Xcode StoreKit testing JWS (`kid` Apple_Xcode_Key, one self-signed certificate, float dates, ids \"0\"), verifier in Xcode",
                flaw: .xcode, environment: .xcode),

        // The app and environment.
        JWSCase("transaction-wrong-bundle", .transaction, .invalidAppIdentifier, "Transaction for another bundle id",
                flaw: .bundleId("com.example.other")),
        JWSCase("notification-wrong-app-apple-id", .notification, .invalidAppIdentifier,
                "Notification for another app Apple id, Production",
                content: .notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", revoked: false), flaw: .appAppleId(987_654_321)),
        JWSCase("app-transaction-wrong-app-apple-id", .appTransaction, .invalidAppIdentifier,
                "App transaction for another app Apple id, Production", flaw: .appAppleId(987_654_321)),
        JWSCase("transaction-wrong-environment", .transaction, .invalidEnvironment,
                "Sandbox transaction given to a Production verifier", flaw: .payloadEnvironment(.sandbox)),
        JWSCase("renewal-info-wrong-environment", .renewalInfo, .invalidEnvironment,
                "Sandbox renewal info given to a Production verifier", flaw: .payloadEnvironment(.sandbox)),
        JWSCase("transaction-xcode-in-production", .transaction, .invalidChainLength,
                "The Xcode JWS given to a Production verifier: one certificate in `x5c`", flaw: .xcode),

        // The signature.
        JWSCase("transaction-tampered-payload", .transaction, .verificationFailure,
                "Payload changed after signing (price)", flaw: .tamperedPayload),
        JWSCase("transaction-tampered-signature", .transaction, .verificationFailure,
                "One bit of the signature flipped", flaw: .tamperedSignature),
        JWSCase("transaction-der-signature", .transaction, .verificationFailure,
                "DER-encoded ECDSA signature instead of the raw 64-byte r ‖ s", flaw: .derSignature),
        JWSCase("transaction-alg-none", .transaction, .verificationFailure, "`alg: none`, empty signature", flaw: .algNone),
        JWSCase("transaction-hs256-key-confusion", .transaction, .verificationFailure,
                "`HS256` keyed with the leaf's public key PEM (the key-confusion attack)", flaw: .hs256WithLeafPublicKey),
        JWSCase("transaction-jwk-header", .transaction, .verificationFailure,
                "Signed by another key that a `jwk` header offers; `x5c` is the genuine chain", flaw: .jwkHeaderWithOtherKey),
        JWSCase("transaction-payload-not-object", .transaction, .verificationFailure,
                "Validly signed payload that is a JSON array, not an object", flaw: .payloadNotAnObject),
        JWSCase("transaction-jwt-exp-passed", .transaction, .verificationFailure,
                "Validly signed, with a JWT `exp` claim long passed: Apple's library (PyJWT) checks registered claims",
                flaw: .expiredJWTClaim),

        // The chain.
        JWSCase("transaction-untrusted-root", .transaction, .verificationFailure,
                "Chain ends at an unrelated root", flaw: .untrustedRoot),
        JWSCase("transaction-x5c-one", .transaction, .invalidChainLength, "`x5c` holds the leaf only", flaw: .x5cCount(1)),
        JWSCase("transaction-x5c-two", .transaction, .invalidChainLength, "`x5c` holds leaf and intermediate", flaw: .x5cCount(2)),
        JWSCase("transaction-x5c-four", .transaction, .invalidChainLength, "`x5c` holds four certificates", flaw: .x5cCount(4)),
        JWSCase("transaction-x5c-missing", .transaction, .verificationFailure, "No `x5c` header", flaw: .x5cMissing),
        JWSCase("transaction-x5c-empty", .transaction, .verificationFailure, "`x5c` is an empty array", flaw: .x5cEmpty),
        JWSCase("transaction-certificate-not-der", .transaction, .invalidCertificate,
                "`x5c[0]` holds the leaf's PEM text, not DER", flaw: .certificateNotDER),
        JWSCase("transaction-leaf-without-marker", .transaction, .verificationFailure,
                "Leaf without the 1.2.840.113635.100.6.11.1 marker", flaw: .leafWithoutMarker),
        JWSCase("transaction-intermediate-without-marker", .transaction, .verificationFailure,
                "Intermediate without the 1.2.840.113635.100.6.2.1 marker", flaw: .intermediateWithoutMarker),
        JWSCase("transaction-leaf-expired-before-signed-date", .transaction, .verificationFailure,
                "Leaf expired before `signedDate`", flaw: .leafExpires(secondsAfterSignedDate: -86_400)),
    ]
}
