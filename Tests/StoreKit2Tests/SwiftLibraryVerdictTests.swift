import Foundation
import ReceiptVerifier
import StoreKit2
import XCTest
import StoreKit2Forge

/// Each case's `swiftLibrary` (what Apple's Swift library answers, docs/storekit2.md) is
/// derived a second time here, from the minted file's bytes, by the steps of the Swift
/// library's `ChainVerifier.verify` in their order (app-store-server-library-swift,
/// `Sources/AppStoreServerLibrary/ChainVerifier.swift`, commit 8468d10): three parts; the
/// header and the payload decode (the payload as an object); Xcode's environment skips
/// the rest; `alg` ES256 and three `x5c` entries, else INVALID_JWT_FORMAT; the first two
/// entries Base64, else INVALID_CERTIFICATE; both DER certificates, else INVALID_JWT_FORMAT;
/// the chain at `signedDate` with Apple's markers, else VERIFICATION_FAILURE; the ES256
/// signature by the leaf's key, else INVALID_JWT_FORMAT (jwt-kit throws inside the `do`
/// block); no registered claim; then the app and environment checks both libraries share.
/// The catalogue says the same from each case's flaw, so a case whose bytes and flaw part
/// ways fails here.
final class SwiftLibraryVerdictTests: XCTestCase {
    private struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
    }

    /// Decodes only from a JSON object, as the Swift library's payload types do.
    private struct Claims: Decodable {
        let exp: Double?
    }

    private func modelled(_ minted: MintedJWS) throws -> SwiftLibraryVerdict {
        let description = minted.description
        let afterTheSignature: SwiftLibraryVerdict = switch description.expected.status {
        case .invalidAppIdentifier: .invalidAppIdentifier
        case .invalidEnvironment: .invalidEnvironment
        default: .valid
        }
        let parts = minted.jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerBytes = try? Base64URL.decode(parts[0]), let payloadBytes = try? Base64URL.decode(parts[1]),
              let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
              (try? JSONDecoder().decode(Claims.self, from: Data(payloadBytes))) != nil else { return .invalidJWTFormat }
        if description.verifier.environment == .xcode { return afterTheSignature }
        guard header.alg == "ES256", let x5c = header.x5c, x5c.count == 3 else { return .invalidJWTFormat }
        guard let leafDER = Data(base64Encoded: x5c[0]), let intermediateDER = Data(base64Encoded: x5c[1]) else {
            return .invalidCertificate
        }
        guard let leaf = try? Certificate(ArraySlice(leafDER), rules: .der, keyAlgorithms: .rsaAndP256),
              let intermediate = try? Certificate(ArraySlice(intermediateDER), rules: .der, keyAlgorithms: .rsaAndP256) else {
            return .invalidJWTFormat
        }
        let anchors = try description.verifier.rootCertificates.map { path in
            try Certificate(ArraySlice(try XCTUnwrap(Minted.forge.anchors[path], path)), rules: .der, keyAlgorithms: .rsaAndP256)
        }
        let seconds = description.signedDate.map { $0 / 1_000 } ?? Minted.currentTime
        let chain = ChainVerifier(anchors: anchors).verify(leaf, intermediates: [intermediate], atSecondsSince1970: seconds)
        guard chain.isValid, chain.chain[0].extensions.hasAppleReceiptSigningMarker,
              chain.chain.count > 1, chain.chain[1].extensions.hasAppleWWDRIntermediateMarker else { return .verificationFailure }
        guard let key = chain.chain[0].publicKey.p256, let signature = try? Base64URL.decode(parts[2]),
              key.checkRawSignature(signature, message: Array("\(parts[0]).\(parts[1])".utf8)).isValid else {
            return .invalidJWTFormat
        }
        return afterTheSignature
    }

    func testEveryCaseTheSwiftLibrarysWayFromItsBytes() throws {
        for minted in Minted.cases {
            XCTAssertEqual(try modelled(minted), minted.jwsCase.swiftLibrary, minted.jwsCase.id)
        }
    }

    /// The differences issue 35 names: an `exp` long passed is valid, a chain of the wrong
    /// length and a leaf that is no certificate are INVALID_JWT_FORMAT; `case.json`
    /// carries the Swift library's answer exactly where it differs.
    func testTheDifferencesAreRecordedInCaseJSON() throws {
        let byId = Dictionary(uniqueKeysWithValues: Minted.cases.map { ($0.jwsCase.id, $0) })
        XCTAssertEqual(byId["transaction-jwt-exp-passed"]?.description.expected.swiftLibrary, .valid)
        XCTAssertEqual(byId["transaction-x5c-one"]?.description.expected.swiftLibrary, .invalidJWTFormat)
        XCTAssertEqual(byId["transaction-certificate-not-der"]?.description.expected.swiftLibrary, .invalidJWTFormat)
        XCTAssertEqual(byId["transaction-untrusted-root"]?.description.expected.swiftLibrary, nil, "both say VERIFICATION_FAILURE")
        for minted in Minted.cases {
            let recorded = minted.description.expected.swiftLibrary
            XCTAssertEqual(recorded ?? SwiftLibraryVerdict(sameAs: minted.description.expected.status), minted.jwsCase.swiftLibrary,
                           minted.jwsCase.id)
        }
        XCTAssertEqual(Minted.cases.filter { $0.description.expected.swiftLibrary != nil }.count, 15)
    }
}
