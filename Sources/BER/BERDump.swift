/// A readable dump of an encoding, in the spirit of `openssl asn1parse -i`: every
/// element with its offset, depth, header length, length (or indefinite), tag,
/// constructed/primitive, and the decoded value of primitives. Elements read before
/// an error are kept, so a dump of bad input shows how far it got and where it broke.
public struct BERDump: Sendable {
    /// One element of the dump, with its children nested under it.
    public struct Node: Sendable, Hashable {
        /// Byte offset of the element's identifier in the input.
        public var offset: Int
        /// 0 for a top-level element, 1 for its children, and so on.
        public var depth: Int
        /// Identifier plus length octets.
        public var headerLength: Int
        /// Contents length; nil for an indefinite length.
        public var length: Int?
        /// The element's tag.
        public var tag: BERTag
        /// The decoded value of a primitive (nil for constructed elements).
        public var value: String?
        /// The elements inside a constructed element (or an OCTET STRING that parsed as one).
        public var children: [Node]
        /// True when the children were found by parsing an OCTET STRING's contents.
        public var expandedFromOctetString: Bool
    }

    /// The top-level elements read, in input order.
    public var nodes: [Node] = []
    /// Why the dump stopped early; nil when the whole input was read.
    public var error: BERError?

    /// Hex shown in text dumps before `…`; JSON always carries every byte.
    public static let textHexLimit = 48

    /// Dumps every element of `bytes`. With `expandOctetStrings`, an OCTET STRING
    /// whose contents are themselves a complete encoding is shown with those
    /// elements beneath it (how a receipt's payload is seen inside its container).
    public init(_ bytes: [UInt8], rules: BERRules, expandOctetStrings: Bool = false) {
        var reader = BERReader(bytes, rules: rules)
        do {
            try BERDump.walk(&reader, into: &nodes, expand: expandOctetStrings)
        } catch {
            self.error = error
        }
    }

    private static func walk(_ reader: inout BERReader, into nodes: inout [Node], expand: Bool) throws(BERError) {
        while !reader.isAtEnd {
            let element = try reader.readElement()
            var node = Node(offset: element.offset, depth: element.depth - 1, headerLength: element.headerLength,
                            length: element.isIndefiniteLength ? nil : element.contents.count,
                            tag: element.tag, value: nil, children: [], expandedFromOctetString: false)
            if element.tag.isConstructed {
                var children: [Node] = []
                var inner = try element.contentsReader()
                do {
                    try walk(&inner, into: &children, expand: expand)
                } catch {
                    node.children = children
                    nodes.append(node)
                    throw error
                }
                node.children = children
            } else {
                node.value = describeValue(element)
                if expand && element.tag == .octetString && !element.contents.isEmpty {
                    var trial = BERReader(element.contents, rules: reader.rules, depth: element.depth)
                    var children: [Node] = []
                    if (try? walk(&trial, into: &children, expand: expand)) != nil {
                        node.children = children
                        node.expandedFromOctetString = true
                        node.value = nil
                    }
                }
            }
            nodes.append(node)
        }
    }

    /// The decoded value of a primitive element, or hex where it has no decoding
    /// or its contents are invalid for the type.
    static func describeValue(_ element: BERElement) -> String {
        let tag = element.tag
        var reader = BERReader(element.encodedBytes, rules: element.rules, depth: element.depth - 1)
        if tag.tagClass == .universal {
            switch tag.number {
            case 1: if let v = try? reader.readBoolean() { return v ? "TRUE" : "FALSE" }
            case 2, 10:
                if let v = try? element.int64Value() { return String(v) }
                if let bytes = try? element.integerContents() { return "0x" + hex(bytes) }
            case 5: if (try? reader.readNull()) != nil { return "" }
            case 6:
                if let oid = try? reader.readObjectIdentifier() {
                    return oid.shortName.map { "\(oid) (\($0))" } ?? oid.description
                }
            case 3:
                if let bits = try? reader.readBitString() {
                    return "unused bits \(bits.unusedBits): " + hex(bits.bytes)
                }
            case 12: if let v = try? reader.readUTF8String() { return quoted(v) }
            case 19: if let v = try? reader.readPrintableString() { return quoted(v) }
            case 22, 26: if let v = try? reader.readIA5String(tag: tag) { return quoted(v) }
            case 23:
                if let v = try? reader.readUTCTime() {
                    return String(decoding: element.contents, as: UTF8.self) + " (\(v))"
                }
            case 24:
                if let v = try? reader.readGeneralizedTime() {
                    return String(decoding: element.contents, as: UTF8.self) + " (\(v))"
                }
            default: break
            }
        }
        return hex(element.contents)
    }

    static func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            var index = 0
            for byte in bytes {
                text[index] = hexDigit(byte >> 4)
                text[index + 1] = hexDigit(byte & 0xF)
                index += 2
            }
            return index
        }
    }

    /// The ASCII code of an upper-case hex digit for `value` (0…15).
    @inline(__always) static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x37 + value }

    static func quoted(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal (quotes, escapes) to `out`.
    static func appendQuoted(_ text: String, to out: inout String) {
        out += "\""
        // Most values need no escape: appended whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let h = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    // MARK: Rendering

    /// One line per element, indented by depth (the error, if any, is not part of it).
    /// Written into one string (no string per line or per field).
    public var text: String {
        var out = ""
        func pad(_ count: Int) {
            var count = count
            while count > 0 {
                let run = min(count, BERDump.spaces.utf8.count)
                out += BERDump.spaces.prefix(run)
                count -= run
            }
        }
        func emit(_ node: Node) {
            let lineStart = out.utf8.count
            let offset = String(node.offset)
            pad(6 - offset.utf8.count)
            out += offset
            out += ":d="
            out += String(node.depth)
            out += " hl="
            out += String(node.headerLength)
            out += " l="
            let length = node.length.map(String.init) ?? "indefinite"
            pad(5 - length.utf8.count)
            out += length
            out += node.tag.isConstructed ? " cons: " : " prim: "
            pad(node.depth)
            BERDump.appendTagLabel(node.tag, to: &out)
            if var value = node.value {
                if value.count > BERDump.textHexLimit * 2 && node.tag != .utf8String {
                    value = String(value.prefix(BERDump.textHexLimit * 2)) + "… (\(node.length ?? 0) bytes)"
                }
                // Everything before the value is ASCII: bytes are columns.
                pad(max(1, 60 - (out.utf8.count - lineStart)))
                out += ":"
                out += value
            }
            if node.expandedFromOctetString { out += "  (contents parsed below)" }
            out += "\n"
            node.children.forEach(emit)
        }
        nodes.forEach(emit)
        return out
    }

    /// Padding for `text`, appended a slice at a time.
    static let spaces = String(repeating: " ", count: 64)

    /// `universal 16 SEQUENCE`, `context 0`, `application 3`, `private 7`.
    static func appendTagLabel(_ tag: BERTag, to out: inout String) {
        switch tag.tagClass {
        case .universal: out += "universal "
        case .application: out += "application "
        case .contextSpecific: out += "context "
        case .private: out += "private "
        }
        out += String(tag.number)
        if let name = tag.universalName {
            out += " "
            out += name
        }
    }

    /// The machine form: `{"elements": [...], "error": null | {...}}`, every element
    /// an object with offset, depth, headerLength, length (null = indefinite),
    /// class, number, name, constructed, value (primitives) and children.
    public var json: String {
        var out = "{\"elements\":["
        out.reserveCapacity(256)
        for (index, node) in nodes.enumerated() {
            if index > 0 { out += "," }
            BERDump.appendJSON(node, to: &out)
        }
        out += "],\"error\":"
        if let error {
            out += "{\"code\":\"\(error.code.rawValue)\",\"offset\":\(error.offset),\"path\":"
            BERDump.appendQuoted(error.pathDescription, to: &out)
            out += ",\"reason\":"
            BERDump.appendQuoted(error.reason, to: &out)
            out += "}"
        } else {
            out += "null"
        }
        return out + "}\n"
    }

    /// One element of `json`, written into `out` (one string for the whole dump:
    /// no array of fields or of children per element).
    static func appendJSON(_ node: Node, to out: inout String) {
        out += "{\"offset\":"
        out += String(node.offset)
        out += ",\"depth\":"
        out += String(node.depth)
        out += ",\"headerLength\":"
        out += String(node.headerLength)
        out += ",\"length\":"
        out += node.length.map(String.init) ?? "null"
        out += node.length == nil ? ",\"indefinite\":true" : ",\"indefinite\":false"
        out += ",\"class\":\""
        out += className(node.tag.tagClass)
        out += "\",\"number\":"
        out += String(node.tag.number)
        out += ",\"name\":"
        appendQuoted(node.tag.description, to: &out)
        out += node.tag.isConstructed ? ",\"constructed\":true" : ",\"constructed\":false"
        if let value = node.value {
            out += ",\"value\":"
            appendQuoted(value, to: &out)
        }
        if !node.children.isEmpty || node.tag.isConstructed {
            out += ",\"children\":["
            for (index, child) in node.children.enumerated() {
                if index > 0 { out += "," }
                appendJSON(child, to: &out)
            }
            out += "]"
        }
        out += "}"
    }

    static func className(_ tagClass: BERTag.TagClass) -> String {
        switch tagClass {
        case .universal: return "universal"
        case .application: return "application"
        case .contextSpecific: return "context"
        case .private: return "private"
        }
    }
}
