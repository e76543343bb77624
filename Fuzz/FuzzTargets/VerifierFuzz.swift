import BER
import ReceiptForge
import Foundation
import Receipt
import ReceiptVerifier
import ForgeCA

/// Fuzz target `verifier`: the whole receipt validation, input = a receipt file.
///
/// Properties (stable abort signatures):
/// - `ReceiptValidator.validate` never crashes or hangs, and its verdict always has a
///   detail (fixed inputs: the forge's bundle id, no device check, the committed test
///   root as the only anchor, the forge's reference dates);
/// - `verifier-openssl-difference: <ours>/<theirs>`: our signature-and-chain verdict and
///   OpenSSL's `PKCS7_verify` disagree, beyond the documented
///   `VerifierDifferential.whitelist` (see there: same anchor, same time, no marker policy):
///   one accepts what the other refuses, or both refuse at different steps (parse,
///   signature, chain), e.g. `signature-invalid/chain-invalid`;
/// - `verifier-cache-difference`, `verifier-policy-difference`: see `VerifierPolicyChecks`.
///
/// Both of our verifications share one `SignatureCache`: the certificates of most
/// inputs are the committed CA's (the custom mutator signs again with them), so each
/// is parsed, and each chain signature checked, once per run; what is left per input
/// is the signer's own RSA check (the second verification finds it in the cache).
/// A hit needs the same bytes, so the verdicts are those of an uncached run, which
/// `VerifierPolicyChecks` checks: on inputs whose payload decodes it validates once
/// more without a cache, the one full-cost verification left per such input.
/// OpenSSL's side runs on every input.
public enum VerifierFuzz {
    public static let cache = SignatureCache()
    static let settings = ForgeSettings()
    static let root = ReceiptAuthority.committed.root.certificate
    static let differential: VerifierDifferential = {
        do {
            return try VerifierDifferential(anchorDER: root)
        } catch {
            fatalError("the committed root does not parse: \(error)")
        }
    }()
    public static let validator = ReceiptValidator(
        anchors: differential.verifier.chainVerifier.anchors,
        options: ReceiptValidator.Options(bundleIdentifier: "com.example.receiptforge", device: .skip), cache: cache)
    public static let now = Date(timeIntervalSince1970: TimeInterval(settings.now))

    public static func fuzzOne(_ input: [UInt8]) {
        let verdict = validator.validate(input, now: now)
        if verdict.detail.isEmpty { fuzzFinding("verifier-empty-detail", verdict.reason.rawValue) }
        if let finding = VerifierPolicyChecks.check(input, verdict: verdict, now: now) {
            fuzzFinding(finding.signature, finding.detail)
        }
        let outcome = differential.compare(input, atSecondsSince1970: settings.creationDate, cache: cache)
        if case .difference(let what) = outcome.agreement {
            fuzzFinding("verifier-openssl-difference: \(outcome.signature)", what)
        }
    }
}
