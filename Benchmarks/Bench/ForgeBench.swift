import ReceiptForge
import Foundation
import OpenSSLShim
import Receipt
import OwnedFileTree

/// `scripts/bench forge`: the time `forge --all` takes (mint every case and write the
/// tree), and receipts signed per second by the forge's signer (BERWriter container +
/// RSA PKCS#1 v1.5 with BigNum's CRT, checked with e) versus OpenSSL's own `PKCS7_sign`,
/// same key, certificates and payload, in the same run.
func runForgeBench(_ arguments: [String]) {
    let forge = Forge()
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("forge-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: output) }

    // 1. forge --all, in process (minting + writing the tree), best of 5.
    var best = Double.infinity
    var caseCount = 0
    for _ in 0..<5 {
        let start = monotonicNanoseconds()
        do {
            let cases = try forge.mintAll()
            let files = try forge.files(minted: cases)
            try OutputTree(directory: output, ownership: .fixtures).replaceTree(with: files)
            caseCount = cases.count
        } catch {
            print("forge --all failed: \(error)")
            return
        }
        best = min(best, Double(monotonicNanoseconds() - start))
    }
    var mintOnly = Double.infinity
    for _ in 0..<5 {
        let start = monotonicNanoseconds()
        blackHole(try? forge.mintAll())
        mintOnly = min(mintOnly, Double(monotonicNanoseconds() - start))
    }
    print("forge --all: \(caseCount) cases minted and written in \(formatDuration(best)) (best of 5); "
          + "minting alone \(formatDuration(mintOnly))")

    // 2. Signing throughput on the `valid` case's payload.
    guard let valid = try? forge.mint(ForgeCase.named("valid")!), let file = valid.receipt,
          let payload = try? PKCS7SignedData(bytes: file).payload else {
        print("cannot mint the valid case")
        return
    }
    let ca = forge.authority
    let signer = ReceiptSigner(signer: ca.leaf, certificates: [ca.leaf.certificate, ca.intermediate.certificate,
                                                               ca.root.certificate])
    // OpenSSL gets its certificates parsed beforehand, as the forge's signer has them.
    func load(_ der: [UInt8]) -> UnsafeMutableRawPointer? { der.withUnsafeBufferPointer { rf_x509_load($0.baseAddress, $0.count) } }
    guard let leafHandle = load(ca.leaf.certificate), let intermediateHandle = load(ca.intermediate.certificate),
          let rootHandle = load(ca.root.certificate) else {
        print("OpenSSL cannot parse the committed certificates")
        return
    }
    guard let keyHandle = ca.leaf.key.pem.withCString({ rf_key_load_pem($0, strlen($0)) }) else {
        print("OpenSSL cannot read the committed leaf key")
        return
    }
    let chainHandles: [UnsafeMutableRawPointer?] = [intermediateHandle, rootHandle]
    defer {
        [leafHandle, intermediateHandle, rootHandle].forEach { rf_x509_free($0) }
        rf_key_free(keyHandle)
    }
    func openSSLSign() -> Int {
        var out = [UInt8](repeating: 0, count: 16_384)
        var length = 0
        let ok = chainHandles.withUnsafeBufferPointer { chain in
            payload.withUnsafeBufferPointer { message in
                rf_pkcs7_sign(leafHandle, keyHandle, chain.baseAddress, chain.count, 256, 0,
                              message.baseAddress, message.count, &out, out.count, &length)
            }
        }
        return ok == 1 ? length : -1
    }
    // Both produce receipts OpenSSL verifies (checked once, outside the timing).
    let ours = try? signer.sign(payload)
    let root = ca.root.certificate
    func verifies(_ receipt: [UInt8]) -> Bool {
        receipt.withUnsafeBufferPointer { p7 in
            root.withUnsafeBufferPointer { rf_pkcs7_verify(p7.baseAddress, p7.count, $0.baseAddress, $0.count,
                                                           forge.settings.creationDate) }
        } == RF_PKCS7_OK
    }
    guard let ours, verifies(ours), openSSLSign() > 0 else {
        print("a signer's output does not verify; not timed")
        return
    }
    let oursTime = nanosecondsPerCall(rounds: 5, roundNanoseconds: 200_000_000) { blackHole(try? signer.sign(payload)) }
    // The project's own RSA (what the forge uses for MD5) on the same DigestInfo.
    let key = ca.leaf.key
    let bigNumTime = nanosecondsPerCall(rounds: 5, roundNanoseconds: 200_000_000) {
        blackHole(try? key.signWithBigNum(payload, digest: .sha256))
    }
    let theirsTime = nanosecondsPerCall(rounds: 5, roundNanoseconds: 200_000_000) { blackHole(openSSLSign()) }
    print("signing a \(payload.count)-byte payload (SHA-256, RSA-2048, 3 certificates), best of 5 rounds:")
    print(pad("signer", 44) + pad("per receipt", 14, right: true) + pad("receipts/s", 12, right: true))
    print(pad("forge (BERWriter + swift-crypto RSA)", 44) + pad(formatDuration(oursTime), 14, right: true)
          + pad(String(format: "%.0f", 1e9 / oursTime), 12, right: true))
    print(pad("  its RSA alone by BigNum RSA-CRT (MD5 path)", 44) + pad(formatDuration(bigNumTime), 14, right: true)
          + pad(String(format: "%.0f", 1e9 / bigNumTime), 12, right: true))
    print(pad("OpenSSL PKCS7_sign (NOATTR, BINARY)", 44) + pad(formatDuration(theirsTime), 14, right: true)
          + pad(String(format: "%.0f", 1e9 / theirsTime), 12, right: true))
    print(String(format: "ratio: forge is %.2f× OpenSSL's speed", theirsTime / oursTime))
}
