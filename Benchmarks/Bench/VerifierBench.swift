import ReceiptForge
import Foundation
import OpenSSLShim
import Receipt
import ReceiptVerifier

/// `scripts/bench verify [REAL-RECEIPTS-DIR]`: receipts fully verified per second on one
/// core — ours (`ReceiptValidator`: parse, payload, signature, chain, receipt policies)
/// without and with the signature cache, against OpenSSL `d2i_PKCS7` + `PKCS7_verify`
/// (trust store built once) on the same bytes, same anchor, same validation time, in
/// the same run. Two receipts: the forge's `valid` case and a real App Store receipt.
///
/// `--profile cached|uncached|openssl` times nothing: it runs that one verifier on
/// the forge's `valid` case for about five seconds, for `perf record`.
func runVerifierBench(_ arguments: [String]) {
    var arguments = arguments
    var profiled: String?
    if let flag = arguments.firstIndex(of: "--profile") {
        guard flag + 1 < arguments.count, ["cached", "uncached", "openssl"].contains(arguments[flag + 1]) else {
            print("usage: scripts/bench verify [REAL-RECEIPTS-DIR] [--profile cached|uncached|openssl]")
            exit(64)
        }
        profiled = arguments[flag + 1]
        arguments.removeSubrange(flag...(flag + 1))
    }
    let realDirectory = URL(fileURLWithPath: arguments.first ?? "../shared/real-receipts")
    struct Subject {
        let name: String
        let receipt: [UInt8]
        let anchor: [UInt8]
        let options: ReceiptValidator.Options
        let creationDate: Int64
        let now: Date
    }
    var subjects: [Subject] = []

    let forge = Forge()
    guard let valid = try? forge.mint(ForgeCase.named("valid")!), let receipt = valid.receipt,
          let device = DeviceIdentifier(hex: valid.description.device.hex) else {
        print("cannot mint the valid case")
        return
    }
    subjects.append(Subject(
        name: "forge valid (\(receipt.count) B, SHA-256, 3 certs)", receipt: receipt, anchor: forge.authority.root.certificate,
        options: .init(bundleIdentifier: valid.description.app.bundleId, appVersion: valid.description.app.version,
                       device: .identifier(device)),
        creationDate: forge.settings.creationDate, now: Date(timeIntervalSince1970: TimeInterval(forge.settings.now))))

    let realName = "TPInAppReceipt__receipt-sandbox-g5.receipt"
    if let real = FileManager.default.contents(atPath: realDirectory.appendingPathComponent("receipts/\(realName)").path),
       let anchor = FileManager.default.contents(atPath: realDirectory.appendingPathComponent("anchors/AppleIncRootCertificate.cer").path),
       let created = ReceiptDate("2025-12-26T18:39:47Z"),
       let realDevice = DeviceIdentifier(uuidString: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7") {
        let bundle = (try? PKCS7SignedData(bytes: Array(real)).decodeReceipt().bundleIdentifier) ?? nil
        subjects.append(Subject(
            name: "real \(realName) (\(real.count) B)", receipt: Array(real), anchor: Array(anchor),
            options: .init(bundleIdentifier: bundle ?? "", device: .identifier(realDevice)),
            creationDate: created.secondsSince1970, now: Date(timeIntervalSince1970: TimeInterval(created.secondsSince1970))))
    } else {
        print("note: \(realDirectory.path) not found; the real receipt is skipped")
    }

    print("receipts verified per second, one core, best of 7 rounds (ours: full validation incl. payload and policies)")
    print(pad("receipt / verifier", 62) + pad("per receipt", 13, right: true) + pad("receipts/s", 12, right: true)
          + pad("× OpenSSL", 11, right: true))
    for subject in subjects {
        guard let anchors = try? ReceiptValidator.anchors(der: [subject.anchor]) else {
            print("\(subject.name): the anchor does not parse")
            continue
        }
        let uncached = ReceiptValidator(anchors: anchors, options: subject.options)
        let cache = SignatureCache()
        let cached = ReceiptValidator(anchors: anchors, options: subject.options, cache: cache)
        guard let store = subject.anchor.withUnsafeBufferPointer({ rf_verify_store_new($0.baseAddress, $0.count) }) else {
            print("\(subject.name): OpenSSL cannot load the anchor")
            continue
        }
        defer { rf_verify_store_free(store) }
        let bytes = subject.receipt
        func openSSL() -> Int32 {
            bytes.withUnsafeBufferPointer { rf_verify_pkcs7_once(store, $0.baseAddress, $0.count, subject.creationDate) }
        }
        // Both must accept before anything is timed.
        let verdict = uncached.validate(bytes, now: subject.now)
        guard verdict.isValid, cached.validate(bytes, now: subject.now).isValid, openSSL() == 1 else {
            print("\(subject.name): not valid for both (ours: \(verdict), OpenSSL: \(openSSL())); not timed")
            continue
        }
        if let profiled {
            let start = monotonicNanoseconds()
            var calls = 0
            while monotonicNanoseconds() - start < 5_000_000_000 {
                for _ in 0..<1000 {
                    switch profiled {
                    case "cached": blackHole(cached.validate(bytes, now: subject.now).reason)
                    case "uncached": blackHole(uncached.validate(bytes, now: subject.now).reason)
                    default: blackHole(openSSL())
                    }
                }
                calls += 1000
            }
            print("\(profiled): \(calls) calls of \(subject.name) in \(formatDuration(Double(monotonicNanoseconds() - start)))")
            return
        }
        let theirs = nanosecondsPerCall { blackHole(openSSL()) }
        let oursUncached = nanosecondsPerCall { blackHole(uncached.validate(bytes, now: subject.now).reason) }
        let oursCached = nanosecondsPerCall { blackHole(cached.validate(bytes, now: subject.now).reason) }
        print(subject.name)
        for (label, time) in [("  OpenSSL d2i_PKCS7 + PKCS7_verify", theirs), ("  ReceiptValidator, no cache", oursUncached),
                              ("  ReceiptValidator, signature cache", oursCached)] {
            print(pad(label, 62) + pad(formatDuration(time), 13, right: true)
                  + pad(String(format: "%.0f", 1e9 / time), 12, right: true)
                  + pad(String(format: "%.2f", theirs / time), 11, right: true))
        }
        let statistics = cache.statistics
        print("  (cache: \(statistics.hits) hits, \(statistics.misses) misses, \(statistics.entries) pairs; "
              + "receipt signatures: \(statistics.signatureHits) hits, \(statistics.signatureMisses) misses)")
        // Where the cached time goes: the container and the payload decode alone.
        let decode = nanosecondsPerCall { blackHole(try? PKCS7SignedData(bytes: bytes).decodeReceipt().inAppPurchaseCount) }
        print("  (of which container + payload decode: \(formatDuration(decode)))")
    }
    print("goal: ≥ 5× OpenSSL without the cache, ≥ 15× with it")
}
