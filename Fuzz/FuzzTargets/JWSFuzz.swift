import Foundation
import ReceiptForge
import ReceiptVerifier
import StoreKit2
import AppInput
import ForgeCA
import StoreKit2Forge
import StoreKit2Verifier

/// Fuzz target `jws`: StoreKit 2 JWS parsing and verification, input = a compact JWS
/// (or a notification body) as text; an input that is not text-like is also tried as
/// the leaf certificate of an otherwise genuine `x5c`.
///
/// Properties (stable abort signatures):
/// - base64url, the compact form, the header, every payload model and `JWSVerifier`
///   (Production with the committed root, and Xcode) never crash; the kind verified
///   is chosen by the input's length, so all four are reached;
/// - `jws-base64url-roundtrip`: base64url decode(encode(input)) is the input;
/// - `jws-compact-roundtrip`: a JWS that parses re-encodes from its decoded parts to
///   exactly the input, and to an equal `CompactJWS` (the strict base64url has one
///   encoding per byte string);
/// - `jws-valid-roundtrip`: a JWS our verifier finds OK is still OK after a decode →
///   encode round trip, and the same for each of its parts re-encoded.
///
/// The text is split and base64url-decoded once per input: both verifiers take the
/// parsed `CompactJWS` (`JWSVerifier.verify(_:kind:currentTime:)` overload); text
/// that is no compact JWS goes to them as text, to reach their refusal.
public enum JWSFuzz {
    /// Verified certificate pairs are cached across inputs (every byte compared), so a
    /// genuine chain costs its ECDSA checks once per run, not once per input.
    static let cache = SignatureCache()
    public static let verifiers: [JWSVerifier] = [
        JWSVerifier(rootCertificates: [JWSAuthority.committed.root.certificate], bundleId: AppDescription.example.bundleIdentifier,
                    appAppleId: JWSForge.defaultAppAppleId, environment: .production, cache: cache),
        JWSVerifier(rootCertificates: [JWSAuthority.committed.root.certificate], bundleId: AppDescription.example.bundleIdentifier,
                    appAppleId: nil, environment: .xcode, cache: cache),
    ]
    public static let currentTime = ForgeSettings.defaultNow

    public static func fuzzOne(_ input: [UInt8]) {
        let encoded = Base64URL.encode(input)
        guard (try? Base64URL.decode(encoded)) == input else { fuzzFinding("jws-base64url-roundtrip") }

        let text = String(decoding: input, as: UTF8.self)
        let isText = input.allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0A }
        let jws = isText ? text : leafCertificateJWS(input)
        // One kind per input (the steps before the payload checks are the same for all).
        check(jws, kind: JWSKind.allCases[input.count % JWSKind.allCases.count])
        if isText, let body = try? StoreKit2JSON.decode(SignedPayloadBody.self, from: input, at: "body") {
            check(body.signedPayload, kind: .notification)
        }
    }

    static func check(_ jws: String, kind: JWSKind) {
        // Parsed once: the round trip and both verifiers share the parse.
        guard let compact = try? CompactJWS(jws) else {
            // Not a compact JWS: each verifier refuses it at the split (that path runs here).
            for verifier in verifiers { _ = verifier.verify(jws, kind: kind, currentTime: currentTime).detail }
            return
        }
        let again = CompactJWS(header: compact.header, payload: compact.payload, signature: compact.signature)
        guard again.serialized == jws, again == compact else {
            fuzzFinding("jws-compact-roundtrip", "\(jws) re-encodes as \(again.serialized)")
        }
        _ = try? StoreKit2JSON.decode(JWSHeader.self, from: compact.header, at: "header")
        _ = try? StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: compact.payload, at: "payload")
        _ = try? StoreKit2JSON.decode(ResponseBodyV2DecodedPayload.self, from: compact.payload, at: "payload")
        for verifier in verifiers {
            let result = verifier.verify(compact, kind: kind, currentTime: currentTime)
            _ = result.detail
            // The re-encoded parse (its own text and substrings) verifies the same.
            guard result.isOK else { continue }
            guard verifier.verify(again, kind: kind, currentTime: currentTime).isOK else {
                fuzzFinding("jws-valid-roundtrip", "OK before, not after a decode → encode round trip")
            }
        }
    }

    /// A transaction JWS whose `x5c[0]` is `certificate`, with the genuine intermediate and
    /// root and the signature of the genuine JWS (signed once by the committed leaf key):
    /// for the genuine leaf it is valid; any other `x5c[0]` fails at the certificate or
    /// chain step, which comes before the signature, so signing each input again would
    /// reach nothing more.
    public static func leafCertificateJWS(_ certificate: [UInt8]) -> String {
        // Only the header changes per input: the payload and signature parts are encoded once.
        Base64URL.encode(StoreKit2JSON.encode(leafHeader(certificate))) + leafPayloadAndSignature
    }

    /// `.payload.signature` of every certificate-input JWS, in compact form.
    static let leafPayloadAndSignature = "." + Base64URL.encode(leafPayload) + "." + Base64URL.encode(leafSignature)

    static let leafPayload = Array(#"{"bundleId":"com.example.receiptforge","environment":"Production","signedDate":1780000000000}"#.utf8)

    static func leafHeader(_ certificate: [UInt8]) -> JWSHeader {
        let authority = JWSAuthority.committed
        return JWSHeader(alg: "ES256", x5c: [Data(certificate).base64EncodedString(), authority.intermediate.x5c, authority.root.x5c])
    }

    static let leafSignature: [UInt8] = {
        let authority = JWSAuthority.committed
        let input = CompactJWS.signingInput(header: StoreKit2JSON.encode(leafHeader(authority.leaf.certificate)), payload: leafPayload)
        return (try? authority.leaf.key.signRaw(input)) ?? []
    }()
}
