import BER
import Receipt

/// An X.509 `Name` (RFC 5280 §4.1.2.4): the raw encoding as received, plus its
/// relative distinguished names decoded for display and comparison.
///
/// Matching (`matches(_:)`), the rule chain building uses to pair a certificate's
/// issuer with a candidate's subject: equal raw bytes match; otherwise the names
/// match when they have the same RDNs, each with the same attribute types, and each
/// value equal after the canonical form OpenSSL compares (`X509_NAME_cmp`, after RFC
/// 5280 §7.1): the string types it converts (UTF8String, PrintableString, TeletexString
/// as Latin-1, IA5String, BMPString, UniversalString) compared as text, whatever the
/// type, with ASCII whitespace trimmed and inner runs collapsed to one space and ASCII
/// letters lowercased; values of other types (NumericString, SEQUENCE) compared as
/// type and bytes. Multi-valued RDNs compare as sets.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    /// One `AttributeTypeAndValue`.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's type (`commonName`, `organizationName`, …).
        public let type: OID
        /// The value's whole encoding (tag, length, contents) as received.
        public let encodedValue: ArraySlice<UInt8>
        /// The value decoded, for the string types above; nil for any other type.
        public let text: String?
    }

    /// The Name's whole encoding as received.
    public let encoded: ArraySlice<UInt8>
    /// `RDNSequence`: each element one `RelativeDistinguishedName`, in encoding order.
    public let relativeNames: [[Attribute]]

    /// How much of a Name is checked.
    enum Strictness {
        /// RFC 5280: every RDN holds an attribute; PrintableString and IA5String values
        /// hold only their types' characters.
        case rfc5280
        /// What `d2i_X509` checks (`CertificateSyntax`): an RDN may be empty; the
        /// RDNSequence and each RDN (a SEQUENCE OF and a SET OF) may be primitive, a bit
        /// OpenSSL's decoder never checks there; only the strings OpenSSL converts to
        /// compare names must convert (UTF-8, BMPString and UniversalString units);
        /// PrintableString and IA5String values are read as Latin-1, as OpenSSL reads them.
        case syntax
    }

    /// Parses a Name element. `path` names it in errors.
    init(_ element: BERElement, path: [String], strictness: Strictness = .rfc5280) throws(CertificateError) {
        self.encoded = element.encodedBytes
        self.relativeNames = try decoding(path) { () throws(BERError) -> [[Attribute]] in
            var names: BERReader
            if strictness == .syntax, element.isSequenceOrSetOf(set: false) {
                names = element.elementsReader()
            } else {
                guard element.tag == .sequence else {
                    throw BERError(.unexpectedTag, at: element.offset, "expected SEQUENCE, found \(element.tag)")
                }
                names = try element.contentsReader()
            }
            var relativeNames: [[Attribute]] = []
            while !names.isAtEnd {
                let rdn = try withBERPath("[\(relativeNames.count)]") { () throws(BERError) -> [Attribute] in
                    func attributes(_ set: inout BERReader) throws(BERError) -> [Attribute] {
                        var attributes: [Attribute] = []
                        if strictness == .syntax && set.isAtEnd { return attributes }
                        repeat {
                            attributes.append(try set.readSequence { (item: inout BERReader) throws(BERError) in
                                try Attribute.read(&item, strictness: strictness)
                            })
                        } while !set.isAtEnd
                        return attributes
                    }
                    if strictness == .syntax, try names.peekTag().map({ $0.tagClass == .universal && $0.number == 17 }) == true {
                        let rdn = try names.readElement()
                        var set = rdn.elementsReader()
                        return try attributes(&set)
                    }
                    return try names.readSet { (set: inout BERReader) throws(BERError) -> [Attribute] in try attributes(&set) }
                }
                relativeNames.append(rdn)
            }
            return relativeNames
        }
    }

    /// The first commonName (2.5.4.3), if it is a string.
    public var commonName: String? {
        for rdn in relativeNames {
            for attribute in rdn where attribute.type == .commonName { return attribute.text }
        }
        return nil
    }

    /// `C=US, O=Apple Inc., CN=…` in encoding order.
    public var description: String {
        relativeNames.map { rdn in
            rdn.map { attribute in
                let value = attribute.text ?? "#" + attribute.encodedValue.map { byte in
                    let hex = String(byte, radix: 16)
                    return byte < 16 ? "0" + hex : hex
                }.joined()
                return "\(DistinguishedName.label(attribute.type))=\(value)"
            }.joined(separator: "+")
        }.joined(separator: ", ")
    }

    /// True if the names are the same (see the type's comment for the rule).
    public func matches(_ other: DistinguishedName) -> Bool {
        if sameBytes(encoded, other.encoded) { return true }
        guard relativeNames.count == other.relativeNames.count else { return false }
        for (mine, theirs) in zip(relativeNames, other.relativeNames) {
            guard mine.count == theirs.count else { return false }
            var unmatched = theirs
            for attribute in mine {
                guard let index = unmatched.firstIndex(where: { attribute.canonicallyEquals($0) }) else { return false }
                unmatched.remove(at: index)
            }
        }
        return true
    }

    static func label(_ type: OID) -> String {
        switch type {
        case .commonName: return "CN"
        case .countryName: return "C"
        case .organizationName: return "O"
        case .organizationalUnitName: return "OU"
        case "2.5.4.7": return "L"
        case "2.5.4.8": return "ST"
        case "1.2.840.113549.1.9.1": return "emailAddress"
        default: return type.description
        }
    }
}

extension DistinguishedName.Attribute {
    /// Universal tags an AttributeValue may have: UTF8String, SEQUENCE, NumericString,
    /// PrintableString, TeletexString, IA5String, UniversalString, BMPString — the
    /// directory string types OpenSSL's `d2i_X509` accepts in a Name (its
    /// `B_ASN1_PRINTABLE` mask, less BIT STRING and the tags it lumps as "unknown").
    /// Every other class and type (Videotex, Graphic, Visible and General strings,
    /// times, integers, context-specific tags …) is refused, as OpenSSL refuses them.
    static let allowedValueTags: Set<UInt32> = [12, 16, 18, 19, 20, 22, 28, 30]

    /// The universal tags `d2i_X509` takes for a value (`X509_NAME_ENTRY`'s
    /// `ASN1_PRINTABLE`: the string types, SEQUENCE, and every tag `ASN1_tag2bit` maps to
    /// `B_ASN1_UNKNOWN`, REAL and RELATIVE-OID among them), for the `syntax` strictness.
    static let syntaxValueTags: Set<UInt32> = [7, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21, 22, 25, 26, 27, 28, 29, 30]

    /// `AttributeTypeAndValue ::= SEQUENCE { type OID, value ANY }`; the value must be
    /// a primitive directory string (see `allowedValueTags`; BMPString an even number
    /// of octets, UniversalString a multiple of four, both holding Unicode scalars, as
    /// OpenSSL checks) or a SEQUENCE, and string values are validated for their type.
    static func read(_ reader: inout BERReader, strictness: DistinguishedName.Strictness) throws(BERError) -> Self {
        let type = try reader.readObjectIdentifier()
        let start = reader.offset
        let text: String?
        let tag = try reader.peekTag()
        // d2i_X509 also takes a string in constructed form (its segments collected).
        guard let tag, tag.tagClass == .universal,
              (strictness == .syntax ? syntaxValueTags : allowedValueTags).contains(tag.number),
              tag.isConstructed == (tag.number == 16) || (strictness == .syntax && tag.isConstructed) else {
            throw BERError(.unexpectedTag, at: start,
                           "an AttributeValue must be a primitive directory string or a SEQUENCE, found \(tag.map { "\($0)" } ?? "nothing")")
        }
        switch tag {
        case .printableString where strictness == .rfc5280: text = try reader.readPrintableString()
        case .utf8String: text = try reader.readUTF8String()
        case .ia5String where strictness == .rfc5280: text = try reader.readIA5String()
        default:
            let element = try reader.readElement()
            let contents = tag.number == 16 ? Array(element.contents) : try OpenSSLAny.collect(element)
            let unit = tag.number == 30 ? 2 : tag.number == 28 ? 4 : 1
            guard contents.count % unit == 0 else {
                throw BERError(.unexpectedTag, at: start, "\(tag) of \(contents.count) octets, not a multiple of \(unit)")
            }
            switch tag.number {
            case 12:  // a constructed UTF8String (a primitive one is read above)
                guard let decoded = String(validating: contents, as: UTF8.self) else {
                    throw BERError(.invalidString, at: start, "\(tag) is not UTF-8")
                }
                text = decoded
            case 19, 20, 22:  // Printable, Teletex and IA5 strings, which OpenSSL reads as Latin-1
                text = String(String.UnicodeScalarView(contents.map { Unicode.Scalar($0) }))
            case 28, 30:
                // BMPString (UCS-2) and UniversalString (UCS-4) units must be Unicode
                // scalars, as OpenSSL checks when it converts Name values to UTF-8.
                var scalars = String.UnicodeScalarView()
                var value: UInt32 = 0
                for (index, octet) in contents.enumerated() {
                    value = value << 8 | UInt32(octet)
                    guard (index + 1) % unit == 0 else { continue }
                    guard let scalar = Unicode.Scalar(value) else {
                        throw BERError(.invalidString, at: start,
                                       "\(tag) holds U+\(String(value, radix: 16, uppercase: true)), not a Unicode scalar")
                    }
                    scalars.append(scalar)
                    value = 0
                }
                text = String(scalars)
            default:
                text = nil
            }
        }
        return Self(type: type, encodedValue: reader.bytes(in: start..<reader.offset), text: text)
    }

    func canonicallyEquals(_ other: Self) -> Bool {
        guard type == other.type else { return false }
        if let text, let otherText = other.text {
            return Self.canonical(text) == Self.canonical(otherText)
        }
        return sameBytes(encodedValue, other.encodedValue)
    }

    /// OpenSSL's canonical form (`asn1_string_canon`): ASCII whitespace trimmed and inner
    /// runs collapsed to one space, ASCII letters lowercased, everything else kept.
    package static func canonical(_ text: String) -> String {
        var words: [[UInt8]] = [[]]
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x09...0x0D:
                if !words[words.count - 1].isEmpty { words.append([]) }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                words[words.count - 1].append(byte + 0x20)
            default:
                words[words.count - 1].append(byte)
            }
        }
        return String(decoding: Array(words.filter { !$0.isEmpty }.joined(separator: [0x20])), as: UTF8.self)
    }
}
