import SwiftASN1

/// PEM armour (RFC 7468) on swift-asn1's `PEMDocument`: the one place the project reads
/// and writes it. Reading takes exactly one block with one of the labels the caller
/// expects; text around the block is allowed (RFC 7468 §5.2), a second block is not,
/// so two keys or certificates pasted into one file are refused instead of merged.
public enum PEM {
    /// `der` armoured with `label`: base64 in lines of 64 characters, every line (the
    /// END line too) ending in LF, as OpenSSL and `forge ca` write files.
    public static func encode(_ der: [UInt8], label: String) -> String {
        PEMDocument(type: label, derBytes: der).pemString + "\n"
    }

    /// The label and DER of the one PEM block in `text`.
    public static func decode(_ text: String) throws(PEMError) -> (label: String, der: [UInt8]) {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw .malformed(reason: Self.reason(error))
        }
        guard let document = documents.first else {
            throw .malformed(reason: "no '-----BEGIN …-----' line")
        }
        guard documents.count == 1 else { throw .severalBlocks(count: documents.count) }
        return (document.discriminator, document.derBytes)
    }

    /// The DER of the one PEM block in `text`, whose label must be one of `labels`.
    public static func decode(_ text: String, labels: Set<String>) throws(PEMError) -> (label: String, der: [UInt8]) {
        let block = try decode(text)
        guard labels.contains(block.label) else { throw .wrongLabel(found: block.label, expected: labels.sorted()) }
        return block
    }

    /// The DER of the one PEM block in `text`, labelled `label`.
    public static func decode(_ text: String, label: String) throws(PEMError) -> [UInt8] {
        try decode(text, labels: [label]).der
    }

    /// Whether `text` holds a BEGIN line, so it is meant as PEM (and must then decode).
    public static func hasBlock(_ text: String) -> Bool {
        text.contains("-----BEGIN ")
    }

    /// swift-asn1's reason without its `ASN1Error.code:` prefix and source location.
    private static func reason(_ error: any Error) -> String {
        var text = String(describing: error)
        if let colon = text.firstRange(of: ": ") { text = String(text[colon.upperBound...]) }
        if let space = text.lastIndex(of: " "), text[text.index(after: space)...].contains(".swift:") {
            text = String(text[..<space])
        }
        return text
    }
}

/// Why text is not the one PEM block expected.
public enum PEMError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No block, an unmatched BEGIN/END pair, lines not of 64 characters, bad base64, an empty body.
    case malformed(reason: String)
    /// More than one block where one thing is expected.
    case severalBlocks(count: Int)
    /// One block, labelled otherwise than expected.
    case wrongLabel(found: String, expected: [String])

    public var description: String {
        switch self {
        case .malformed(let reason): return "not PEM: \(reason)"
        case .severalBlocks(let count): return "\(count) PEM blocks where one is expected"
        case .wrongLabel(let found, let expected):
            return "a PEM block labelled '\(found)', expected " + expected.map { "'\($0)'" }.joined(separator: " or ")
        }
    }
}
