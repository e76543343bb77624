import BER
import Receipt
import ForgeSupport
import ReceiptForge

/// Structure-aware mutation of receipts, at the ASN.1 and the receipt level: drop,
/// duplicate, reorder, insert and retype attributes; change their values, versions,
/// string types and date strings; nest or flatten in-app records; switch between
/// definite and indefinite, short and long length forms; change the container's
/// layout, digest and certificate order; splice attributes across receipts.
///
/// One engine, two callers: the libFuzzer custom mutator of the `receipt` and
/// `verifier` targets and `forge mutate`. Every draw comes from a
/// `DeterministicRandom`, so a seed gives the same mutants on every platform. The
/// mutants are encoded again by `MutableReceipt` and signed with the forge's keys,
/// so a validator sees a valid signature over a changed payload.
public struct ReceiptMutator: Sendable {
    /// What one operation did: its name (`drop`, `retype`, `date`, …), where
    /// (`attributes[3]`, `attributes[20].value.attributes[4]`), and the details.
    public struct Change: Sendable, Hashable, Codable {
        public var operation: Operation
        public var path: String
        public var detail: String
    }

    /// The kinds of change (`mutation.json`'s `operation`).
    public enum Operation: String, Sendable, Hashable, Codable, CaseIterable {
        case drop, duplicate, reorder, insert, retype, version
        case stringType = "string-type"
        case value, nest, flatten, encoding, container, splice
        case spliceEncoding = "splice-encoding"
    }

    /// Deepest in-app nesting the mutator builds (the verifier refuses deep BER anyway).
    package static let maximumNesting = 4

    public init() {}

    // MARK: Entry points

    /// Applies `count` operations to `receipt` and reports them in order.
    public func mutate(_ receipt: inout MutableReceipt, operations count: Int,
                       random: inout DeterministicRandom) -> [Change] {
        var changes: [Change] = []
        for _ in 0..<max(1, count) {
            changes.append(mutateOnce(&receipt, random: &random))
        }
        return changes
    }

    /// Splices `other` into `receipt`: a run of its top-level attributes inserted, one
    /// of its in-app records swapped in, or its encoding taken over.
    public func crossOver(_ receipt: inout MutableReceipt, with other: MutableReceipt,
                          random: inout DeterministicRandom) -> Change {
        let theirs = other.receipt.attributes
        guard !theirs.isEmpty else { return mutateOnce(&receipt, random: &random) }
        switch random.int(in: 0..<4) {
        case 0, 1:
            let start = random.int(in: 0..<theirs.count)
            let end = random.int(in: (start + 1)...min(theirs.count, start + 8))
            let at = random.int(in: 0...receipt.receipt.attributes.count)
            receipt.receipt.attributes.insert(contentsOf: theirs[start..<end], at: at)
            return Change(operation: .splice, path: "attributes[\(at)]",
                          detail: "inserted \(end - start) attribute(s) of the other receipt (types \(theirs[start..<end].map { String($0.type) }.joined(separator: ", ")))")
        case 2:
            let mine = receipt.receipt.attributes.indices.filter { receipt.receipt.attributes[$0].type == AppReceipt.Field.inAppPurchase }
            let donors = theirs.filter { $0.type == AppReceipt.Field.inAppPurchase }
            guard let donor = pick(donors, &random) else { return mutateOnce(&receipt, random: &random) }
            if let index = pick(mine, &random) {
                receipt.receipt.attributes[index] = donor
                return Change(operation: .splice, path: "attributes[\(index)]", detail: "in-app record replaced by one of the other receipt")
            }
            receipt.receipt.attributes.append(donor)
            return Change(operation: .splice, path: "attributes[\(receipt.receipt.attributes.count - 1)]",
                          detail: "in-app record of the other receipt appended")
        default:
            receipt.encoding = other.encoding
            if let container = other.container, receipt.container != nil { receipt.container = container }
            return Change(operation: .spliceEncoding, path: "payload", detail: "took the other receipt's encoding: \(other.encoding.summary)")
        }
    }

    // MARK: One operation

    package func mutateOnce(_ receipt: inout MutableReceipt, random: inout DeterministicRandom) -> Change {
        let roll = random.int(in: 0..<100)
        if roll < 8 { return mutateEncoding(&receipt, random: &random) }
        if roll < 13, receipt.container != nil { return mutateContainer(&receipt, random: &random) }
        if roll < 20 { return nestOrFlatten(&receipt, random: &random) }
        // Attribute level: the payload's own set, or an in-app record inside it (often
        // where validators' deeper logic lives).
        var attributes = receipt.receipt.attributes
        let inApp = attributes.indices.filter { attributes[$0].type == AppReceipt.Field.inAppPurchase }
        if let index = pick(inApp, &random), random.int(in: 0..<2) == 0,
           var record = try? InAppPurchase(decoding: attributes[index].value, rules: .ber) {
            var change = mutateSet(&record.attributes, kinds: InAppPurchase.valueKindTable,
                                   knownTypes: InAppPurchase.knownValueKinds.keys.sorted(), random: &random)
            attributes[index].value = receipt.encodedValue(record)
            change.path = "attributes[\(index)].value." + change.path
            receipt.receipt.attributes = attributes
            return change
        }
        let change = mutateSet(&attributes, kinds: AppReceipt.valueKindTable,
                               knownTypes: AppReceipt.knownValueKinds.keys.sorted(), random: &random)
        receipt.receipt.attributes = attributes
        return change
    }

    /// One operation on a `SET OF ReceiptAttribute`.
    package func mutateSet(_ attributes: inout [ReceiptAttribute], kinds: AttributeValueKindTable, knownTypes: [Int64],
                   random: inout DeterministicRandom) -> Change {
        guard !attributes.isEmpty else {
            let attribute = newAttribute(knownTypes: knownTypes, kinds: kinds, random: &random)
            attributes.append(attribute)
            return Change(operation: .insert, path: "attributes[0]", detail: "type \(attribute.type) into an empty set")
        }
        let index = random.int(in: 0..<attributes.count)
        let type = attributes[index].type
        let path = "attributes[\(index)]"
        switch random.int(in: 0..<20) {
        case 0, 1:
            attributes.remove(at: index)
            return Change(operation: .drop, path: path, detail: "removed type \(type)")
        case 2:
            let at = random.int(in: 0...attributes.count)
            attributes.insert(attributes[index], at: at)
            return Change(operation: .duplicate, path: path, detail: "type \(type) copied to position \(at)")
        case 3:
            let other = random.int(in: 0..<attributes.count)
            attributes.swapAt(index, other)
            return Change(operation: .reorder, path: path, detail: "swapped with attributes[\(other)]")
        case 4:
            attributes.reverse()
            return Change(operation: .reorder, path: "attributes", detail: "reversed the order of \(attributes.count) attributes")
        case 5:
            let attribute = newAttribute(knownTypes: knownTypes, kinds: kinds, random: &random)
            let at = random.int(in: 0...attributes.count)
            attributes.insert(attribute, at: at)
            return Change(operation: .insert, path: "attributes[\(at)]", detail: "new attribute of type \(attribute.type)")
        case 6, 7:
            let newType = retype(type, knownTypes: knownTypes, random: &random)
            attributes[index].type = newType
            return Change(operation: .retype, path: path + ".type", detail: "\(type) → \(newType)")
        case 8:
            let old = attributes[index].version
            let new = interestingInteger(&random)
            attributes[index].version = new
            return Change(operation: .version, path: path + ".version", detail: "\(old) → \(new)")
        case 9:
            let tag = pick(Self.stringTags, &random)!
            guard let contents = primitiveContents(attributes[index].value) else {
                attributes[index].value = encoded(tag, attributes[index].value)
                return Change(operation: .stringType, path: path + ".value", detail: "raw value wrapped as \(tag)")
            }
            attributes[index].value = encoded(tag, contents)
            return Change(operation: .stringType, path: path + ".value", detail: "retagged as \(tag)")
        default:
            let (value, detail) = newValue(for: attributes[index], kind: kinds[type], random: &random)
            attributes[index].value = value
            return Change(operation: .value, path: path + ".value", detail: "type \(type): \(detail)")
        }
    }

    // MARK: Values

    /// A changed value for `attribute`, shaped by what its type holds.
    package func newValue(for attribute: ReceiptAttribute, kind: AttributeValueKind?,
                  random: inout DeterministicRandom) -> ([UInt8], String) {
        switch kind {
        case .integer?:
            let value = interestingInteger(&random)
            if random.int(in: 0..<6) == 0 {
                // Not minimal: a leading zero octet (BER-legal to read, not DER).
                var contents: [UInt8] = [0]
                var writer = BERWriter()
                writer.appendInteger(value)
                contents += writer.bytes.dropFirst(2)
                return (encoded(.integer, contents), "INTEGER \(value) with a leading zero octet")
            }
            var writer = BERWriter()
            writer.appendInteger(value)
            return (writer.bytes, "INTEGER \(value)")
        case .date?:
            let text = dateText(from: attribute.value, random: &random)
            return (encoded(.ia5String, Array(text.utf8)), "date '\(text)'")
        case .utf8String?, .ia5String?:
            let current = primitiveContents(attribute.value) ?? []
            let text = newString(from: current, random: &random)
            let tag: BERTag = kind == .ia5String ? .ia5String : .utf8String
            return (encoded(tag, text), "\(tag) of \(text.count) byte(s)")
        case .inAppPurchase?:
            var record = (try? InAppPurchase(decoding: attribute.value, rules: .ber)) ?? InAppPurchase()
            let change = mutateSet(&record.attributes, kinds: InAppPurchase.valueKindTable,
                                   knownTypes: InAppPurchase.knownValueKinds.keys.sorted(), random: &random)
            return (record.encoded(), "in-app record: \(change.operation.rawValue) \(change.path) (\(change.detail))")
        case .raw?, nil:
            var bytes = attribute.value
            switch random.int(in: 0..<5) {
            case 0 where !bytes.isEmpty:
                let at = random.int(in: 0..<bytes.count)
                bytes[at] ^= UInt8(1 << random.int(in: 0..<8))
                return (bytes, "bit flipped at byte \(at)")
            case 1 where !bytes.isEmpty:
                let keep = random.int(in: 0..<bytes.count)
                return (Array(bytes.prefix(keep)), "truncated to \(keep) byte(s)")
            case 2:
                return ([], "emptied")
            case 3:
                var writer = BERWriter()
                writer.appendInteger(interestingInteger(&random))
                return (writer.bytes, "replaced by an INTEGER")
            default:
                let count = pick([1, 8, 16, 20, 33, 200], &random)!
                return (random.bytes(count), "\(count) random byte(s)")
            }
        }
    }

    package static let stringTags: [BERTag] = [.utf8String, .ia5String, .printableString, .octetString, .bmpString,
                                       .t61String, .visibleString, .universalString, .integer, .null]

    /// Integers validators meet at the edges.
    package func interestingInteger(_ random: inout DeterministicRandom) -> Int64 {
        let values: [Int64] = [0, 1, -1, 2, 3, 4, 127, 128, 255, 256, 1701, 0x7FFF, 0x8000, 0x7FFF_FFFF,
                               0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000, .max, .min]
        return random.int(in: 0..<4) == 0 ? Int64(bitPattern: random.next()) : pick(values, &random)!
    }

    /// A date string: the current one moved (to the second, the day, the year; in
    /// another offset or precision), or one of the texts validators get wrong.
    package func dateText(from value: [UInt8], random: inout DeterministicRandom) -> String {
        let current = primitiveContents(value).flatMap { String(validating: $0, as: UTF8.self) }.flatMap(ReceiptDate.init)
        let hostile = ["", "2026-13-01T00:00:00Z", "2026-02-30T12:00:00Z", "2026-05-02 14:23:53", "2026-05-02T24:00:00Z",
                       "2016-12-31T23:59:60Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-05-02T14:23:53",
                       "2026-05-02t14:23:53z", "2026-05-02T14:23:53.Z", "2026-05-02T14:23:53+25:00",
                       "2026-05-02T14:23:53.1234567890Z", "1970-01-01T00:00:00Z", "not a date", "2026-05-02",
                       "+2026-05-02T14:23:53Z", "2026-05-02T14:23:53-00:00", "2038-01-19T03:14:08Z"]
        guard let current, random.int(in: 0..<3) != 0 else { return pick(hostile, &random)! }
        let shifts: [Int64] = [-1, 1, -86_400, 86_400, -30 * 86_400, 30 * 86_400, -366 * 86_400, 366 * 86_400,
                               -100 * 366 * 86_400, 100 * 366 * 86_400]
        let seconds = current.secondsSince1970 + pick(shifts, &random)!
        let offset = pick([nil, 0, 60, -480, 9 * 60 + 30, 14 * 60, -(12 * 60)], &random)!
        let digits = pick([0, 0, 3, 6, 9], &random)!
        return ReceiptDate(secondsSince1970: seconds, nanoseconds: digits == 0 ? 0 : 123_456_789,
                           fractionDigits: digits, utcOffsetMinutes: offset).text
    }

    /// A string's bytes changed: emptied, lengthened, one character changed, made
    /// non-ASCII, given a NUL or a trailing dot, or random.
    package func newString(from current: [UInt8], random: inout DeterministicRandom) -> [UInt8] {
        var bytes = current
        switch random.int(in: 0..<8) {
        case 0: return []
        case 1: return bytes + Array(".".utf8)
        case 2: return bytes + [0]
        case 3: return bytes + Array("é".utf8)
        case 4: return Array(repeating: 0x41, count: pick([64, 255, 256, 1000], &random)!)
        case 5 where !bytes.isEmpty:
            bytes[random.int(in: 0..<bytes.count)] ^= 0x20
            return bytes
        case 6: return Array(bytes.prefix(max(0, bytes.count - 1)))
        default: return random.bytes(random.int(in: 1...24))
        }
    }

    // MARK: Types

    /// Another type: a known one, a neighbour, or one at an integer edge.
    package func retype(_ type: Int64, knownTypes: [Int64], random: inout DeterministicRandom) -> Int64 {
        switch random.int(in: 0..<4) {
        case 0, 1: return pick(knownTypes, &random)!
        case 2: return type &+ (random.int(in: 0..<2) == 0 ? 1 : -1)
        default: return pick([-1, 0, 17, 1701, 0x7FFF_FFFF, 0x8000_0000, .max, .min], &random)!
        }
    }

    /// A fresh attribute of a known type with a well-formed value.
    package func newAttribute(knownTypes: [Int64], kinds: AttributeValueKindTable, random: inout DeterministicRandom) -> ReceiptAttribute {
        let type = pick(knownTypes, &random)!
        switch kinds[type] {
        case .integer?: return .integer(type, interestingInteger(&random))
        case .date?: return .date(type, ReceiptDate(secondsSince1970: Int64(random.int(in: 0..<4_000_000_000))))
        case .utf8String?: return .utf8String(type, "com.example.receiptforge")
        case .ia5String?: return .ia5String(type, "4+")
        case .inAppPurchase?:
            return ReceiptAttribute(type: type, value: InAppPurchase(attributes: [.integer(InAppPurchase.Field.quantity, 1)]).encoded())
        case .raw?, nil: return .raw(type, random.bytes(16))
        }
    }

    // MARK: Structure

    /// Nests an in-app record inside another (or inside itself), or flattens one: its
    /// attributes hoisted into the payload's own set.
    package func nestOrFlatten(_ receipt: inout MutableReceipt, random: inout DeterministicRandom) -> Change {
        var attributes = receipt.receipt.attributes
        let inApp = attributes.indices.filter { attributes[$0].type == AppReceipt.Field.inAppPurchase }
        guard let index = pick(inApp, &random), let record = try? InAppPurchase(decoding: attributes[index].value, rules: .ber) else {
            return mutateEncoding(&receipt, random: &random)
        }
        if random.int(in: 0..<2) == 0 {
            attributes.replaceSubrange(index...index, with: record.attributes)
            receipt.receipt.attributes = attributes
            return Change(operation: .flatten, path: "attributes[\(index)]",
                          detail: "in-app record's \(record.attributes.count) attributes hoisted into the payload")
        }
        let host = pick(inApp, &random)!
        guard var hostRecord = try? InAppPurchase(decoding: attributes[host].value, rules: .ber),
              nesting(of: attributes[host].value) < Self.maximumNesting else {
            return mutateEncoding(&receipt, random: &random)
        }
        hostRecord.attributes.insert(ReceiptAttribute(type: AppReceipt.Field.inAppPurchase, value: attributes[index].value),
                                     at: random.int(in: 0...hostRecord.attributes.count))
        attributes[host].value = receipt.encodedValue(hostRecord)
        receipt.receipt.attributes = attributes
        return Change(operation: .nest, path: "attributes[\(host)].value",
                      detail: "in-app record attributes[\(index)] nested inside it as an attribute 17")
    }

    /// How deep attribute-17 records are nested in a value.
    package func nesting(of value: [UInt8]) -> Int {
        guard let record = try? InAppPurchase(decoding: value, rules: .ber) else { return 0 }
        return 1 + (record.attributes.filter { $0.type == AppReceipt.Field.inAppPurchase }.map { nesting(of: $0.value) }.max() ?? 0)
    }

    /// New length forms or SET order for the payload; in-app records re-encoded with them.
    package func mutateEncoding(_ receipt: inout MutableReceipt, random: inout DeterministicRandom) -> Change {
        var encoding = receipt.encoding
        switch random.int(in: 0..<3) {
        case 0: encoding.constructed = pick([.minimal, .indefinite, .longForm(octets: 4), .longForm(octets: 8)], &random)!
        case 1: encoding.primitive = pick([.minimal, .longForm(octets: 2), .longForm(octets: 4), .longForm(octets: 8)], &random)!
        default: encoding.order = encoding.order == .sorted ? .asWritten : .sorted
        }
        receipt.encoding = encoding
        var attributes = receipt.receipt.attributes
        for index in attributes.indices where attributes[index].type == AppReceipt.Field.inAppPurchase {
            if let record = try? InAppPurchase(decoding: attributes[index].value, rules: .ber) {
                attributes[index].value = receipt.encodedValue(record)
            }
        }
        receipt.receipt.attributes = attributes
        return Change(operation: .encoding, path: "payload", detail: encoding.summary)
    }

    /// Another container layout, digest or certificate order (signature still valid).
    package func mutateContainer(_ receipt: inout MutableReceipt, random: inout DeterministicRandom) -> Change {
        var container = receipt.container ?? MutableReceipt.Container()
        let detail: String
        switch random.int(in: 0..<3) {
        case 0:
            container.layout = pick(ReceiptSigner.Layout.allCases, &random)!
            detail = "layout \(container.layout.rawValue)"
        case 1:
            let (digest, algorithm) = pick([(DigestAlgorithm.sha1, OID.rsaEncryption), (.sha256, .rsaEncryption),
                                            (.sha256, .sha256WithRSAEncryption)], &random)!
            (container.digest, container.signatureAlgorithm) = (digest, algorithm)
            detail = "signed with \(digest.rawValue), signature algorithm \(algorithm.shortName ?? algorithm.description)"
        default:
            container.reversedChain.toggle()
            detail = container.reversedChain ? "certificates root first" : "certificates leaf first"
        }
        receipt.container = container
        return Change(operation: .container, path: "container", detail: detail)
    }

    // MARK: Helpers

    /// The contents of a primitive TLV (`value` holding exactly one), or nil.
    package func primitiveContents(_ value: [UInt8]) -> [UInt8]? {
        var reader = BERReader(value, rules: .ber)
        guard let element = try? reader.readElement(), reader.isAtEnd, !element.tag.isConstructed else { return nil }
        return Array(element.contents)
    }

    package func encoded(_ tag: BERTag, _ contents: [UInt8]) -> [UInt8] {
        var writer = BERWriter()
        writer.appendPrimitive(tag, contents: contents)
        return writer.bytes
    }

    package func pick<T>(_ values: [T], _ random: inout DeterministicRandom) -> T? {
        values.isEmpty ? nil : values[random.int(in: 0..<values.count)]
    }
}
