import BER
import FuzzSupport
import SwiftASN1

/// Fuzz target `ber`: the BER/DER parser.
///
/// Properties, each aborting with a stable signature:
/// - parsing in `ber` and `der` never crashes or hangs (any input);
/// - `ber-der-roundtrip-difference`: if `der` accepts, re-encoding the tree gives the input bytes;
/// - `ber-der-ber-difference`: if `der` accepts, `ber` accepts it with the same tree;
/// - `ber-swiftasn1-difference`: on DER, accept/reject and the tree agree with apple/swift-asn1,
///   but for the contents checks swift-asn1 leaves to its typed decoders (see `ourStricterCodes`);
/// - `ber-swiftasn1-ber-difference`: the same in BER rules against swift-asn1's BER parser
///   (indefinite lengths, non-minimal lengths, constructed strings), which is what catches a
///   wrong end-of-contents scan; more than 8 length octets are also refused by design here;
/// - typed readers and the dump never crash on any element; the text dump has a line per element;
/// - the typed round trip and error checks of `BERTypedRoundTrip` (`ber-typed-*`, `ber-error-*`).
public enum BERFuzz {
    /// Codes for which rejecting what swift-asn1's structural parse accepts is by design.
    public static let ourStricterCodes: Set<BERError.Code> = [
        .nonMinimalInteger, .emptyInteger, .invalidBoolean, .invalidNull, .invalidObjectIdentifier,
        .constructedStringNotAllowed, .tagNumberTooLarge,
    ]
    /// In BER rules we also refuse lengths of more than 8 octets, which swift-asn1
    /// reads when their leading octets are zero.
    public static let ourStricterBERCodes: Set<BERError.Code> = ourStricterCodes.union([.lengthTooLong])
    /// swift-asn1's nesting limit, so both parsers refuse the same depths.
    public static let derRules = BERRules(.der, maximumDepth: 50)
    public static let berRules = BERRules(.ber, maximumDepth: 50)
    /// Inputs up to this size, one in `dumpShare` of them, are also rendered by
    /// `BERDump`; the same inputs take the error-description and `parseAll` checks.
    public static let dumpLimit = 64
    public static let dumpShare: UInt32 = 8
    /// One input in this many of those our BER parse refuses is also parsed by
    /// swift-asn1 (inputs we accept always are).
    public static let refusedShare: UInt32 = 4

    /// Whether `input` takes the dump, error-description and `parseAll` checks
    /// (`hash`: `FuzzShare.hash(input)`, drawn once per input for every share).
    public static func takesDump(_ input: [UInt8], hash: UInt32) -> Bool {
        input.count <= dumpLimit && FuzzShare.takes(hash: hash, oneIn: dumpShare, salt: 1)
    }

    public static func takesDump(_ input: [UInt8]) -> Bool {
        takesDump(input, hash: FuzzShare.hash(input))
    }

    public static func fuzzOne(_ input: [UInt8]) {
        let hash = FuzzShare.hash(input)
        let ber = Result { () throws(BERError) in try BERNode.parse(input, rules: berRules) }
        let der = Result { () throws(BERError) in try BERNode.parse(input, rules: derRules) }

        // Each swift-asn1 parse runs only where it can disagree with ours (most inputs
        // need one of the two):
        // - our DER accepts (so our BER accepts the same tree, checked below): swift-asn1's
        //   DER parser must accept the same tree; its BER parser would only be compared
        //   with its own DER parser, which tests swift-asn1, not us;
        // - otherwise swift-asn1's BER parser judges our BER result, and its DER parser
        //   our DER refusal, unless its BER parser refused too: DER is stricter than BER,
        //   so swift-asn1's DER would refuse as well;
        // - where our BER parse refuses too (most mutants), on one input in
        //   `refusedShare`: what it catches there is an input swift-asn1 accepts and we
        //   refuse, and its parse cost a quarter of a run (docs/fuzzing.md, throughput).
        if case .success(let tree) = der {
            let reencoded = tree.derEncoded
            if reencoded != input {
                fuzzFinding("ber-der-roundtrip-difference", "\(input.count) bytes in, \(reencoded.count) out")
            }
            guard case .success(let berTree) = ber, berTree == tree else {
                fuzzFinding("ber-der-ber-difference")
            }
            checkBERWriterRoundTrip(tree, input)
            compareWithSwiftASN1(der, Result { try DER.parse(input) }, whitelist: ourStricterCodes,
                                 signature: "ber-swiftasn1-difference")
        } else if (try? ber.get()) != nil || FuzzShare.takes(hash: hash, oneIn: refusedShare, salt: 2) {
            compareWithSwiftASN1Rules(ber, der, input)
        }

        if case .success(let tree) = ber {
            exerciseTypedReaders(tree, input)
        }
        // The dump renders text for every element (costly); small inputs reach all
        // of its branches, and an eighth of them is enough (`dumpShare`).
        let small = takesDump(input, hash: hash)
        if small {
            let dump = BERDump(input, rules: .ber, expandOctetStrings: true)
            _ = dump.json
            if let finding = BERTypedRoundTrip.dumpTextFinding(dump) { fuzzFinding(finding.signature, finding.detail) }
        }
        BERTypedRoundTrip.fuzz(input, ber: ber, der: der, small: small, hash: hash)
    }

    /// Our BER result against swift-asn1's BER parser, and our DER refusal against its
    /// DER parser where its BER parser accepted (DER is stricter than BER, so where its
    /// BER parser refuses, its DER parser would too).
    static func compareWithSwiftASN1Rules(_ ber: Result<BERNode, BERError>, _ der: Result<BERNode, BERError>, _ input: [UInt8]) {
        let theirBER = Result { try BER.parse(input) }
        compareWithSwiftASN1(ber, theirBER, whitelist: ourStricterBERCodes, signature: "ber-swiftasn1-ber-difference")
        if case .success = theirBER {
            compareWithSwiftASN1(der, Result { try DER.parse(input) }, whitelist: ourStricterCodes,
                                 signature: "ber-swiftasn1-difference")
        }
    }

    static func compareWithSwiftASN1(_ ours: Result<BERNode, BERError>, _ theirs: Result<ASN1Node, any Error>,
                                     whitelist: Set<BERError.Code>, signature: String) {
        switch (ours, theirs) {
        case (.success(let ours), .success(let asn1)):
            if !sameTree(ours, asn1) { fuzzFinding(signature, "trees differ") }
        case (.failure(let error), .success):
            if !whitelist.contains(error.code) { fuzzFinding(signature, "we reject (\(error.code)), swift-asn1 accepts") }
        case (.success, .failure):
            fuzzFinding(signature, "we accept, swift-asn1 rejects")
        case (.failure, .failure):
            break
        }
    }

    /// The (constructed, primitive) length forms of `checkBERWriterRoundTrip`.
    static let writerLengthForms: [(BERWriter.LengthForm, BERWriter.LengthForm)] = [
        (.indefinite, .minimal), (.longForm(octets: 4), .longForm(octets: 2)), (.indefinite, .longForm(octets: 8)),
    ]

    /// `ber-writer-roundtrip-difference`: a tree written with BER length forms (indefinite
    /// or long-form constructed lengths, long-form primitive ones; which, from the input's
    /// size) reads back in BER rules as the same tree.
    static func checkBERWriterRoundTrip(_ tree: BERNode, _ input: [UInt8]) {
        let (constructed, primitive) = writerLengthForms[input.count % writerLengthForms.count]
        var writer = BERWriter(constructedLengthForm: constructed, primitiveLengthForm: primitive)
        writer.reserveCapacity(2 * input.count + 16)  // longer length forms than DER's
        tree.encode(into: &writer)
        guard let again = try? BERNode.parse(writer.bytes, rules: berRules), again == tree else {
            fuzzFinding("ber-writer-roundtrip-difference", "\(constructed)/\(primitive)")
        }
    }

    /// Runs the typed reader of each primitive universal element on its bytes.
    static func exerciseTypedReaders(_ node: BERNode, _ input: [UInt8]) {
        if let source = node.source, !node.tag.isConstructed, node.tag.tagClass == .universal,
           let length = source.length {
            let encoded = input[source.offset..<(source.offset + source.headerLength + length)]
            var reader = BERReader(encoded, rules: .ber)
            switch node.tag.number {
            case 1: _ = try? reader.readBoolean()
            case 2: _ = try? reader.readInt64()
            case 3: _ = try? reader.readBitString()
            case 6: _ = try? reader.readObjectIdentifier().description
            case 12: _ = try? reader.readUTF8String()
            case 19: _ = try? reader.readPrintableString()
            case 22: _ = try? reader.readIA5String()
            case 23, 24:
                // The time's other renderings never trap either.
                if let time = try? reader.readTime() {
                    _ = time.description
                    _ = ASN1Time(secondsSince1970: time.secondsSince1970).generalizedTimeBytes
                    if (1950...2049).contains(time.year) { _ = time.utcTimeBytes }
                }
            default: _ = try? reader.readOctetString(tag: node.tag)
            }
        }
        for child in node.children { exerciseTypedReaders(child, input) }
    }

    public static func sameTree(_ ours: BERNode, _ theirs: ASN1Node) -> Bool {
        guard ours.tag.number == theirs.identifier.tagNumber, sameClass(ours.tag.tagClass, theirs.identifier.tagClass)
        else { return false }
        switch (ours.value, theirs.content) {
        case (.primitive(let a), .primitive(let b)):
            return a.elementsEqual(b)
        case (.constructed(let a), .constructed(let b)):
            // Walked side by side: no array of their children per node.
            var theirChildren = b.makeIterator()
            for child in a {
                guard let their = theirChildren.next(), sameTree(child, their) else { return false }
            }
            return theirChildren.next() == nil
        default:
            return false
        }
    }

    static func sameClass(_ ours: BERTag.TagClass, _ theirs: ASN1Identifier.TagClass) -> Bool {
        switch ours {
        case .universal: return theirs == .universal
        case .application: return theirs == .application
        case .contextSpecific: return theirs == .contextSpecific
        case .private: return theirs == .private
        }
    }
}
