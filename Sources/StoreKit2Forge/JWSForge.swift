import BER
import Crypto
import Foundation
import ReceiptVerifier
import StoreKit2
import AppInput
import ForgeCA
import ForgeSupport
import ReceiptForge

/// Mints the StoreKit 2 cases: payloads for the app, signed ES256 with the JWS CA's
/// leaf (deterministic RFC 6979 nonces), then broken as each case says.
/// The same app, settings and CA always give byte-identical files.
///
/// Its tree (`forge jws`, default `Fixtures/storekit2`): per case `NAME/signed.jws` or
/// `NAME/notification.json` and `NAME/case.json`; `manifest.json`; the roots under `Certs/`.
public struct JWSForge: FixtureForge {
    /// The app every payload is for.
    public let app: AppDescription
    /// The reference time and seed, shared with the receipt forge.
    public let settings: ForgeSettings
    /// The certificate authority whose leaf signs: the committed test CA unless the caller brings one.
    public let authority: JWSAuthority
    /// The app's Apple id (`appAppleId`) in every payload and verifier that has one.
    public let appAppleId: Int64

    /// 1234567890 (`AppDescription.defaultAppAppleId`).
    public static let defaultAppAppleId = AppDescription.defaultAppAppleId

    /// A forge for `app` at `settings`' time and seed, signing with `authority`.
    public init(app: AppDescription = .example, settings: ForgeSettings = ForgeSettings(),
                authority: JWSAuthority = .committed, appAppleId: Int64 = JWSForge.defaultAppAppleId) {
        self.app = app
        self.settings = settings
        self.authority = authority
        self.appAppleId = appAppleId
    }

    /// The trust anchors written into every tree, by path; cases name them.
    public static let rootPath = "Certs/jws-root.cer"
    /// The trusted root, an unrelated root and Xcode's certificate, by path.
    public var anchors: [String: [UInt8]] {
        [JWSForge.rootPath: authority.root.certificate,
         "Certs/jws-unrelated-root.cer": authority.unrelatedRoot.certificate,
         "Certs/jws-xcode.cer": authority.storeKit.certificate]
    }

    /// `manifest.json` for the whole catalogue.
    public var manifest: JWSManifest {
        JWSManifest(now: settings.now, seed: settings.seed, bundleId: app.bundleIdentifier, appAppleId: appAppleId,
                    rootCertificate: JWSForge.rootPath,
                    cases: JWSCase.catalogue.map { .init(id: $0.id, kind: $0.kind, file: $0.fileName, expectedStatus: $0.expected) })
    }

    /// `signedDate` of every case, in milliseconds: the receipts' creation date.
    public var signedDate: Int64 { settings.creationDate * 1000 + 123 }

    /// Mints one case: the same forge and case always give the same bytes.
    public func mint(_ jwsCase: JWSCase) throws(KeyError) -> MintedJWS {
        let payloadEnvironment: JWSEnvironment = {
            if case .payloadEnvironment(let environment) = jwsCase.flaw { return environment }
            if case .xcode = jwsCase.flaw { return .xcode }
            return jwsCase.environment
        }()
        let jws: String
        if case .notification = jwsCase.kind {
            jws = try notification(jwsCase, environment: payloadEnvironment)
        } else {
            jws = try sign(payload(jwsCase, environment: payloadEnvironment), flaw: jwsCase.flaw, serial: serial(jwsCase))
        }
        let file: [UInt8] = jwsCase.kind == .notification
            ? StoreKit2JSON.encode(SignedPayloadBody(signedPayload: jws)) + [0x0A]
            : Array((jws + "\n").utf8)
        let verifier = JWSVerifierSettings(bundleId: app.bundleIdentifier, appAppleId: jwsCase.givesAppAppleId ? appAppleId : nil,
                                           environment: jwsCase.environment, rootCertificates: [JWSForge.rootPath])
        var nested: [String: JWSVerificationStatus]?
        if case .notification(_, _, _) = jwsCase.content {
            nested = ["data.signedTransactionInfo": .ok, "data.signedRenewalInfo": .ok]
        }
        let description = JWSCaseDescription(
            id: jwsCase.id, kind: jwsCase.kind, file: jwsCase.fileName, summary: jwsCase.summary,
            expected: .init(status: jwsCase.expected, nested: nested,
                            swiftLibrary: jwsCase.swiftLibraryWhereItDiffers),
            verifier: verifier,
            signedDate: jwsCase.flaw == .xcode ? nil : signedDate)
        return MintedJWS(jwsCase: jwsCase, jws: jws, file: file, description: description)
    }

    /// Per-case certificate serials start at 0x4A57_0100, in catalogue order.
    private func serial(_ jwsCase: JWSCase) -> UInt64 {
        0x4A57_0100 + UInt64(JWSCase.catalogue.firstIndex(of: jwsCase) ?? 0)
    }

    // MARK: Signing and breaking

    /// The compact JWS of `payload` as the App Store signs it (the genuine chain, no
    /// flaw): what the Server API answers and notifications carry, signed by this one call
    /// so the same payload bytes give the same JWS in both.
    package func signAsAppStore(_ payload: [UInt8]) throws(KeyError) -> String {
        try sign(payload, flaw: .none, serial: 0)
    }

    /// The compact JWS of `payload` for `flaw`.
    package func sign(_ payload: [UInt8], flaw: JWSCase.Flaw, serial: UInt64) throws(KeyError) -> String {
        let genuine = [authority.leaf.x5c, authority.intermediate.x5c, authority.root.x5c]
        var header = JWSHeader(alg: "ES256", x5c: genuine)
        var key = authority.leaf.key
        var signedPayload = payload
        switch flaw {
        case .none, .payloadEnvironment, .bundleId, .appAppleId, .tamperedPayload, .tamperedSignature, .derSignature,
             .algNone, .hs256WithLeafPublicKey, .payloadNotAnObject, .expiredJWTClaim:
            break
        case .untrustedRoot:
            let intermediate = try authority.intermediate(issuedBy: authority.unrelatedRoot,
                                                          issuerName: authority.profile.unrelatedRoot.name, serial: serial)
            header.x5c = [authority.leaf.x5c, base64(intermediate), authority.unrelatedRoot.x5c]
        case .x5cCount(let count):
            header.x5c = Array((genuine + [authority.root.x5c]).prefix(count))
        case .x5cMissing:
            header.x5c = nil
        case .x5cEmpty:
            header.x5c = []
        case .x5cThirdNotACertificate:
            header.x5c = [genuine[0], genuine[1], base64(Array("not a certificate".utf8))]
        case .certificateNotDER:
            header.x5c = [base64(Array(PEM.encode(authority.leaf.certificate, label: "CERTIFICATE").utf8)), genuine[1], genuine[2]]
        case .leafWithoutMarker:
            header.x5c = [base64(try authority.leaf(serial: serial, marker: false)), genuine[1], genuine[2]]
        case .intermediateWithoutMarker:
            let intermediate = try authority.intermediate(issuedBy: authority.root, issuerName: authority.profile.root.name,
                                                          serial: serial, marker: false)
            header.x5c = [genuine[0], base64(intermediate), genuine[2]]
        case .leafExpires(let offset):
            let notAfter = ASN1Time(secondsSince1970: signedDate / 1000 + offset)
            header.x5c = [base64(try authority.leaf(serial: serial, notAfter: notAfter)), genuine[1], genuine[2]]
        case .jwkHeaderWithOtherKey:
            key = Self.otherKey
            let point = Array(key.key.publicKey.x963Representation)
            header.jwk = ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(point[1...32]), "y": Base64URL.encode(point[33...])]
        case .xcode:
            header = JWSHeader(alg: "ES256", kid: "Apple_Xcode_Key", x5c: [authority.storeKit.x5c])
            key = authority.storeKit.key
        }
        if flaw == .algNone { header.alg = "none" }
        if flaw == .hs256WithLeafPublicKey { header.alg = "HS256" }
        if flaw == .payloadNotAnObject { signedPayload = Array("[\"not\",\"an\",\"object\"]".utf8) }
        if flaw == .expiredJWTClaim {
            // The payload's closing brace replaced by an exp claim at signedDate.
            signedPayload = Array(payload.dropLast()) + Array(",\"exp\":\(signedDate / 1000)}".utf8)
        }

        let headerBytes = StoreKit2JSON.encode(header)
        let input = CompactJWS.signingInput(header: headerBytes, payload: signedPayload)
        var signature: [UInt8]
        switch flaw {
        case .algNone:
            signature = []
        case .hs256WithLeafPublicKey:
            // What a verifier that trusts `alg` would check: HMAC keyed with the PEM of the
            // leaf's public key, as key libraries give it (without the file's final newline).
            let publicKeyPEM = PEM.encode(authority.leaf.key.publicKeyInfo, label: "PUBLIC KEY").dropLast()
            let secret = SymmetricKey(data: Array(publicKeyPEM.utf8))
            signature = Array(HMAC<SHA256>.authenticationCode(for: input, using: secret))
        case .derSignature:
            signature = try key.signDER(input)
        default:
            signature = try key.signRaw(input)
        }
        if flaw == .tamperedSignature { signature[signature.count - 1] ^= 0x01 }
        var jws = CompactJWS(header: headerBytes, payload: signedPayload, signature: signature)
        if flaw == .tamperedPayload {
            // The catalogue tampers with transactions only; the payload is the one just encoded.
            var transaction = try! StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: payload, at: "payload")
            transaction.price = 990
            let tampered = StoreKit2JSON.encode(transaction)
            jws = try! CompactJWS("\(jws.encodedHeader).\(Base64URL.encode(tampered)).\(jws.encodedSignature)")
        }
        return jws.serialized
    }

    /// A P-256 key that is not the CA's (the `jwk` case), derived from a fixed label.
    package static let otherKey: P256PrivateKey = {
        let scalar = Array(SHA256.hash(data: Array("receipt-forge: a key that is not the CA's".utf8)))
        return try! P256PrivateKey(rawScalar: scalar)
    }()

    private func base64(_ der: [UInt8]) -> String { Data(der).base64EncodedString() }
}

/// One minted StoreKit 2 case.
public struct MintedJWS: MintedFixture {
    /// The catalogue entry that was minted.
    public let jwsCase: JWSCase
    /// The compact JWS (for notifications: the `signedPayload`).
    public let jws: String
    /// The file's bytes: `signed.jws` or `notification.json`.
    public let file: [UInt8]
    /// The case's `case.json`.
    public let description: JWSCaseDescription

    /// The case's id.
    public var id: String { jwsCase.id }
    /// The signed file, `signed.jws` or `notification.json`.
    public var caseFiles: [(name: String, contents: [UInt8])] { [(jwsCase.fileName, file)] }
}
