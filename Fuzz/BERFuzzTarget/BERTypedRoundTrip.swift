import BER
import FuzzSupport

/// The `ber` target's typed round trip: every element of an input is read with the
/// typed reader of its type (`readBoolean`, `readInt64`, `readObjectIdentifier`,
/// `readUTCTime`, `readSet`, …) and written again with the typed appender of the same
/// type (`appendBoolean`, `appendInteger`, `appendObjectIdentifier`, `appendTime`,
/// `appendSet`, …). Elements without a typed reader, or whose value the reader
/// refuses, are copied with `appendPrimitive`, after the contents checks the tree
/// parser makes. Properties (see `check`):
/// - `ber-typed-der-difference`: on input our DER parse accepts, the typed DER walk
///   writes the input byte for byte (DER has one encoding per value); on input it
///   refuses, the typed DER walk refuses too, with an error that names an offset
///   inside the input;
/// - `ber-typed-roundtrip-difference`: on input our BER parse accepts, the typed BER
///   walk succeeds, and walking what it wrote (now with sorted SETs required) writes
///   the same bytes again: read → write → read gives the same values;
/// - `ber-typed-oid-difference`, `ber-typed-time-difference`, `ber-typed-extent-difference`:
///   an OID survives its arcs and its dotted text; a time is not before its
///   whole-second floor; an element read is the prefix of the bytes left to read.
public enum BERTypedRoundTrip {
    /// A violated property: the abort signature and what differed.
    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public var signature: String
        public var detail: String
        public var description: String { detail.isEmpty ? signature : "\(signature): \(detail)" }
    }

    /// BER rules that also require each SET in DER order (what the BER walk writes).
    public static let sortedBERRules = BERRules(.ber, maximumDepth: 50, requireSortedSets: true)

    /// Inputs up to this size take the typed round trip (about three walks and a parse),
    /// one in `share` of them (the walks cost a sixth of a run; docs/fuzzing.md, throughput).
    public static let sizeLimit = 256
    public static let share: UInt32 = 2

    /// The checks of this file on one input, behind conditions that cost nothing on
    /// the inputs they skip: the typed round trip on accepted inputs up to
    /// `sizeLimit` bytes, one in `share`; error descriptions and `parseAll` on the inputs that take
    /// the dump (`BERFuzz.takesDump`). Every error's offset is checked.
    static func fuzz(_ input: [UInt8], ber: Result<BERNode, BERError>, der: Result<BERNode, BERError>, small: Bool,
                     hash: UInt32) {
        // Each result on its own: no array of the two per input.
        func checkError(_ result: Result<BERNode, BERError>) {
            guard case .failure(let error) = result, small || !(0...input.count).contains(error.offset) else { return }
            if let finding = errorFinding(error, inputCount: input.count) { fuzzFinding(finding.signature, finding.detail) }
        }
        checkError(ber)
        checkError(der)
        guard case .success(let tree) = ber, input.count <= sizeLimit else { return }
        if FuzzShare.takes(hash: hash, oneIn: share, salt: 3), let finding = check(input, derAccepted: (try? der.get()) != nil) {
            fuzzFinding(finding.signature, finding.detail)
        }
        // Two copies of the input are two elements, each the same tree.
        if small, (try? BERNode.parseAll(input + input, rules: BERFuzz.berRules)) != [tree, tree] {
            fuzzFinding("ber-parseall-difference")
        }
    }

    /// A walk: the input, the rules to read it with, the bytes written.
    public typealias Rewrite = ([UInt8], BERRules) throws(BERError) -> [UInt8]

    /// Checks the typed round trip of an input our BER parse accepted. `rewrite` is the
    /// walk (replaced in tests by a broken one, to see each property fire).
    public static func check(_ input: [UInt8], derAccepted: Bool, rewrite: Rewrite = rewrite) -> Finding? {
        if derAccepted {
            do throws(BERError) {
                let written = try rewrite(input, BERFuzz.derRules)
                if written != input {
                    return Finding(signature: "ber-typed-der-difference",
                                   detail: "\(input.count) bytes in, \(written.count) out, first difference at byte "
                                       + "\(zip(input, written).prefix { $0 == $1 }.count)")
                }
            } catch {
                return Finding(signature: "ber-typed-der-difference", detail: "DER input refused by the typed walk: \(error)")
            }
        } else {
            do throws(BERError) {
                _ = try rewrite(input, BERFuzz.derRules)
                return Finding(signature: "ber-typed-der-difference",
                               detail: "the typed DER walk accepts what the DER parse refuses")
            } catch {
                if let finding = errorFinding(error, inputCount: input.count) { return finding }
            }
        }
        let written: [UInt8]
        do throws(BERError) {
            written = try rewrite(input, BERFuzz.berRules)
        } catch {
            return Finding(signature: "ber-typed-roundtrip-difference", detail: "BER input refused by the typed walk: \(error)")
        }
        do throws(BERError) {
            let again = try rewrite(written, sortedBERRules)
            if again != written {
                return Finding(signature: "ber-typed-roundtrip-difference",
                               detail: "written \(written.count) bytes, written again \(again.count)")
            }
        } catch {
            return Finding(signature: "ber-typed-roundtrip-difference", detail: "what the walk wrote is refused: \(error)")
        }
        // A tree of what was written, strings concatenated, is a fixed point of DER
        // encoding (where its segments concatenate: a constructed string whose
        // segments carry another tag is copied as it is).
        if let tree = try? BERNode.parse(written, rules: sortedBERRules, concatenatingStrings: true) {
            guard let again = try? BERNode.parse(tree.derEncoded, rules: BERFuzz.berRules, concatenatingStrings: true),
                  again == tree else {
                return Finding(signature: "ber-concatenated-roundtrip-difference", detail: "\(written.count) bytes")
            }
        }
        return nil
    }

    /// `ber-error-offset-outside-input`, `ber-error-description-difference`: an error
    /// names a byte offset inside the input (0 through its size) and says it, with its
    /// code and its path, in its description.
    public static func errorFinding(_ error: BERError, inputCount: Int) -> Finding? {
        guard (0...inputCount).contains(error.offset) else {
            return Finding(signature: "ber-error-offset-outside-input", detail: "\(error.code) at \(error.offset) of \(inputCount)")
        }
        let text = error.description
        guard text.hasPrefix("\(error.code.rawValue) at byte \(error.offset)"),
              error.path.isEmpty || text.contains(" in \(error.pathDescription): ") else {
            return Finding(signature: "ber-error-description-difference", detail: text)
        }
        return nil
    }

    /// `ber-dump-text-difference`: the text dump has one line per element.
    public static func dumpTextFinding(_ dump: BERDump) -> Finding? {
        func count(_ nodes: [BERDump.Node]) -> Int { nodes.reduce(nodes.count) { $0 + count($1.children) } }
        let lines = dump.text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let elements = count(dump.nodes)
        return lines == elements ? nil
            : Finding(signature: "ber-dump-text-difference", detail: "\(elements) elements, \(lines) lines")
    }

    // MARK: The walk

    /// The one element filling `input` (as `BERNode.parse` reads it), re-encoded
    /// through typed readers and appenders. Errors carry the path of tags and child
    /// indices down to the element at fault.
    public static func rewrite(_ input: [UInt8], rules: BERRules) throws(BERError) -> [UInt8] {
        var reader = BERReader(input, rules: rules)
        var writer = BERWriter()
        writer.reserveCapacity(input.count + 16)
        try rewriteElement(&reader, into: &writer)
        try reader.finish()
        return writer.bytes
    }

    static func rewriteContents(_ reader: inout BERReader, into writer: inout BERWriter) throws(BERError) {
        var index = 0
        while !reader.isAtEnd {
            try withBERPath("[\(index)]") { () throws(BERError) in try rewriteElement(&reader, into: &writer) }
            index += 1
        }
    }

    static func rewriteElement(_ reader: inout BERReader, into writer: inout BERWriter) throws(BERError) {
        guard let tag = try reader.peekTag() else {
            throw BERError(.unexpectedTag, at: reader.offset, "expected an element, found the end of the input")
        }
        try withBERPath(tag.description) { () throws(BERError) in
            if tag.isConstructed {
                try rewriteConstructed(tag, &reader, into: &writer)
            } else if tag.tagClass != .universal || !rewriteTyped(tag, &reader, into: &writer) {
                try copyPrimitive(tag, &reader, into: &writer)
            }
        }
    }

    static func rewriteConstructed(_ tag: BERTag, _ reader: inout BERReader, into writer: inout BERWriter) throws(BERError) {
        if tag.isStringType && tag.number != 3 {
            // BER: the segments concatenated, written again (OCTET STRING in segments
            // of a size fixed by the value, so the walk is a fixed point); DER refuses.
            var probe = reader
            if let value = try? probe.readStringBytes(tag.constructed(false)) {
                reader = probe
                if tag.number == 4 {
                    writer.appendOctetString(value, segmentSize: max(1, (value.count + 1) / 2))
                } else {
                    writer.appendPrimitive(tag.constructed(false), contents: value)
                }
                return
            }
        }
        if tag.isStringType && !reader.rules.allowsConstructedStrings {
            _ = try reader.readStringBytes(tag.constructed(false))  // throws constructedStringNotAllowed
        }
        var failure: BERError?
        switch tag {
        case .sequence:
            try reader.readSequence { (contents: inout BERReader) throws(BERError) in
                writer.appendSequence { inner in
                    do throws(BERError) { try rewriteContents(&contents, into: &inner) } catch { failure = error }
                }
                if let failure { throw failure }
            }
        case .set:
            // Each child on its own, then the SET: sorted in BER, as read in DER.
            var encodings: [[UInt8]] = []
            try reader.readSet { (contents: inout BERReader) throws(BERError) in
                let rules = contents.rules
                try contents.forEachElement { (element: BERElement) throws(BERError) in
                    var child = BERReader(element.encodedBytes, rules: rules, depth: element.depth - 1)
                    var inner = BERWriter()
                    try withBERPath("[\(encodings.count)]") { () throws(BERError) in
                        try rewriteElement(&child, into: &inner)
                        try child.finish()
                    }
                    encodings.append(inner.bytes)
                }
            }
            let elements: [(inout BERWriter) -> Void] = encodings.map { encoding in { $0.appendEncoded(encoding) } }
            writer.appendSet(order: reader.rules.mode == .ber ? .sorted : .asWritten, elements: elements)
        default:
            try reader.readConstructed(tag) { (contents: inout BERReader) throws(BERError) in
                writer.appendConstructed(tag) { inner in
                    do throws(BERError) { try rewriteContents(&contents, into: &inner) } catch { failure = error }
                }
                if let failure { throw failure }
            }
        }
    }

    /// Reads a primitive universal element with its typed reader and writes the value
    /// with the matching appender; false (nothing read) where there is none or the
    /// reader refuses the value.
    static func rewriteTyped(_ tag: BERTag, _ reader: inout BERReader, into writer: inout BERWriter) -> Bool {
        var probe = reader
        do throws(BERError) {
            switch tag.number {
            case 1:
                writer.appendBoolean(try probe.readBoolean())
            case 2, 10:
                var small = probe, unsigned = probe
                if let value = try? small.readInt64(tag: tag) {
                    probe = small
                    writer.appendInteger(value, tag: tag)
                } else if let magnitude = try? unsigned.readUnsignedIntegerMagnitude(tag: tag) {
                    probe = unsigned
                    writer.appendUnsignedInteger(magnitude: magnitude, tag: tag)
                } else {
                    writer.appendPrimitive(tag, contents: try probe.readIntegerBytes(tag: tag))
                }
            case 3:
                writer.appendBitString(try probe.readBitString())
            case 4:
                writer.appendOctetString(try probe.readOctetString())
            case 5:
                try probe.readNull()
                writer.appendNull()
            case 6:
                let oid = try probe.readObjectIdentifier()
                if OID(arcs: oid.arcs) != oid || OID(dotted: oid.description) != oid {
                    fuzzFinding("ber-typed-oid-difference", oid.description)
                }
                writer.appendObjectIdentifier(oid)
            case 12:
                writer.appendUTF8String(try probe.readUTF8String())
            case 19:
                writer.appendPrintableString(try probe.readPrintableString())
            case 22, 26:
                writer.appendIA5String(try probe.readIA5String(tag: tag), tag: tag)
            case 23:
                let time = try probe.readUTCTime()
                checkOrder(time)
                writer.appendTime(time)  // UTCTime years are 1950-2049: written as UTCTime
            case 24:
                let time = try probe.readGeneralizedTime()
                checkOrder(time)
                if (1950...2049).contains(time.year) {
                    writer.appendGeneralizedTime(time)
                } else {
                    writer.appendTime(time)  // X.509 Time: GeneralizedTime outside 1950-2049
                }
            default:
                return false
            }
        } catch {
            return false
        }
        reader = probe
        return true
    }

    /// A primitive copied as it is, after the contents checks the tree parser makes.
    static func copyPrimitive(_ tag: BERTag, _ reader: inout BERReader, into writer: inout BERWriter) throws(BERError) {
        let unread = reader.bytes
        guard let element = try reader.readOptionalElement(tag) else {
            throw BERError(.unexpectedTag, at: reader.offset, "expected \(tag)")
        }
        let extent = element.extent
        guard !extent.isIndefiniteLength, extent.encodedRange.count == extent.headerLength + element.contents.count,
              element.encodedBytes.elementsEqual(unread.prefix(extent.encodedRange.count)),
              reader.bytes(in: extent.encodedRange).elementsEqual(element.encodedBytes) else {
            fuzzFinding("ber-typed-extent-difference", "\(tag) at \(element.offset)")
        }
        try element.checkPrimitiveContents()
        writer.appendPrimitive(tag, contents: element.contents)
    }

    /// `ber-typed-time-difference`: a time is not before the whole second it falls in,
    /// nor after it by a second or more.
    static func checkOrder(_ time: ASN1Time) {
        let floor = ASN1Time(secondsSince1970: time.secondsSince1970)
        let next = ASN1Time(secondsSince1970: time.secondsSince1970 + 1)
        if time < floor || !(time < next) {
            fuzzFinding("ber-typed-time-difference", time.description)
        }
    }
}
