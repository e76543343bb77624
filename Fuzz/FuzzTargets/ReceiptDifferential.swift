import BER
import ForgeSupport
import Receipt
import ReceiptVerifier

/// The mutation differential behind `scripts/differential`: mutants of signed receipts,
/// each judged by our verifier and by OpenSSL (`VerifierDifferential`), every
/// accept/reject difference kept. Half the mutants are byte-level (flips, an inserted
/// or removed octet, a truncation, a tag's constructed bit toggled), half structure-aware (`CertificateSetMutator`: one
/// element of one certificate of the SET edited, every enclosing length encoded again,
/// the signature still valid).
public struct ReceiptDifferential: Sendable {
    /// A signed receipt, the one anchor it chains to, and the time to validate at.
    public struct Source: Sendable {
        public let name: String
        public let receipt: [UInt8]
        public let anchorDER: [UInt8]
        public let secondsSince1970: Int64

        public init(name: String, receipt: [UInt8], anchorDER: [UInt8], secondsSince1970: Int64) {
            self.name = name
            self.receipt = receipt
            self.anchorDER = anchorDER
            self.secondsSince1970 = secondsSince1970
        }
    }

    /// One mutant on which the two sides disagree beyond `VerifierDifferential.whitelist`.
    public struct Difference: Sendable {
        public let source: String
        public let mutation: String
        public let bytes: [UInt8]
        public let outcome: VerifierDifferential.Outcome
    }

    public struct Tally: Sendable, CustomStringConvertible {
        public var mutants = 0
        public var agree = 0
        public var whitelisted: [VerdictReason: Int] = [:]
        /// The whitelisted verdicts by kind: our detail with numbers and quoted names
        /// blanked, so that one kind of exception counts once.
        public var whitelistedKinds: [String: Int] = [:]
        public var differences: [Difference] = []

        public var description: String {
            let excused = whitelisted.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            return "\(mutants) mutants: \(agree) agree, whitelisted [\(excused.joined(separator: ", "))], "
                + "\(differences.count) differences"
        }
    }

    public let sources: [Source]
    private let differentials: [VerifierDifferential]

    public init(sources: [Source]) throws(CertificateError) {
        self.sources = sources
        var differentials: [VerifierDifferential] = []
        for source in sources { differentials.append(try VerifierDifferential(anchorDER: source.anchorDER)) }
        self.differentials = differentials
    }

    /// `count` mutants from `seed`, spread over the sources in turn; `progress` is
    /// called every 1,000 mutants with the tally so far.
    public func run(count: Int, seed: UInt64, progress: (Tally) -> Void = { _ in }) -> Tally {
        var random = DeterministicRandom(seed: seed)
        var tally = Tally()
        for index in 0..<count {
            let which = index % sources.count
            let source = sources[which]
            let (bytes, mutation) = Self.mutant(of: source.receipt, structureAware: index / sources.count % 2 == 1,
                                                random: &random)
            let outcome = differentials[which].compare(bytes, atSecondsSince1970: source.secondsSince1970)
            tally.mutants += 1
            switch outcome.agreement {
            case .agree: tally.agree += 1
            case .whitelisted(let reason):
                tally.whitelisted[reason, default: 0] += 1
                tally.whitelistedKinds["\(outcome.signature): \(Self.kind(of: outcome.ours.detail))", default: 0] += 1
            case .difference:
                tally.differences.append(Difference(source: source.name, mutation: mutation, bytes: bytes, outcome: outcome))
            }
            if (index + 1) % 1_000 == 0 { progress(tally) }
        }
        return tally
    }

    /// `detail` with digits, hex and parenthesised parts blanked: a verdict's kind.
    static func kind(of detail: String) -> String {
        var kind = ""
        var depth = 0
        for character in detail.prefix(160) {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "0"..."9": if depth == 0 && kind.last != "#" { kind.append("#") }
            default: if depth == 0 { kind.append(character) }
            }
        }
        return kind
    }

    /// One mutant of `receipt` and what was done to it.
    static func mutant(of receipt: [UInt8], structureAware: Bool, random: inout DeterministicRandom) -> ([UInt8], String) {
        if structureAware, let (bytes, edit) = CertificateSetMutator.mutate(receipt, random: &random) {
            return (bytes, edit.description)
        }
        var bytes = receipt
        switch random.int(in: 0..<5) {
        case 4:
            // The constructed bit of one element's tag toggled, anywhere in the receipt: a
            // byte flip finds this one in 255 tries at the right octet.
            var elements: [(range: Range<Int>, path: [Int], element: BERElement)] = []
            CertificateSetMutator.collect(receipt[...], path: [], into: &elements)
            let tagged = elements.filter { $0.element.tag.number < 31 }
            guard !tagged.isEmpty else { return (bytes, "no element") }
            let element = tagged[random.int(in: 0..<tagged.count)]
            bytes[element.range.lowerBound] ^= 0x20
            return (bytes, "constructed bit of the element at \(element.range.lowerBound) toggled")
        case 0:
            var flips: [String] = []
            for _ in 0..<random.int(in: 1...3) {
                let at = random.int(in: 0..<bytes.count)
                bytes[at] ^= UInt8(random.int(in: 1...255))
                flips.append(String(at))
            }
            return (bytes, "flip at \(flips.joined(separator: ", "))")
        case 1:
            let at = random.int(in: 0...bytes.count)
            let octet = UInt8(random.int(in: 0...255))
            bytes.insert(octet, at: at)
            return (bytes, "insert \(octet) at \(at)")
        case 2:
            let at = random.int(in: 0..<bytes.count)
            bytes.remove(at: at)
            return (bytes, "remove octet \(at)")
        default:
            let length = random.int(in: 0..<bytes.count)
            return (Array(bytes.prefix(length)), "truncate to \(length)")
        }
    }
}
