import BER
import ForgeSupport
import Receipt

/// Edits one element, at any depth, of one certificate of a receipt's `certificates`
/// SET — used by the verification or not — and encodes every enclosing length again.
/// The SET is outside what the signer signs, so the mutant keeps a valid signature and
/// reaches certificate parsing, signer lookup and path building on both sides of the
/// OpenSSL differential. Byte flips rarely produce these edits: inserting one octet
/// needs the lengths of four enclosing elements fixed too.
public enum CertificateSetMutator {
    /// What was done, for reports: `certificates[2] tbsCertificate/serialNumber: leading 00`.
    public struct Edit: Sendable, Hashable, CustomStringConvertible {
        public let certificate: Int
        public let path: [Int]
        public let operation: Operation

        public var description: String {
            "certificates[\(certificate)] element \(path.map(String.init).joined(separator: ".")): \(operation.rawValue)"
        }
    }

    /// The edits, each one a way a certificate field can be wrong.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// An INTEGER gets a redundant leading 00 (not minimal).
        case padInteger = "pad-integer"
        /// An INTEGER's sign bit flips (negative serial, negative version).
        case negateInteger = "negate-integer"
        /// A content octet of a primitive element gets another value (a version 6, a
        /// letter in a time, an unused-bits octet of 1, another OID arc).
        case changeOctet = "change-octet"
        /// A time or string gets a letter where a digit was.
        case letterInDigits = "letter-in-digits"
        /// A primitive element is retagged with another universal tag.
        case retag
        /// An element is removed.
        case drop
        /// An element is repeated.
        case duplicate
        /// A constructed element's constructed bit is cleared (its children stay as they
        /// were): OpenSSL's decoder does not look at that bit of a SEQUENCE OF or SET OF.
        case primitiveForm = "primitive-form"

        /// Primitive universal tags a retag chooses from.
        static let universalTags: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0C, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1E]

        /// True if the edit changes `element`.
        func applies(to element: BERElement) -> Bool {
            let primitive = !element.tag.isConstructed && !element.contents.isEmpty
            switch self {
            case .padInteger: return element.tag == .integer && !element.contents.isEmpty
            case .negateInteger: return element.tag == .integer && !element.contents.isEmpty
            case .changeOctet: return primitive
            case .letterInDigits: return primitive && element.contents.contains { (0x30...0x39).contains($0) }
            case .retag: return !element.tag.isConstructed && element.tag.tagClass == .universal
                && element.headerLength >= 1 && element.tag.number < 31
            case .drop, .duplicate: return true
            case .primitiveForm: return element.tag.isConstructed && element.headerLength >= 1 && element.tag.number < 31
                && !element.isIndefiniteLength
            }
        }
    }

    /// `receipt` with one certificate element edited, or nil when it has no certificate
    /// or does not decode. The same input and `random` state give the same mutant.
    public static func mutate(_ receipt: [UInt8], random: inout DeterministicRandom) -> (bytes: [UInt8], edit: Edit)? {
        guard let container = try? PKCS7SignedData(bytes: receipt), !container.certificates.isEmpty else { return nil }
        let index = random.int(in: 0..<container.certificates.count)
        let certificate = container.certificates[index]
        guard let range = receipt.firstRange(of: certificate),
              let (edited, path, operation) = edit(certificate, random: &random),
              let bytes = splice(receipt, replacing: range, with: edited) else { return nil }
        return (bytes, Edit(certificate: index, path: path, operation: operation))
    }

    /// One element of `certificate` (chosen among all of them, any depth) edited.
    static func edit(_ certificate: [UInt8], random: inout DeterministicRandom) -> ([UInt8], [Int], Operation)? {
        var elements: [(range: Range<Int>, path: [Int], element: BERElement)] = []
        collect(certificate[...], path: [], into: &elements)
        guard elements.count > 1 else { return nil }
        let operation = Operation.allCases[random.int(in: 0..<Operation.allCases.count)]
        // Not the certificate itself (index 0): an element inside it that the operation applies to.
        let candidates = elements.dropFirst().filter { operation.applies(to: $0.element) }
        guard !candidates.isEmpty else { return nil }
        let (range, path, element) = candidates[random.int(in: 0..<candidates.count)]
        var replacement = Array(element.encodedBytes)
        let contents = element.contentsRange.lowerBound - element.offset..<element.contentsRange.upperBound - element.offset
        switch operation {
        case .padInteger:
            replacement = header(element.tag, length: contents.count + 1) + [0x00] + replacement[contents]
        case .negateInteger:
            replacement[contents.lowerBound] ^= 0x80
        case .changeOctet:
            replacement[random.int(in: contents)] ^= UInt8(random.int(in: 1...255))
        case .letterInDigits:
            let digits = contents.filter { (0x30...0x39).contains(replacement[$0]) }
            replacement[digits[random.int(in: 0..<digits.count)]] = UInt8(ascii: "A") + UInt8(random.int(in: 0..<26))
        case .retag:
            let others = Operation.universalTags.filter { $0 != replacement[0] }
            replacement[0] = others[random.int(in: 0..<others.count)]
        case .drop:
            replacement = []
        case .duplicate:
            replacement += replacement
        case .primitiveForm:
            replacement[0] &= ~0x20
        }
        guard let edited = splice(certificate, replacing: range, with: replacement) else { return nil }
        return (edited, path, operation)
    }

    /// Every element of `bytes` in document order, with its child-index path.
    static func collect(_ bytes: ArraySlice<UInt8>, path: [Int],
                                into elements: inout [(range: Range<Int>, path: [Int], element: BERElement)]) {
        var reader = BERReader(bytes, rules: .ber)
        var index = 0
        while !reader.isAtEnd, let element = try? reader.readElement() {
            let childPath = path + [index]
            elements.append((element.offset..<element.end, childPath, element))
            if element.tag.isConstructed, let children = try? element.contentsReader() {
                collect(children.bytes, path: childPath, into: &elements)
            }
            index += 1
        }
    }

    /// `data` with `target` (the range of one element, or of a run of elements) replaced
    /// by `replacement`, every definite length enclosing it encoded again (indefinite
    /// ones stay indefinite). Nil when `target` is not inside an element of `data`.
    public static func splice(_ data: [UInt8], replacing target: Range<Int>, with replacement: [UInt8]) -> [UInt8]? {
        spliced(data[...], target, replacement)
    }

    private static func spliced(_ bytes: ArraySlice<UInt8>, _ target: Range<Int>, _ replacement: [UInt8]) -> [UInt8]? {
        var reader = BERReader(bytes, rules: .ber)
        var out: [UInt8] = []
        var found = false
        while !reader.isAtEnd {
            guard let element = try? reader.readElement() else { return nil }
            let range = element.offset..<element.end
            if range == target {
                out += replacement
                found = true
            } else if range.contains(target.lowerBound), target.upperBound <= range.upperBound, element.tag.isConstructed,
                      !found, let inner = spliced(element.contents, target, replacement) {
                if element.isIndefiniteLength {
                    out += header(element.tag, length: nil) + inner + [0x00, 0x00]
                } else {
                    out += header(element.tag, length: inner.count) + inner
                }
                found = true
            } else {
                out += element.encodedBytes
            }
        }
        return found ? out : nil
    }

    /// An identifier and a minimal definite length (nil: indefinite).
    private static func header(_ tag: BERTag, length: Int?) -> [UInt8] {
        var writer = BERWriter()
        if let length {
            let zeros = [UInt8](repeating: 0, count: length)
            if tag.isConstructed {
                writer.appendConstructed(tag, contents: zeros, lengthForm: .minimal)
            } else {
                writer.appendPrimitive(tag, contents: zeros, lengthForm: .minimal)
            }
            return Array(writer.bytes.dropLast(length))
        }
        writer.appendConstructed(tag, contents: [UInt8](), lengthForm: .indefinite)
        return Array(writer.bytes.dropLast(2))
    }
}
