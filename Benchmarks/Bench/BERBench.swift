import BER
import Foundation
import OpenSSLShim

/// `scripts/bench ber`: a full walk (every element, descending into every
/// constructed one, indefinite lengths included) of a real 5 KB receipt, an Xcode
/// receipt with indefinite lengths and forge-shaped payloads, by `BERReader` and by
/// OpenSSL's `ASN1_get_object`, on the same bytes in the same run.
///
/// Equal work on both sides: every element's tag, length and contents found, every
/// check made. OpenSSL's side is `rf_asn1_walk` (its generic recursive walk, as
/// `openssl asn1parse` does); ours is the generic walk `BERReader.walk` (iterative,
/// indefinite lengths in one pass), and, for comparison, the schema-style walk that
/// descends with `readExtent` + `withContents` (recursive; an indefinite element's
/// end is scanned ahead before its contents are walked).
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
    print("  walk: BERReader.walk (iterative, one pass); withContents: readExtent + withContents, recursive")
    print(pad("input", 40) + pad("elements", 10, right: true) + pad("walk", 12, right: true)
          + pad("withContents", 14, right: true) + pad("OpenSSL", 12, right: true)
          + pad("walk ×", 9, right: true) + pad("wC ×", 9, right: true))
    for (name, bytes) in inputs {
        // Checked once, untimed: both walks find the same extents, and as many
        // elements as OpenSSL.
        var ours: WalkSummary? = WalkSummary()
        var nested: WalkSummary? = WalkSummary()
        do { try walk(bytes) { ours?.add($0) } } catch { ours = nil }
        do { try walkWithContents(bytes) { nested?.add($0) } } catch { nested = nil }
        let theirs = bytes.withUnsafeBufferPointer { rf_asn1_walk($0.baseAddress, $0.count) }
        guard let ours, let nested, ours.count == theirs, ours == nested else {
            print("\(name): walks disagree (walk \(String(describing: ours)), withContents \(String(describing: nested)), "
                  + "OpenSSL \(theirs) elements); not timed")
            continue
        }
        // Timed: each side counts the elements it walks, nothing more (`rf_asn1_walk`
        // does the same with what `ASN1_get_object` returns).
        let oursTime = nanosecondsPerCall { blackHole(try? countByWalk(bytes)) }
        let nestedTime = nanosecondsPerCall { blackHole(try? countByWithContents(bytes)) }
        let theirsTime = nanosecondsPerCall {
            blackHole(bytes.withUnsafeBufferPointer { rf_asn1_walk($0.baseAddress, $0.count) })
        }
        print(pad(name, 40) + pad(String(ours.count), 10, right: true) + pad(formatDuration(oursTime), 12, right: true)
              + pad(formatDuration(nestedTime), 14, right: true) + pad(formatDuration(theirsTime), 12, right: true)
              + pad(String(format: "%.2f×", theirsTime / oursTime), 9, right: true)
              + pad(String(format: "%.2f×", theirsTime / nestedTime), 9, right: true))
    }
}

/// What a walk found, to compare the walks: the element count and a sum over every
/// element's tag, contents range and end (a sum, since `walk` visits an
/// indefinite-length element after its children).
struct WalkSummary: Equatable {
    var count = 0
    var checksum = 0

    mutating func add(_ extent: BERExtent) {
        count &+= 1
        checksum &+= extent.contentsRange.lowerBound &* 3 &+ extent.contentsRange.upperBound &* 5
            &+ extent.end &* 7 &+ Int(extent.tag.number) &* 11
            &+ (extent.tag.isConstructed ? 13 : 0) &+ Int(extent.tag.tagClass.rawValue) &* 17
    }
}

/// The timed bodies: count the elements (the visitor written in place, so it is
/// inlined into the walk as a caller's code would be).
@inline(never)
func countByWalk(_ bytes: [UInt8]) throws(BERError) -> Int {
    var reader = BERReader(bytes, rules: .ber)
    var count = 0
    try reader.walk { (_) throws(BERError) in count &+= 1 }
    return count
}

@inline(never)
func countByWithContents(_ bytes: [UInt8]) throws(BERError) -> Int {
    var reader = BERReader(bytes, rules: .ber)
    var count = 0
    try countDescending(&reader, &count)
    return count
}

func countDescending(_ reader: inout BERReader, _ count: inout Int) throws(BERError) {
    while !reader.isAtEnd {
        let extent = try reader.readExtent()
        count &+= 1
        if extent.tag.isConstructed {
            try reader.withContents(of: extent) { (inner: inout BERReader) throws(BERError) in
                try countDescending(&inner, &count)
            }
        }
    }
}

/// Every element, with the generic iterative walk.

func walk(_ bytes: [UInt8], _ visit: (BERExtent) -> Void) throws(BERError) {
    var reader = BERReader(bytes, rules: .ber)
    try reader.walk { (extent) throws(BERError) in visit(extent) }
}

/// Every element, written as schema-driven code would be (extents, and
/// `withContents` to descend).

func walkWithContents(_ bytes: [UInt8], _ visit: (BERExtent) -> Void) throws(BERError) {
    var reader = BERReader(bytes, rules: .ber)
    try descend(&reader, visit)
}

func descend(_ reader: inout BERReader, _ visit: (BERExtent) -> Void) throws(BERError) {
    while !reader.isAtEnd {
        let extent = try reader.readExtent()
        visit(extent)
        if extent.tag.isConstructed {
            try reader.withContents(of: extent) { (inner: inout BERReader) throws(BERError) in
                try descend(&inner, visit)
            }
        }
    }
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
