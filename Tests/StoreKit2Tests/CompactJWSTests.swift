import ReceiptForge
import ReceiptVerifier
import StoreKit2
import XCTest

final class CompactJWSTests: XCTestCase {
    func testBase64URLRoundTripsEveryLength() throws {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 0xF0) }
            let encoded = Base64URL.encode(bytes)
            XCTAssertFalse(encoded.contains("=") || encoded.contains("+") || encoded.contains("/"))
            XCTAssertEqual(try Base64URL.decode(encoded), bytes)
        }
        XCTAssertEqual(Base64URL.encode(Array("\u{FB}\u{FF}".utf8)), "w7vDvw")
        XCTAssertEqual(Base64URL.encode([0xFB, 0xFF]), "-_8")
    }

    func testBase64URLRefusesWhatIsNotCanonical() {
        let cases: [(String, Int, String)] = [
            ("-_8=", 3, "'=' is not in the base64url alphabet"),
            ("+_8", 0, "'+' is not in the base64url alphabet"),
            ("ab/c", 2, "'/' is not in the base64url alphabet"),
            ("abcde", 5, "is 1 more than a multiple of 4"),
            ("-_9", 2, "non-zero padding bits"),
            ("ab c", 2, "byte 0x20 is not in the base64url alphabet"),
        ]
        for (text, offset, reason) in cases {
            XCTAssertThrowsError(try Base64URL.decode(text), text) { error in
                let decoding = error as? Base64URL.DecodingError
                XCTAssertEqual(decoding?.offset, offset, text)
                XCTAssertTrue(decoding?.reason.contains(reason) ?? false, "\(text): \(String(describing: decoding))")
            }
        }
    }

    func testCompactFormNamesThePartAtFault() {
        XCTAssertThrowsError(try CompactJWS("a.b")) { XCTAssertEqual(($0 as? JWSError)?.code, .notCompact) }
        XCTAssertThrowsError(try CompactJWS("a.b.c.d")) { XCTAssertEqual(($0 as? JWSError)?.code, .notCompact) }
        XCTAssertThrowsError(try CompactJWS("e30.e=30.")) {
            XCTAssertEqual($0 as? JWSError, JWSError(.invalidBase64URL, at: "payload", ""))
        }
        XCTAssertThrowsError(try CompactJWS("e30.e30.a")) {
            XCTAssertEqual($0 as? JWSError, JWSError(.invalidBase64URL, at: "signature", ""))
        }
        XCTAssertThrowsError(try StoreKit2JSON.decode(JWSHeader.self, from: Array(#"{"alg": 5}"#.utf8), at: "header")) {
            XCTAssertEqual($0 as? JWSError, JWSError(.invalidJSON, at: "header.alg", ""))
        }
        XCTAssertThrowsError(try StoreKit2JSON.decode(JWSHeader.self, from: Array("[]".utf8), at: "header")) {
            XCTAssertEqual($0 as? JWSError, JWSError(.invalidJSON, at: "header", ""))
        }
    }

    func testPartsRoundTrip() throws {
        for minted in Minted.cases {
            let compact = try CompactJWS(minted.jws)
            XCTAssertEqual(compact.serialized, minted.jws)
            XCTAssertEqual(CompactJWS(header: compact.header, payload: compact.payload, signature: compact.signature).serialized,
                           minted.jws, minted.jwsCase.id)
            // Built from parts (no decode), it equals the parse of its text, part by part.
            let built = CompactJWS(header: compact.header, payload: compact.payload, signature: compact.signature)
            XCTAssertEqual(built, compact, minted.jwsCase.id)
            XCTAssertEqual([built.encodedHeader, built.encodedPayload, built.encodedSignature],
                           [compact.encodedHeader, compact.encodedPayload, compact.encodedSignature], minted.jwsCase.id)
        }
        // Empty parts: the dots stay where they are.
        let empty = CompactJWS(header: [], payload: [0xFF], signature: [])
        XCTAssertEqual(empty, try CompactJWS("._w."))
        XCTAssertEqual(empty.encodedPayload, "_w")
    }

    /// Payload models decode what the forge encodes, and Xcode's float dates.
    func testPayloadModelsRoundTrip() throws {
        for minted in Minted.cases where minted.jwsCase.flaw != .payloadNotAnObject {
            let payload = try CompactJWS(minted.jws).payload
            switch minted.jwsCase.kind {
            case .transaction:
                let decoded = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: payload, at: "payload")
                XCTAssertEqual(try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: StoreKit2JSON.encode(decoded), at: "p"), decoded)
                XCTAssertNotNil(decoded.signedDate)
            case .renewalInfo:
                _ = try StoreKit2JSON.decode(JWSRenewalInfoDecodedPayload.self, from: payload, at: "payload")
            case .notification:
                let decoded = try StoreKit2JSON.decode(ResponseBodyV2DecodedPayload.self, from: payload, at: "payload")
                XCTAssertEqual(decoded.version, "2.0")
                XCTAssertTrue(decoded.data != nil || decoded.summary != nil)
            case .appTransaction:
                _ = try StoreKit2JSON.decode(AppTransactionDecodedPayload.self, from: payload, at: "payload")
            }
        }
        let xcode = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-xcode" })
        let text = String(decoding: try CompactJWS(xcode.jws).payload, as: UTF8.self)
        XCTAssertTrue(text.contains(#""transactionId":"0""#), text)
        let decoded = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: try CompactJWS(xcode.jws).payload, at: "payload")
        let signed = try XCTUnwrap(decoded.signedDate)
        XCTAssertNotEqual(signed.milliseconds.rounded(), signed.milliseconds, "a fractional date")
        XCTAssertTrue(text.contains(#""price""#) == false)
        let header = try StoreKit2JSON.decode(JWSHeader.self, from: try CompactJWS(xcode.jws).header, at: "header")
        XCTAssertEqual(header.kid, "Apple_Xcode_Key")
        XCTAssertEqual(header.x5c?.count, 1)
        XCTAssertEqual(JWSDate(milliseconds: 1_999).secondsSince1970, 1)
        // Apple: int(date) // 1000, truncation then floor division.
        XCTAssertEqual(JWSDate(fractionalMilliseconds: -0.5).secondsSince1970, 0)
        XCTAssertEqual(JWSDate(milliseconds: -1_500).secondsSince1970, -2)
    }

    /// Hostile input: never a crash, never OK. Every strict prefix and every one-byte
    /// change of a valid JWS is refused.
    func testEveryPrefixAndByteFlipOfAValidJWSIsRefused() throws {
        let minted = try XCTUnwrap(Minted.cases.first { $0.jwsCase.id == "transaction-production" })
        let verifier = Minted.verifier(minted.description.verifier)
        let bytes = Array(minted.jws.utf8)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            let prefix = String(decoding: bytes.prefix(length), as: UTF8.self)
            XCTAssertNotEqual(verifier.verify(prefix, kind: .transaction, currentTime: 0).status, .ok, "prefix \(length)")
        }
        for index in stride(from: 0, to: bytes.count, by: 13) {
            var changed = bytes
            changed[index] = changed[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let text = String(decoding: changed, as: UTF8.self)
            XCTAssertNotEqual(verifier.verify(text, kind: .transaction, currentTime: 0).status, .ok, "byte \(index)")
        }
        for garbage in ["", ".", "..", "...", "e30.e30.", "e30.W10.", "eyJhbGciOiJFUzI1NiIsIng1YyI6W119.e30.",
                        String(repeating: "A", count: 100_000)] {
            XCTAssertEqual(verifier.verify(garbage, kind: .notification, currentTime: 0).status, .verificationFailure, garbage)
        }
    }
}
