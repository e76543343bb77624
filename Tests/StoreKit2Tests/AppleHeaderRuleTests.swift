import BER
import Foundation
import FuzzTargets
import StoreKit2
import StoreKit2Forge
import StoreKit2Verifier
import TestSupport
import XCTest

/// Hostile JWS where our verifier once answered otherwise than Apple's `SignedDataVerifier`
/// (the rows of issue 28's table, and what `scripts/differential --jws` found since): each
/// is built here, signed with the forge's keys, and must get the expected status from our
/// verifier and from Apple's library (app-store-server-library in the oracle venv).
final class AppleHeaderRuleTests: XCTestCase {
    struct Variant {
        let name: String
        let source: MintedJWS
        let jws: String
        let ours: JWSVerificationStatus
        /// Apple's answer: a status name, or `EXCEPTION:…` where it raises outside its statuses.
        let apple: String
    }

    private static let authority = Minted.forge.authority

    private func minted(_ id: String) throws -> MintedJWS {
        try XCTUnwrap(Minted.cases.first { $0.id == id }, "no case \(id)")
    }

    /// `source`'s JWS with `header` and `payload` (JSON text), signed by its signer over
    /// the parts as written (`padding` appended to the encoded header or signature).
    private func jws(_ source: MintedJWS, header: String, payload: String? = nil, headerPadding: String = "",
                     signaturePadding: String = "") throws -> String {
        let original = try CompactJWS(source.jws)
        let payloadPart = payload.map { Base64URL.encode(Array($0.utf8)) } ?? String(original.encodedPayload)
        let signingInput = Base64URL.encode(Array(header.utf8)) + headerPadding + "." + payloadPart
        let key = source.jwsCase.flaw == .xcode ? Self.authority.storeKit.key : Self.authority.leaf.key
        let signature = try key.signRaw(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature) + signaturePadding
    }

    private static var chain: [String] {
        [authority.leaf.x5c, authority.intermediate.x5c, authority.root.x5c]
    }

    private static func header(alg: String = #""ES256""#, x5c: String? = nil, _ extra: String = "") -> String {
        "{\"alg\":\(alg)" + extra + ",\"x5c\":" + (x5c ?? "[" + chain.map { "\"\($0)\"" }.joined(separator: ",") + "]") + "}"
    }

    private static func x5c(_ entries: [String]) -> String { "[" + entries.joined(separator: ",") + "]" }

    /// `certificate` with one TBS byte changed (its signature no longer matches).
    private static func changing(_ certificate: [UInt8], _ byte: UInt8, to new: UInt8, at offset: Int) -> String {
        var der = certificate
        precondition(der[offset] == byte, "byte \(offset) is \(der[offset]), not \(byte)")
        der[offset] = new
        return Data(der).base64EncodedString()
    }

    private func variants() throws -> [Variant] {
        let valid = try minted("transaction-production")
        let xcode = try minted("transaction-xcode")
        let notification = try minted("notification-subscribed")
        let xcodeHeader = "{\"alg\":\"ES256\",\"kid\":\"Apple_Xcode_Key\",\"x5c\":[\"\(Self.authority.storeKit.x5c)\"]}"
        let chain = Self.chain.map { "\"\($0)\"" }
        let payload = String(decoding: try CompactJWS(valid.jws).payload, as: UTF8.self)
        let notificationPayload = String(decoding: try CompactJWS(notification.jws).payload, as: UTF8.self)
        func last(_ member: String, of text: String = payload) -> String { text.dropLast() + "," + member + "}" }
        // A header whose base64url leaves room for padding (a typ of the right length).
        let paddable = try XCTUnwrap(["", ",\"typ\":\"J\"", ",\"typ\":\"JW\""].map { Self.header($0) }
            .first { Base64URL.encode(Array($0.utf8)).count % 4 != 0 })
        let headerPadding = String(repeating: "=", count: (4 - Base64URL.encode(Array(paddable.utf8)).count % 4) % 4)
        XCTAssertFalse(Self.authority.intermediate.x5c.hasSuffix("="), "the intermediate's base64 already has padding")
        // Offsets in the forge's JWS leaf (`forge asn1 Certs/jws-leaf.cer`): 118 is the
        // SET of the issuer's third RDN, 157 the notBefore UTCTime.
        let primitiveRDN = Self.changing(Self.authority.leaf.certificate, 0x31, to: 0x11, at: 118)
        let shortGeneralizedTime = Self.changing(Self.authority.leaf.certificate, 0x17, to: 0x18, at: 157)
        // In the intermediate (`forge asn1 Certs/jws-intermediate.cer`): 92 is the tag of the
        // issuer's second RDN value, 339 that of the key's namedCurve OID.
        let unknownStringType = Self.changing(Self.authority.intermediate.certificate, 0x0C, to: 0x1D, at: 92)
        let opaqueParameters = Self.changing(Self.authority.intermediate.certificate, 0x06, to: 0x63, at: 339)

        func variant(_ name: String, _ source: MintedJWS, _ jws: String, _ status: JWSVerificationStatus,
                     apple: String? = nil) -> Variant {
            Variant(name: name, source: source, jws: jws, ours: status, apple: apple ?? status.rawValue)
        }
        return [
            // Issue 28's table.
            variant("Xcode: kid null", xcode, try jws(xcode, header: xcodeHeader.replacingOccurrences(
                of: "\"Apple_Xcode_Key\"", with: "null")), .verificationFailure),
            variant("Xcode: b64 false", xcode, try jws(xcode, header: xcodeHeader.dropLast() + ",\"b64\":false}"),
                    .verificationFailure),
            variant("crit 1 with x5c of two", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c(Array(chain.prefix(2))), ",\"crit\":1")), .verificationFailure),
            variant("crit 'x' with x5c of four", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c(chain + [chain[2]]), ",\"crit\":\"x\"")), .verificationFailure),
            variant("kid null with a leaf that is not DER", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c(["\"AAAA\"", chain[1], chain[2]]), ",\"kid\":null")), .verificationFailure),
            variant("x5c[2] not base64 (never read)", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c([chain[0], chain[1], "\"not base64!\""]))), .ok),
            // The header rules, each way.
            variant("Xcode: alg 5 (never read there)", xcode, try jws(xcode, header: xcodeHeader.replacingOccurrences(
                of: "\"ES256\"", with: "5")), .ok),
            variant("x5c[2] a number", valid, try jws(valid, header: Self.header(x5c: Self.x5c([chain[0], chain[1], "5"]))), .ok),
            variant("crit [b64] with b64 true", valid, try jws(valid, header: Self.header(",\"b64\":true,\"crit\":[\"b64\"]")), .ok),
            variant("crit [b64] without b64", valid, try jws(valid, header: Self.header(",\"crit\":[\"b64\"]")),
                    .verificationFailure),
            variant("crit empty", valid, try jws(valid, header: Self.header(",\"crit\":[]")), .verificationFailure),
            variant("kid 5", valid, try jws(valid, header: Self.header(",\"kid\":5")), .verificationFailure),
            // x5c as Python measures and indexes it.
            variant("x5c a string of three characters", valid, try jws(valid, header: Self.header(x5c: "\"abc\"")),
                    .invalidCertificate),
            variant("x5c a string of two characters", valid, try jws(valid, header: Self.header(x5c: "\"ab\"")),
                    .invalidChainLength),
            variant("x5c an object of three members", valid, try jws(valid, header: Self.header(
                x5c: #"{"0":"a","1":"b","2":"c"}"#)), .invalidCertificate),
            variant("x5c a number", valid, try jws(valid, header: Self.header(x5c: "3")), .verificationFailure),
            variant("x5c[0] a number", valid, try jws(valid, header: Self.header(x5c: Self.x5c(["3", chain[1], chain[2]]))),
                    .invalidCertificate),
            // b64decode(validate=True) and PyJWT's base64url.
            variant("x5c[1] with '==' after its last group", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c([chain[0], "\"\(Self.authority.intermediate.x5c)==\"", chain[2]]))), .ok),
            variant("x5c[1] with a line break", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c([chain[0], "\"\(Self.authority.intermediate.x5c.prefix(64))\\n\(Self.authority.intermediate.x5c.dropFirst(64))\"",
                               chain[2]]))), .invalidCertificate),
            variant("signature padded with '=='", valid, try jws(valid, header: Self.header(), signaturePadding: "=="), .ok),
            variant("header padded, signed as sent", valid, try jws(valid, header: paddable, headerPadding: headerPadding), .ok),
            variant("signature padded with '==='", valid, try jws(valid, header: Self.header(), signaturePadding: "==="),
                    .verificationFailure),
            // d2i_X509 of OpenSSL 4 (Apple's) against RFC 5280 (the chain).
            variant("leaf with a primitive RDN SET: decodes, its signature fails", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c(["\"\(primitiveRDN)\"", chain[1], chain[2]]))), .verificationFailure),
            variant("leaf with a 13-octet GeneralizedTime: OpenSSL 4 refuses", valid, try jws(valid, header: Self.header(
                x5c: Self.x5c(["\"\(shortGeneralizedTime)\"", chain[1], chain[2]]))), .invalidCertificate),
            variant("intermediate with a Name value tagged [UNIVERSAL 29]: ASN1_PRINTABLE takes it", valid, try jws(valid,
                    header: Self.header(x5c: Self.x5c([chain[0], "\"\(unknownStringType)\"", chain[2]]))), .verificationFailure),
            variant("intermediate whose key parameters are an [APPLICATION 3] of garbage: an ANY OpenSSL keeps unread", valid,
                    try jws(valid, header: Self.header(x5c: Self.x5c([chain[0], "\"\(opaqueParameters)\"", chain[2]]))),
                    .verificationFailure),
            // The payload as cattrs converts it.
            variant("bundleId 5, which str() makes '5'", valid, try jws(valid, header: Self.header(),
                                                                        payload: last(#""bundleId":5"#)), .invalidAppIdentifier),
            variant("environment 1", valid, try jws(valid, header: Self.header(), payload: last(#""environment":1"#)),
                    .invalidEnvironment),
            variant("price '12', which int() takes", valid, try jws(valid, header: Self.header(),
                                                                    payload: last(#""price":" 1_2 ""#)), .ok),
            variant("notification data 'x': a Data with nothing set", notification, try jws(notification, header: Self.header(),
                    payload: last(#""data":"x""#, of: notificationPayload)), .invalidAppIdentifier),
            variant("price 'x': cattrs raises", valid, try jws(valid, header: Self.header(), payload: last(#""price":"x""#)),
                    .verificationFailure, apple: "EXCEPTION:ClassValidationError"),
            variant("notification data 'bundleId': cattrs indexes a string", notification, try jws(notification,
                    header: Self.header(), payload: last(#""data":"bundleId""#, of: notificationPayload)),
                    .verificationFailure, apple: "EXCEPTION:ClassValidationError"),
        ]
    }

    func testOurStatusesAndApplesAreTheExpectedOnes() throws {
        let variants = try variants()
        let now = Int64(Date().timeIntervalSince1970)  // Apple's library reads the real clock
        for variant in variants {
            let result = Minted.verifier(variant.source.description.verifier).verify(variant.jws, kind: variant.source.jwsCase.kind,
                                                                                   currentTime: now)
            XCTAssertEqual(result.status, variant.ours, "\(variant.name): \(result.detail)")
        }

        try PythonOracle.require(module: "appstoreserverlibrary")
        let requests = variants.enumerated().map { index, variant in
            let settings = variant.source.description.verifier
            return JWSDifferential.OracleRequest(
                id: String(index), kind: variant.source.jwsCase.kind.rawValue, jws: variant.jws, bundleId: settings.bundleId,
                appAppleId: settings.appAppleId, environment: settings.environment.rawValue,
                roots: settings.rootCertificates.map { Data(Minted.forge.anchors[$0]!).base64EncodedString() })
        }
        let oracle = JWSDifferential.program(ChildProcess.packageRoot.appendingPathComponent("scripts/storekit2-oracle").path)
        let answers = try oracle(requests)
        XCTAssertEqual(answers.count, variants.count)
        for (variant, answer) in zip(variants, answers) {
            XCTAssertEqual(answer.status, variant.apple, "Apple's library on \(variant.name): \(answer.cause ?? "")")
        }
    }
}
