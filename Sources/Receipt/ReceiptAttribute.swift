import BER

/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`
/// exactly as received: the value's bytes are kept raw (usually a complete DER TLV;
/// raw bytes for types 4, 5, 6, 7), so decode → encode reproduces the payload.
public struct ReceiptAttribute: Hashable, Sendable {
    /// The attribute type number (see `AppReceipt.Field` and `InAppPurchase.Field`).
    public var type: Int64
    /// The attribute version, kept so re-encoding is lossless.
    public var version: Int64
    /// The OCTET STRING's contents as received: usually a DER element, raw bytes for types 4-7.
    public var value: [UInt8]

    /// An attribute with a value already encoded.
    public init(type: Int64, version: Int64 = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }

    // MARK: Building values as Apple writes them

    /// A value holding a DER UTF8String.
    public static func utf8String(_ type: Int64, _ text: String, version: Int64 = 1) -> ReceiptAttribute {
        var writer = BERWriter()
        writer.appendUTF8String(text)
        return ReceiptAttribute(type: type, version: version, value: writer.bytes)
    }

    /// A value holding a DER IA5String. Precondition: ASCII.
    public static func ia5String(_ type: Int64, _ text: String, version: Int64 = 1) -> ReceiptAttribute {
        var writer = BERWriter()
        writer.appendIA5String(text)
        return ReceiptAttribute(type: type, version: version, value: writer.bytes)
    }

    /// A value holding a DER INTEGER.
    public static func integer(_ type: Int64, _ value: Int64, version: Int64 = 1) -> ReceiptAttribute {
        var writer = BERWriter()
        writer.appendInteger(value)
        return ReceiptAttribute(type: type, version: version, value: writer.bytes)
    }

    /// A date as an IA5String; nil writes the empty string Apple uses for "absent".
    public static func date(_ type: Int64, _ date: ReceiptDate?, version: Int64 = 1) -> ReceiptAttribute {
        ia5String(type, date?.text ?? "", version: version)
    }

    /// Raw bytes, not wrapped in a TLV (attributes 4 and 5).
    public static func raw(_ type: Int64, _ bytes: [UInt8], version: Int64 = 1) -> ReceiptAttribute {
        ReceiptAttribute(type: type, version: version, value: bytes)
    }
}

/// What a known attribute's value holds; checked when a payload is decoded, so the
/// typed accessors of a decoded receipt never meet a malformed value.
public enum AttributeValueKind: Sendable {
    /// A DER UTF8String, IA5String or INTEGER; an IA5String date (empty for absent); raw bytes; or a nested in-app purchase SET.
    case utf8String, ia5String, integer, date, raw, inAppPurchase
}

/// The `SET OF ReceiptAttribute` both the payload and every in-app purchase record
/// are made of. `AppReceipt` and `InAppPurchase` are typed views over one of these.
public protocol ReceiptAttributeSet: Hashable, Sendable {
    /// Every attribute, in the order received (or to be written).
    var attributes: [ReceiptAttribute] { get set }
    /// A set made of `attributes`, kept as given.
    init(attributes: [ReceiptAttribute])
    /// The value kinds of the known attribute types; others are kept raw, unchecked.
    static var knownValueKinds: [Int64: AttributeValueKind] { get }
    /// `knownValueKinds` as the decoder looks it up, once per attribute. The default
    /// builds it on every call: conforming types store it (`static let`).
    static var valueKindTable: AttributeValueKindTable { get }
}

/// A `[type: kind]` map as an array indexed by type − lowest type (the known types
/// of a set are a short run: 0…21, 1701…1721), so a lookup is a range check and a
/// load instead of hashing.
public struct AttributeValueKindTable: Sendable {
    private let lowest: Int64
    private let kinds: [AttributeValueKind?]
    /// Types spread too far for an array (not the case for receipts) stay in a dictionary.
    private let spread: [Int64: AttributeValueKind]

    /// A table of `kinds`.
    public init(_ kinds: [Int64: AttributeValueKind]) {
        let lowest = kinds.keys.min() ?? 0, highest = kinds.keys.max() ?? -1
        let (range, overflow) = highest.subtractingReportingOverflow(lowest)
        if highest >= lowest, !overflow, range <= 4096 {
            var table = [AttributeValueKind?](repeating: nil, count: Int(highest - lowest) + 1)
            for (type, kind) in kinds { table[Int(type - lowest)] = kind }
            self.lowest = lowest
            self.kinds = table
            self.spread = [:]
        } else {
            self.lowest = 0
            self.kinds = []
            self.spread = kinds
        }
    }

    /// The kind of values `type` holds, or nil for a type the set does not know.
    public subscript(type: Int64) -> AttributeValueKind? {
        let (index, overflow) = type.subtractingReportingOverflow(lowest)
        if !overflow, index >= 0, index < kinds.count { return kinds[Int(index)] }
        return spread.isEmpty ? nil : spread[type]
    }
}

extension ReceiptAttributeSet {
    /// Builds the table from `knownValueKinds` on each call; conforming types store their own.
    public static var valueKindTable: AttributeValueKindTable { AttributeValueKindTable(knownValueKinds) }

    /// Decodes a `SET OF ReceiptAttribute` filling `bytes` (BER by default, as in real
    /// receipts) and checks the value of every known attribute type. Errors carry byte
    /// offsets into `bytes`' indices and a path such as `attributes[12].value`.
    public init(decoding bytes: ArraySlice<UInt8>, rules: BERRules = .ber) throws(BERError) {
        var attributes: [ReceiptAttribute] = []
        try Self.forEachAttribute(in: bytes, rules: rules) { type, version, value in
            attributes.append(ReceiptAttribute(type: type, version: version, value: Array(value)))
        }
        self.init(attributes: attributes)
    }

    /// Walks a `SET OF ReceiptAttribute` filling `bytes`, checks the value of every
    /// known attribute type, and hands each attribute's type, version and value (a
    /// slice of `bytes`) to `body`. Decoding builds the model from it; checking a
    /// nested in-app record uses it without building anything.
    static func forEachAttribute(
        in bytes: ArraySlice<UInt8>, rules: BERRules,
        _ body: (_ type: Int64, _ version: Int64, _ value: ArraySlice<UInt8>) -> Void
    ) throws(BERError) {
        var reader = BERReader(bytes, rules: rules)
        let knownValueKinds = Self.valueKindTable  // once, not per attribute
        var index = 0
        try reader.readSet { (set: inout BERReader) throws(BERError) in
            while !set.isAtEnd {
                try withBERPath("attributes[\(index)]") { () throws(BERError) in
                    try set.readSequence { (fields: inout BERReader) throws(BERError) in
                        let type = try withBERPath("type") { () throws(BERError) in try fields.readInt64() }
                        let version = try withBERPath("version") { () throws(BERError) in try fields.readInt64() }
                        let value = try withBERPath("value") { () throws(BERError) -> ArraySlice<UInt8> in
                            let value = try fields.readOctetString()
                            if let kind = knownValueKinds[type] {
                                try Self.checkValue(value, kind: kind, rules: rules)
                            }
                            return value
                        }
                        body(type, version, value)
                    }
                }
                index += 1
            }
        }
        try reader.finish()
    }

    /// Decodes from a byte array (see `init(decoding:rules:)`).
    public init(decoding bytes: [UInt8], rules: BERRules = .ber) throws(BERError) {
        try self.init(decoding: bytes[...], rules: rules)
    }

    static func checkValue(_ value: ArraySlice<UInt8>, kind: AttributeValueKind, rules: BERRules) throws(BERError) {
        var reader = BERReader(value, rules: rules)
        switch kind {
        case .raw:
            return
        case .utf8String:
            _ = try reader.readUTF8StringBytes()
        case .ia5String:
            _ = try reader.readIA5StringBytes()
        case .integer:
            _ = try reader.readInt64()
        case .date:
            let offset = reader.offset
            let text = try reader.readStringBytes(.ia5String)
            if !text.isEmpty { _ = try ReceiptDate(rfc3339: text, offset: offset) }
        case .inAppPurchase:
            try InAppPurchase.forEachAttribute(in: value, rules: rules) { _, _, _ in }
            return
        }
        try reader.finish()
    }

    // MARK: Encoding

    /// Writes the SET with `writer`'s length forms. `.asWritten` keeps the attribute
    /// order (Xcode receipts); `.sorted` gives DER SET OF order (App Store receipts).
    public func encode(into writer: inout BERWriter, order: BERWriter.SetOrder = .asWritten) {
        writer.appendSet(order: order, elements: attributes.map { attribute in
            { (inner: inout BERWriter) in
                inner.appendSequence { fields in
                    fields.appendInteger(attribute.type)
                    fields.appendInteger(attribute.version)
                    fields.appendOctetString(attribute.value)
                }
            }
        })
    }

    /// The DER encoding (attribute order kept unless `order` is `.sorted`).
    public func encoded(order: BERWriter.SetOrder = .asWritten) -> [UInt8] {
        var writer = BERWriter()
        encode(into: &writer, order: order)
        return writer.bytes
    }

    // MARK: Typed access

    /// The first attribute of `type`.
    public func attribute(_ type: Int64) -> ReceiptAttribute? {
        attributes.first { $0.type == type }
    }

    /// Attributes whose type this model does not know, kept raw.
    public var unknownAttributes: [ReceiptAttribute] {
        attributes.filter { Self.knownValueKinds[$0.type] == nil }
    }

    /// Replaces the first attribute of its type in place (keeping the order) and drops
    /// any other of that type, or appends it; nil removes every attribute of `type`.
    public mutating func replace(_ type: Int64, with attribute: ReceiptAttribute?) {
        guard let attribute else {
            attributes.removeAll { $0.type == type }
            return
        }
        if let index = attributes.firstIndex(where: { $0.type == type }) {
            attributes[index] = attribute
            var position = attributes.index(after: index)
            while position < attributes.endIndex {
                if attributes[position].type == type { attributes.remove(at: position) } else { position += 1 }
            }
        } else {
            attributes.append(attribute)
        }
    }

    func string(_ type: Int64, tag: BERTag) -> String? {
        guard let value = attribute(type)?.value else { return nil }
        var reader = BERReader(value, rules: .ber)
        if tag == .ia5String { return try? reader.readIA5String() }
        return try? reader.readUTF8String()
    }

    func integer(_ type: Int64) -> Int64? {
        guard let value = attribute(type)?.value else { return nil }
        var reader = BERReader(value, rules: .ber)
        return try? reader.readInt64()
    }

    /// nil when absent or empty (Apple writes "" for "no date").
    func date(_ type: Int64) -> ReceiptDate? {
        guard let value = attribute(type)?.value else { return nil }
        var reader = BERReader(value, rules: .ber)
        guard let text = try? reader.readStringBytes(.ia5String), !text.isEmpty else { return nil }
        return try? ReceiptDate(rfc3339: text)
    }
}
