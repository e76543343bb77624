import Foundation
import ReceiptForge
import ReceiptVerifier
import StoreKit2
import XCTest
import StoreKit2Forge
import StoreKit2Verifier

/// The StoreKit 2 catalogue minted once per test process (minting signs about 80
/// times with the BigNum ECDSA), and helpers shared by the tests.
enum Minted {
    static let forge = JWSForge()
    static let cases: [MintedJWS] = {
        do {
            return try forge.mintAll()
        } catch {
            preconditionFailure("minting the StoreKit 2 catalogue failed: \(error)")
        }
    }()

    /// The JWS of a minted case's file (a notification's `signedPayload`).
    static func jws(_ minted: MintedJWS) -> String { minted.jws }

    /// Our verifier set up as `description.verifier` says, roots read from `files`.
    static func verifier(_ settings: JWSVerifierSettings, anchors: [String: [UInt8]] = forge.anchors,
                         cache: SignatureCache? = nil) -> JWSVerifier {
        JWSVerifier(rootCertificates: settings.rootCertificates.map { anchors[$0]! }, bundleId: settings.bundleId,
                    appAppleId: settings.appAppleId, environment: settings.environment, cache: cache)
    }

    /// The nested JWS of a notification: `data.signedTransactionInfo` or `data.signedRenewalInfo`.
    static func nested(_ field: String, of jws: String) throws -> String? {
        let compact = try CompactJWS(jws)
        let payload = try StoreKit2JSON.decode(ResponseBodyV2DecodedPayload.self, from: compact.payload, at: "payload")
        return field.hasSuffix("signedTransactionInfo") ? payload.data?.signedTransactionInfo : payload.data?.signedRenewalInfo
    }

    static var currentTime: Int64 { forge.settings.now }

    /// A scratch directory removed when `testCase` ends.
    static func scratch(_ testCase: XCTestCase) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storekit2-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }
}
