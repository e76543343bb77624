import XCTest

/// A strict reading of the pages `HTMLReport` writes: every tag is one the renderer
/// emits, with only the attributes it emits (links and ids only of its own form);
/// text holds no `<` or `>`, and every `&` starts one of the character references
/// the escaper writes. Untrusted text that reached the page unescaped fails here.
struct EmittedMarkup {
    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    struct Tag {
        let name: String
        let closing: Bool
        let attributes: [String: String]
    }

    static let elements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "dl", "dt", "dd", "code", "p", "table", "thead",
        "tbody", "tr", "th", "td", "span", "br", "ul", "ol", "li", "pre", "details", "summary", "nav", "a", "strong",
    ]
    static let attributes: Set<String> = ["lang", "charset", "http-equiv", "content", "name", "class", "title", "id",
                                          "href", "colspan"]
    static let references = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#10;"]

    private(set) var tags: [Tag] = []
    /// The text between tags (references not decoded), without the style sheet.
    private(set) var text = ""
    private(set) var styleSheet = ""

    init(_ html: String) throws {
        let bytes = Array(html.utf8)
        guard bytes.starts(with: Array("<!DOCTYPE html>\n".utf8)) else { throw Violation(description: "no doctype") }
        var index = "<!DOCTYPE html>\n".utf8.count
        var textBytes: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            func fail(_ message: String) -> Violation { EmittedMarkup.violation(message, bytes, index) }
            if byte < 0x20 && byte != 0x0A && byte != 0x09 { throw fail("a control character \(byte)") }
            switch byte {
            case UInt8(ascii: "<"):
                let tag = try EmittedMarkup.readTag(bytes, &index)
                tags.append(tag)
                if tag.name == "style" && !tag.closing {
                    let end = Array("</style>".utf8)
                    let start = index
                    while index < bytes.count && !bytes[index...].starts(with: end) { index += 1 }
                    styleSheet = String(decoding: bytes[start..<index], as: UTF8.self)
                }
            case UInt8(ascii: ">"):
                throw fail("a '>' in text")
            case UInt8(ascii: "&"):
                guard let reference = EmittedMarkup.references.first(where: { bytes[index...].starts(with: Array($0.utf8)) })
                else { throw fail("an '&' that starts no reference the escaper writes") }
                textBytes += Array(reference.utf8)
                index += reference.utf8.count
            default:
                textBytes.append(byte)
                index += 1
            }
        }
        text = String(decoding: textBytes, as: UTF8.self)
    }

    /// `message`, with the bytes around `index`.
    static func violation(_ message: String, _ bytes: [UInt8], _ index: Int) -> Violation {
        let context = String(decoding: bytes[max(0, index - 60)..<min(bytes.count, index + 60)], as: UTF8.self)
        return Violation(description: "\(message) at byte \(index): …\(context)…")
    }

    private static func readTag(_ bytes: [UInt8], _ index: inout Int) throws -> Tag {
        func fail(_ message: String) -> Violation { violation(message, bytes, index) }
        index += 1
        let closing = bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        let nameStart = index
        while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index])
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        guard EmittedMarkup.elements.contains(name) else { throw fail("the element '\(name)'") }
        var attributes: [String: String] = [:]
        while true {
            guard index < bytes.count else { throw fail("an unterminated tag") }
            if bytes[index] == UInt8(ascii: ">") { index += 1; break }
            guard bytes[index] == UInt8(ascii: " "), !closing else { throw fail("junk in a tag") }
            index += 1
            let attributeStart = index
            while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index])
                    || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let attribute = String(decoding: bytes[attributeStart..<index], as: UTF8.self)
            guard EmittedMarkup.attributes.contains(attribute) else { throw fail("the attribute '\(attribute)'") }
            guard bytes[index...].starts(with: Array("=\"".utf8)) else { throw fail("an unquoted attribute") }
            index += 2
            let valueStart = index
            while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] != UInt8(ascii: "<"), bytes[index] != UInt8(ascii: ">") else {
                    throw fail("markup inside an attribute value")
                }
                if bytes[index] == UInt8(ascii: "&"),
                   !EmittedMarkup.references.contains(where: { bytes[index...].starts(with: Array($0.utf8)) }) {
                    throw fail("an '&' that starts no reference the escaper writes")
                }
                index += 1
            }
            let value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
            index += 1
            if attribute == "href", value.range(of: #"^#group-[0-9]+$"#, options: .regularExpression) == nil {
                throw fail("a link to '\(value)'")
            }
            if attribute == "id", value.range(of: #"^group-[0-9]+$"#, options: .regularExpression) == nil {
                throw fail("the id '\(value)'")
            }
            if attribute == "class", value.range(of: #"^[a-z0-9 -]+$"#, options: .regularExpression) == nil {
                throw fail("the class '\(value)'")
            }
            attributes[attribute] = value
        }
        return Tag(name: name, closing: closing, attributes: attributes)
    }

    /// Whether the opening and closing tags balance (void elements aside).
    func balanced() -> Bool {
        var stack: [String] = []
        for tag in tags where !["meta", "br"].contains(tag.name) {
            if tag.closing {
                guard stack.popLast() == tag.name else { return false }
            } else {
                stack.append(tag.name)
            }
        }
        return stack.isEmpty
    }
}
