import BER
import Foundation
import OpenSSLShim

/// `scripts/bench ber`: a full walk (every element, descending into every
/// constructed one, indefinite lengths included) of a real 5 KB receipt and of a
/// forge-sized payload, by `BERReader` and by OpenSSL's `ASN1_get_object`, on the
/// same bytes in the same run.
func runBERBench(_ arguments: [String]) {
    let realReceiptsDirectory = arguments.first ?? "../shared/real-receipts/receipts"
    var inputs: [(String, [UInt8])] = []
    let realName = "AppReceiptValidator__hannes_mac_mindnode_receipt.receipt"
    if let data = FileManager.default.contents(atPath: realReceiptsDirectory + "/" + realName) {
        inputs.append(("real receipt (\(data.count) B)", Array(data)))
    } else {
        print("note: \(realReceiptsDirectory)/\(realName) not found; pass the receipts folder as an argument")
    }
    let xcodeName = "TPInAppReceipt__receipt-xcode.receipt"
    if let data = FileManager.default.contents(atPath: realReceiptsDirectory + "/" + xcodeName) {
        inputs.append(("Xcode receipt, indefinite (\(data.count) B)", Array(data)))
    }
    let payload = syntheticPayload(inAppPurchases: 5)
    inputs.append(("forge-size payload (\(payload.count) B)", payload))
    let large = syntheticPayload(inAppPurchases: 150)
    inputs.append(("150 in-app payload (\(large.count) B)", large))

    print("BER walk: BERReader vs OpenSSL ASN1_get_object (same bytes, same run; best of 7 rounds)")
    print(pad("input", 40) + pad("elements", 10, right: true) + pad("ours", 12, right: true)
          + pad("OpenSSL", 12, right: true) + pad("speed-up", 10, right: true))
    for (name, bytes) in inputs {
        let ours = try? walk(bytes)
        let theirs = bytes.withUnsafeBufferPointer { rf_asn1_walk($0.baseAddress, $0.count) }
        guard let ours, ours == theirs else {
            print("\(name): element counts disagree (ours \(String(describing: ours)), OpenSSL \(theirs)); not timed")
            continue
        }
        let oursTime = nanosecondsPerCall { blackHole(try? walk(bytes)) }
        let theirsTime = nanosecondsPerCall {
            blackHole(bytes.withUnsafeBufferPointer { rf_asn1_walk($0.baseAddress, $0.count) })
        }
        print(pad(name, 40) + pad(String(ours), 10, right: true) + pad(formatDuration(oursTime), 12, right: true)
              + pad(formatDuration(theirsTime), 12, right: true)
              + pad(String(format: "%.2f×", theirsTime / oursTime), 10, right: true))
    }
}

/// Counts every element, descending into constructed ones: the same walk as
/// `rf_asn1_walk`, written as schema-driven code would be (extents, and
/// `withContents` to descend).
@inline(never)
func walk(_ bytes: [UInt8]) throws(BERError) -> Int {
    var reader = BERReader(bytes, rules: .ber)
    return try countElements(&reader)
}

func countElements(_ reader: inout BERReader) throws(BERError) -> Int {
    var count = 0
    while !reader.isAtEnd {
        let extent = try reader.readExtent()
        count += 1
        if extent.tag.isConstructed {
            count += try reader.withContents(of: extent) { (inner: inout BERReader) throws(BERError) -> Int in
                try countElements(&inner)
            }
        }
    }
    return count
}

/// A receipt-shaped payload: a SET of attributes, the values DER-wrapped in
/// OCTET STRINGs, with `inAppPurchases` nested in-app records.
func syntheticPayload(inAppPurchases: Int) -> [UInt8] {
    func attribute(_ writer: inout BERWriter, _ type: Int64, _ value: [UInt8]) {
        writer.appendSequence { w in
            w.appendInteger(type)
            w.appendInteger(1)
            w.appendOctetString(value)
        }
    }
    func utf8(_ text: String) -> [UInt8] {
        var w = BERWriter()
        w.appendUTF8String(text)
        return w.bytes
    }
    func ia5(_ text: String) -> [UInt8] {
        var w = BERWriter()
        w.appendIA5String(text)
        return w.bytes
    }
    func integer(_ value: Int64) -> [UInt8] {
        var w = BERWriter()
        w.appendInteger(value)
        return w.bytes
    }
    var writer = BERWriter()
    writer.appendConstructed(.set) { set in
        attribute(&set, 0, utf8("Production"))
        attribute(&set, 1, integer(1_234_567_890))
        attribute(&set, 2, utf8("com.example.receiptforge"))
        attribute(&set, 3, utf8("1.0"))
        attribute(&set, 4, Array(repeating: 0xAB, count: 16))
        attribute(&set, 5, Array(repeating: 0xCD, count: 20))
        attribute(&set, 12, ia5("2024-05-01T12:00:00Z"))
        attribute(&set, 19, utf8("1.0"))
        for index in 0..<inAppPurchases {
            var record = BERWriter()
            record.appendConstructed(.set) { iap in
                attribute(&iap, 1701, integer(1))
                attribute(&iap, 1702, utf8("com.example.product.\(index)"))
                attribute(&iap, 1703, utf8(String(1_000_000_000 + index)))
                attribute(&iap, 1704, ia5("2024-05-01T12:00:00Z"))
                attribute(&iap, 1705, utf8(String(1_000_000_000 + index)))
                attribute(&iap, 1706, ia5("2024-05-01T12:00:00Z"))
                attribute(&iap, 1708, ia5(""))
                attribute(&iap, 1711, integer(1_000_000_000_000 + Int64(index)))
            }
            attribute(&set, 17, record.bytes)
        }
    }
    return writer.bytes
}
