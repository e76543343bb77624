import BER
import Foundation
import ReceiptVerifier
import StoreKit2
import StrictJSON

/// Verifies App Store JWS (signed transactions, renewal info, notifications, app
/// transactions) by the rules of Apple's `SignedDataVerifier` (app-store-server-library
/// 3.1 on PyJWT 2.15 and pyOpenSSL) with online checks off, and returns its status names:
///
/// 1. The JWS must decode as PyJWT decodes it (three base64url parts, trailing `=`
///    tolerated as `Base64URL.Padding.pyJWT` says; JSON-object header and payload, read
///    as Python's `json.loads` reads them: `JSONDialect.python`) and its header must keep
///    PyJWT's rules (`JOSEHeaderRules`: `b64`, `kid`, `crit`), else
///    `VERIFICATION_FAILURE`. For `Xcode` and `LocalTesting` nothing else about the
///    signature is checked (step 5 still runs).
/// 2. `x5c` present with a non-zero Python `len()` (an array, or a string or object,
///    which Python measures too), `alg` `ES256`, and a `signedDate` (else
///    `receiptCreationDate`) that Python's `int()` takes, if any, else `VERIFICATION_FAILURE`.
/// 3. No roots: `INVALID_CERTIFICATE`; `x5c` not exactly three long: `INVALID_CHAIN_LENGTH`;
///    a root, `x5c[0]` or `x5c[1]` that is not a string `b64decode(validate=True)` takes
///    (`PythonBase64`) holding a certificate `d2i_X509` decodes (`CertificateSyntax`):
///    `INVALID_CERTIFICATE`. `x5c[2]` is never read.
/// 4. leaf → intermediate → one of the roots, verified by `ChainVerifier` at the
///    payload's `signedDate` (else `receiptCreationDate`, else `currentTime`), each
///    certificate read with RFC 5280's meaning; the leaf must carry
///    1.2.840.113635.100.6.11.1 and the next certificate 1.2.840.113635.100.6.2.1; the
///    ES256 signature (raw r ‖ s) must verify with the leaf's P-256 key; JWT registered
///    claims, if any, must hold at `currentTime` (`RegisteredClaims`, as PyJWT checks
///    them for Apple's library). Any failure: `VERIFICATION_FAILURE`.
/// 5. The kind's own checks: bundle id and (Production, notifications and app
///    transactions) app Apple id → `INVALID_APP_IDENTIFIER`; environment (for app
///    transactions `receiptType`) → `INVALID_ENVIRONMENT`.
///
/// docs/architecture.md ("The JWS verifier and Apple's") lists where it knowingly differs.
public struct JWSVerifier: Sendable {
    /// The trusted roots, DER, as given.
    public let rootCertificates: [[UInt8]]
    /// The app's bundle identifier, which payloads must carry.
    public let bundleId: String
    /// The app's Apple ID, which Production notifications and app transactions must carry.
    public let appAppleId: Int64?
    /// The environment payloads must name.
    public let environment: JWSEnvironment
    /// Certificate pairs already verified (issuer over certificate, every byte compared),
    /// shared across calls and threads; nil checks every chain signature every time.
    public let cache: SignatureCache?

    /// `rootCertificates` are DER. Apple's library refuses to be built for
    /// Production without `appAppleId`; here it is then simply never equal.
    public init(rootCertificates: [[UInt8]], bundleId: String, appAppleId: Int64?, environment: JWSEnvironment,
                cache: SignatureCache? = nil) {
        self.rootCertificates = rootCertificates
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.cache = cache
        anchors = Self.parseRoots(rootCertificates)
    }

    /// The roots, parsed once here rather than on every `verify`. A root `d2i_X509`
    /// cannot decode makes every verification `INVALID_CERTIFICATE`; one that decodes but
    /// breaks RFC 5280, `VERIFICATION_FAILURE` (OpenSSL meets it only in path building).
    package let anchors: Result<[Certificate], RootCertificateError>

    package static func parseRoots(_ roots: [[UInt8]]) -> Result<[Certificate], RootCertificateError> {
        var anchors: [Certificate] = []
        for (index, der) in roots.enumerated() {
            do throws(CertificateError) {
                try CertificateSyntax.check(der, rules: CertificateSyntax.openSSLRules, decoder: .openSSL4_0)
            } catch {
                return .failure(RootCertificateError(index: index, error: error, status: .invalidCertificate))
            }
            do throws(CertificateError) {
                anchors.append(try Certificate(der, rules: .der, keyAlgorithms: .rsaAndP256))
            } catch {
                return .failure(RootCertificateError(index: index, error: error, status: .verificationFailure))
            }
        }
        return .success(anchors)
    }

    /// Verifies `jws` as `kind`. `currentTime` (seconds since 1970) is the clock: the
    /// chain is checked at it only when the payload has neither `signedDate` nor
    /// `receiptCreationDate`; JWT claims (`exp`, `nbf`, `iat`) are compared with it.
    public func verify(_ jws: String, kind: JWSKind, currentTime: Int64) -> JWSVerification {
        // 1. Decoding: the compact form here, the header and payload JSON below.
        let compact: CompactJWS
        do throws(JWSError) {
            compact = try CompactJWS(jws, padding: .pyJWT)
        } catch {
            return JWSVerification(status: .verificationFailure, detail: "not a JWS: \(error)")
        }
        return verify(compact, kind: kind, currentTime: currentTime)
    }

    /// Verifies a JWS already split and base64url-decoded, as `verify(_:kind:currentTime:)`
    /// verifies its text (`compact.serialized`), with the same status and detail: the
    /// signature is checked over `compact.signingInput`, the parts as received. For a
    /// caller that already holds the parse (one JWS verified by several verifiers, or
    /// its header read first), so the text is not split and decoded again.
    public func verify(_ compact: CompactJWS, kind: JWSKind, currentTime: Int64) -> JWSVerification {
        // 1. Decoding (header and payload JSON), as PyJWT decodes them: Python's json.loads
        // (`JSONDialect.python`), each an object; then PyJWT's header rules.
        let headerInput: JSONInput
        let payload: JSONInput
        do throws(JWSError) {
            headerInput = try StoreKit2JSON.object(compact.header, at: "header")
            payload = try StoreKit2JSON.object(compact.payload, at: "payload")
        } catch {
            return JWSVerification(status: .verificationFailure, detail: "not a JWS: \(error)")
        }
        let headerObject = headerInput.value
        // The typed header is what the caller is shown, read from the same parse; decisions
        // read the JSON itself, as Python does, so a field of an unexpected type is judged
        // as Apple judges it.
        let header = try? StoreKit2JSON.decode(JWSHeader.self, from: headerInput)
        func failure(_ status: JWSVerificationStatus, _ detail: String, chain: [Certificate] = []) -> JWSVerification {
            JWSVerification(status: status, detail: detail, header: header, payload: compact.payload, chain: chain)
        }
        if let broken = JOSEHeaderRules.failure(headerObject) {
            return failure(.verificationFailure, broken)
        }

        var chain: [Certificate] = []
        if !environment.skipsSignatureCheck {
            // 2. Header.
            guard let x5c = headerObject["x5c"], !x5c.isNull else {
                return failure(.verificationFailure, "header.x5c is missing")
            }
            guard let length = Self.pythonLength(x5c) else {
                return failure(.verificationFailure, "header.x5c is \(x5c.kindDescription), which has no length")
            }
            guard length > 0 else {
                return failure(.verificationFailure, "header.x5c is empty")
            }
            guard headerObject["alg"] == .string("ES256") else {
                let alg = headerObject["alg"].map { $0.stringValue.map { "'\($0)'" } ?? $0.kindDescription } ?? "missing"
                return failure(.verificationFailure, "header.alg is \(alg), not 'ES256'")
            }
            // The chain's date, read before the certificates as Apple's library reads it.
            let time: Int64
            switch Self.effectiveDate(payload.value) {
            case .date(let seconds): time = seconds
            case .none: time = currentTime
            case .refused(let field): return failure(.verificationFailure, "payload.\(field) is not a number Python's int() takes")
            }
            // 3. Certificates: the roots and x5c[0], x5c[1] must decode (`d2i_X509`'s
            // syntax); their meaning is met in step 4.
            guard !rootCertificates.isEmpty else {
                return failure(.invalidCertificate, "no root certificates to verify against")
            }
            guard length == 3 else {
                return failure(.invalidChainLength, "header.x5c holds \(length) \(x5c.arrayValue == nil ? "character(s) or member(s)" : "certificate(s)"), not 3")
            }
            let anchors: [Certificate]
            switch self.anchors {
            case .success(let parsed): anchors = parsed
            case .failure(let root):
                if root.status == .invalidCertificate {
                    return failure(.invalidCertificate, "root certificate \(root.index): \(root.error)")
                }
                anchors = []
            }
            var presented: [[UInt8]] = []
            for index in 0..<2 {
                guard let text = Self.pythonItem(x5c, index) else {
                    return failure(.invalidCertificate, "header.x5c[\(index)] is not a string (x5c is \(x5c.kindDescription))")
                }
                guard let der = PythonBase64.decode(text) else {
                    return failure(.invalidCertificate, "header.x5c[\(index)] is not base64 as b64decode(validate=True) reads it")
                }
                do throws(CertificateError) {
                    try CertificateSyntax.check(der, rules: CertificateSyntax.openSSLRules, decoder: .openSSL4_0)
                } catch {
                    return failure(.invalidCertificate, "header.x5c[\(index)] is not a certificate: \(error)")
                }
                presented.append(der)
            }
            // 4. Chain at the signed date, markers, signature.
            if case .failure(let root) = self.anchors {
                return failure(.verificationFailure, "root certificate \(root.index) cannot anchor a chain: \(root.error)")
            }
            var certificates: [Certificate] = []
            for (index, der) in presented.enumerated() {
                do throws(CertificateError) {
                    certificates.append(try Certificate(der, rules: .der, keyAlgorithms: .rsaAndP256))
                } catch {
                    return failure(.verificationFailure, "header.x5c[\(index)] cannot be on a chain: \(error)")
                }
            }
            let verdict = ChainVerifier(anchors: anchors).verify(certificates[0], intermediates: [certificates[1]],
                                                                 atSecondsSince1970: time, cache: cache)
            guard verdict.isValid else {
                return failure(.verificationFailure, "chain at \(ASN1Time(secondsSince1970: time)): \(verdict.detail)")
            }
            chain = verdict.chain
            guard chain[0].extensions.hasAppleReceiptSigningMarker else {
                return failure(.verificationFailure, "header.x5c[0] (\(chain[0].displayName)) lacks the marker extension 1.2.840.113635.100.6.11.1")
            }
            guard chain.count > 1, chain[1].extensions.hasAppleWWDRIntermediateMarker else {
                let name = chain.count > 1 ? chain[1].displayName : "nothing"
                return failure(.verificationFailure, "the leaf's issuer (\(name)) lacks the marker extension 1.2.840.113635.100.6.2.1")
            }
            guard let key = chain[0].publicKey.p256 else {
                return failure(.verificationFailure, "header.x5c[0] has no P-256 key: ES256 cannot verify")
            }
            if case .invalid(let code, let why) = key.checkRawSignature(compact.signature, message: compact.signingInput) {
                return JWSVerification(status: .verificationFailure, detail: "signature: \(why)", header: header,
                                       payload: compact.payload, chain: chain, signatureFailure: code)
            }
            if let why = RegisteredClaims.failure(payload.value, now: currentTime) {
                return failure(.verificationFailure, "payload: \(why)", chain: chain)
            }
        }

        // 5. The kind's own checks.
        let checked = checkPayload(payload, kind: kind)
        return JWSVerification(status: checked.status, detail: checked.detail, header: header, payload: compact.payload, chain: chain)
    }

    /// Python's `len()` of `x5c` as `json.loads` gave it: an array's elements, a string's
    /// code points, an object's members; nil for a number or boolean, where `len()` raises.
    static func pythonLength(_ value: JSONValue) -> Int? {
        switch value {
        case .array(let elements): return elements.count
        case .string(let text): return text.unicodeScalars.count
        case .object(let members): return members.count
        case .null, .bool, .number: return nil
        }
    }

    /// `x5c[index]` where it is a string `b64decode` reads: an array's element, or one
    /// code point of a string; nil where Python raises first (another element type, or
    /// an object, whose keys are never the integer `index`).
    static func pythonItem(_ value: JSONValue, _ index: Int) -> String? {
        switch value {
        case .array(let elements): return elements.indices.contains(index) ? elements[index].stringValue : nil
        case .string(let text):
            let scalars = Array(text.unicodeScalars)
            return scalars.indices.contains(index) ? String(scalars[index]) : nil
        case .null, .bool, .number, .object: return nil
        }
    }

    /// The date the chain is verified at, as Apple's library chooses it.
    package enum EffectiveDate: Equatable {
        /// Whole seconds since 1970.
        case date(Int64)
        /// Neither field has a value: the chain is verified at the current time.
        case none
        /// Python's `int()` raises on the field's value, which fails the verification.
        case refused(field: String)
    }

    /// `signedDate` unless absent or null, else `receiptCreationDate`, as
    /// `int(date) // 1000` (`PythonInt`, floor division).
    package static func effectiveDate(_ payload: JSONValue) -> EffectiveDate {
        for field in ["signedDate", "receiptCreationDate"] {
            guard let value = payload[field], !value.isNull else { continue }
            guard let milliseconds = PythonInt.of(value) else { return .refused(field: field) }
            return .date(milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0))
        }
        return .none
    }

    private func checkPayload(_ verified: JSONInput, kind: JWSKind) -> (status: JWSVerificationStatus, detail: String) {
        // The payload as Apple's library reads it: each field converted as cattrs converts it.
        let payload: JSONInput
        switch CattrsStructuring.structure(verified.value, as: AppleModel.of(kind), at: "payload") {
        case .success(let structured): payload = JSONInput(value: structured, file: "payload", dialect: .python)
        case .failure(let failure):
            return (.verificationFailure, "\(failure.path): Apple's library raises outside its statuses here (cattrs: \(failure.reason))")
        }
        do throws(JWSError) {
            switch kind {
            case .transaction:
                let payload = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: payload)
                return identity(bundleId: payload.bundleId, appAppleId: nil, checksAppAppleId: false,
                                environment: payload.environment, environmentField: "payload.environment")
            case .renewalInfo:
                let payload = try StoreKit2JSON.decode(JWSRenewalInfoDecodedPayload.self, from: payload)
                guard payload.environment == environment.rawValue else {
                    return (.invalidEnvironment, "payload.environment is \(describe(payload.environment)), expected \(environment.rawValue)")
                }
                return (.ok, "renewal info verified")
            case .notification:
                let payload = try StoreKit2JSON.decode(ResponseBodyV2DecodedPayload.self, from: payload)
                if let data = payload.data {
                    return identity(bundleId: data.bundleId, appAppleId: data.appAppleId, checksAppAppleId: true,
                                    environment: data.environment, environmentField: "payload.data.environment")
                }
                if let summary = payload.summary {
                    return identity(bundleId: summary.bundleId, appAppleId: summary.appAppleId, checksAppAppleId: true,
                                    environment: summary.environment, environmentField: "payload.summary.environment")
                }
                if let token = payload.externalPurchaseToken {
                    return identity(bundleId: token.bundleId, appAppleId: token.appAppleId, checksAppAppleId: true,
                                    environment: token.environment, environmentField: "payload.externalPurchaseToken.externalPurchaseId")
                }
                if let app = payload.appData {
                    return identity(bundleId: app.bundleId, appAppleId: app.appAppleId, checksAppAppleId: true,
                                    environment: app.environment, environmentField: "payload.appData.environment")
                }
                return identity(bundleId: nil, appAppleId: nil, checksAppAppleId: true, environment: nil,
                                environmentField: "payload.data")
            case .appTransaction:
                let payload = try StoreKit2JSON.decode(AppTransactionDecodedPayload.self, from: payload)
                return identity(bundleId: payload.bundleId, appAppleId: payload.appAppleId, checksAppAppleId: true,
                                environment: payload.receiptType, environmentField: "payload.receiptType")
            }
        } catch {
            return (.verificationFailure, "payload does not decode as a \(kind.rawValue): \(error)")
        }
    }

    private func identity(bundleId found: String?, appAppleId foundAppleId: Int64?, checksAppAppleId: Bool,
                          environment foundEnvironment: String?, environmentField: String)
        -> (status: JWSVerificationStatus, detail: String) {
        guard found == bundleId else {
            return (.invalidAppIdentifier, "bundleId is \(describe(found)), expected \(bundleId)")
        }
        if checksAppAppleId, environment == .production, foundAppleId != appAppleId {
            return (.invalidAppIdentifier, "appAppleId is \(foundAppleId.map(String.init) ?? "missing"), expected "
                        + (appAppleId.map(String.init) ?? "none given"))
        }
        guard foundEnvironment == environment.rawValue else {
            return (.invalidEnvironment, "\(environmentField) is \(describe(foundEnvironment)), expected \(environment.rawValue)")
        }
        return (.ok, "verified: bundle \(bundleId), environment \(environment.rawValue)")
    }

    private func describe(_ value: String?) -> String { value.map { "'\($0)'" } ?? "missing" }
}

package struct RootCertificateError: Error {
    let index: Int
    let error: CertificateError
    let status: JWSVerificationStatus
}
