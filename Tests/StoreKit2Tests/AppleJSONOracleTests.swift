import Foundation
import StoreKit2
import StoreKit2Forge
import StoreKit2Verifier
import TestSupport
import XCTest

/// JSON that Python's `json.loads` reads and RFC 8259 does not, or reads differently
/// from Foundation, in validly signed transactions: our verifier gives each the status
/// Apple's `SignedDataVerifier` gives (checked against the library itself where
/// `.venv-oracles` has it; the expected statuses below are what it answered).
final class AppleJSONOracleTests: XCTestCase {
    struct Variant {
        let name: String
        let header: [UInt8]
        let payload: [UInt8]
        let expected: JWSVerificationStatus
    }

    private static let forge = Minted.forge

    /// The genuine header: ES256 and the forge's leaf, intermediate and root.
    private static var header: String {
        let authority = forge.authority
        return #"{"alg":"ES256","x5c":["\#(authority.leaf.x5c)","\#(authority.intermediate.x5c)","\#(authority.root.x5c)"]"#
    }

    private func variants() throws -> [Variant] {
        let valid = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-production" })
        let genuine = String(decoding: try CompactJWS(valid.jws).payload, as: UTF8.self)
        XCTAssertTrue(genuine.hasPrefix("{") && genuine.hasSuffix("}"))
        let header = Array((Self.header + "}").utf8)
        func first(_ member: String) -> [UInt8] { Array(("{" + member + "," + genuine.dropFirst()).utf8) }
        func last(_ member: String) -> [UInt8] { Array((genuine.dropLast() + "," + member + "}").utf8) }
        func variant(_ name: String, _ payload: [UInt8], _ expected: JWSVerificationStatus, header custom: [UInt8]? = nil) -> Variant {
            Variant(name: name, header: custom ?? header, payload: payload, expected: expected)
        }
        func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
            ([0xFEFF] + Array(text.utf16)).flatMap { (unit: UInt16) -> [UInt8] in
                bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
        }
        let digits = String(repeating: "7", count: 4300)
        return [
            variant("the genuine payload", Array(genuine.utf8), .ok),
            variant("bundleId repeated, the app's last", first(#""bundleId":"com.example.other""#), .ok),
            variant("bundleId repeated, another app's last", last(#""bundleId":"com.example.other""#), .invalidAppIdentifier),
            variant("environment repeated, Sandbox last", last(#""environment":"Sandbox""#), .invalidEnvironment),
            variant("NaN and infinities where nobody reads", last(#""forgeExtra":[NaN,Infinity,-Infinity,1e999]"#), .ok),
            variant("UTF-8 with a byte order mark", [0xEF, 0xBB, 0xBF] + Array(genuine.utf8), .ok),
            variant("UTF-16LE with a byte order mark", utf16(genuine, bigEndian: false), .ok),
            variant("UTF-16BE with a byte order mark", utf16(genuine, bigEndian: true), .ok),
            variant("UTF-16LE without", Array(utf16(genuine, bigEndian: false).dropFirst(2)), .ok),
            variant("an unpaired surrogate escape where nobody reads", last(#""forgeExtra":"\ud800""#), .ok),
            variant("an encoded surrogate where nobody reads", last(#""forgeExtra":"x""#).dropLast(3) + [0xED, 0xA0, 0x80, 0x22, 0x7D], .ok),
            variant("a trailing comma", Array((genuine.dropLast() + ",}").utf8), .verificationFailure),
            variant("an integer of 4300 digits", last(#""forgeExtra":\#(digits)"#), .ok),
            variant("an integer of 4301 digits", last(#""forgeExtra":\#(digits)7"#), .verificationFailure),
            variant("nested 300 levels", last(#""forgeExtra":"# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300)), .ok),
            variant("exp beyond 64 bits", last(#""exp":1000000000000000000000000000000"#), .ok),
            variant("exp a decimal string with spaces and underscores", last(#""exp":" 99_999_999_999 ""#), .ok),
            variant("exp a string Python's int refuses", last(#""exp":"12e3""#), .verificationFailure),
            variant("exp infinite", last(#""exp":1e999"#), .verificationFailure),
            variant("exp true, which is 1", last(#""exp":true"#), .verificationFailure),
            variant("aud an empty string", last(#""aud":"""#), .ok),
            variant("aud an empty list", last(#""aud":[]"#), .ok),
            variant("aud zero", last(#""aud":0.0"#), .ok),
            variant("aud NaN, which is true", last(#""aud":NaN"#), .verificationFailure),
            variant("signedDate repeated, a string Python's int refuses last", last(#""signedDate":"soon""#), .verificationFailure),
            variant("signedDate true: the chain checked in 1970", last(#""signedDate":true"#), .verificationFailure),
            variant("alg repeated, ES256 last", Array(genuine.utf8), .ok,
                    header: Array((#"{"alg":"none","# + Self.header.dropFirst() + "}").utf8)),
            variant("x5c repeated, empty last", Array(genuine.utf8), .verificationFailure,
                    header: Array((Self.header + #","x5c":[]}"#).utf8)),
        ]
    }

    private func jws(_ variant: Variant) throws -> String {
        let input = CompactJWS.signingInput(header: variant.header, payload: variant.payload)
        return CompactJWS(header: variant.header, payload: variant.payload, signature: try Self.forge.authority.leaf.key.signRaw(input)).serialized
    }

    func testOurStatusesAreApples() throws {
        let variants = try variants()
        let root = try XCTUnwrap(Self.forge.anchors[JWSForge.rootPath])
        let verifier = JWSVerifier(rootCertificates: [root], bundleId: Self.forge.app.bundleIdentifier,
                                   appAppleId: Self.forge.appAppleId, environment: .production)
        // Apple's library reads the clock for the claims; so do we here.
        let now = Int64(Date().timeIntervalSince1970)
        let texts = try variants.map(jws)
        for (variant, text) in zip(variants, texts) {
            let ours = verifier.verify(text, kind: .transaction, currentTime: now)
            XCTAssertEqual(ours.status, variant.expected, "\(variant.name): \(ours.detail)")
        }

        try PythonOracle.require(module: "appstoreserverlibrary")
        let rootFile = try Minted.scratch(self).appendingPathComponent("root.cer")
        try Data(root).write(to: rootFile)
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(
            ["-c", Self.script, rootFile.path, Self.forge.app.bundleIdentifier, String(Self.forge.appAppleId)]),
            input: Data((texts.joined(separator: "\n") + "\n").utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        let apple = run.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(apple.count, variants.count, run.standardOutput)
        for (variant, status) in zip(variants, apple) {
            XCTAssertEqual(status, variant.expected.rawValue, "Apple's library on \(variant.name)")
        }
    }

    /// Apple's `SignedDataVerifier` (Production, online checks off) on each line's JWS.
    private static let script = """
        import sys
        from appstoreserverlibrary.models.Environment import Environment
        from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
        with open(sys.argv[1], "rb") as f:
            root = f.read()
        verifier = SignedDataVerifier([root], False, Environment.PRODUCTION, sys.argv[2], int(sys.argv[3]))
        for line in sys.stdin:
            try:
                verifier.verify_and_decode_signed_transaction(line.strip())
                print("OK")
            except VerificationException as e:
                print(e.status.name)
            except Exception as e:
                print("EXCEPTION:" + type(e).__name__)
        """
}
