import BER
import Foundation
import Receipt
import ReceiptVerifier
import ForgeSupport
import OwnedFileTree
import ReceiptForge

/// `forge mutate`: signed structure-aware mutants of one receipt, written as a fixture
/// tree other projects' validators can be run on (`forge check --fixtures DIR`).
///
/// Each mutant is the source receipt changed by one to three `ReceiptMutator`
/// operations (at least one that changes the payload bytes), encoded again and signed
/// with the committed test CA, so its signature and chain verify and a validator has to
/// look at the payload. `case.json` is an ordinary case file whose expected verdict is
/// **our verifier's** (a mutant has no ground truth: the tree is a differential test,
/// tagged `strict-policy`); `mutation.json` (Schemas/mutation.schema.json) lists what
/// was changed. The same source, seed and count give byte-identical trees.
public struct MutantBatch: Sendable {
    /// One mutant.
    public struct Mutant: MintedFixture {
        public let id: String
        public let file: [UInt8]
        public let payload: [UInt8]
        public let record: MutationRecord
        public let description: CaseDescription

        /// `receipt`, `receipt.b64` and `mutation.json`.
        public var caseFiles: [(name: String, contents: [UInt8])] {
            // A record of plain values always encodes.
            receiptFiles(file) + [("mutation.json", try! forgeJSON(record))]
        }
    }

    /// `mutation.json`.
    public struct MutationRecord: Codable, Sendable, Hashable {
        public struct OurVerdict: Codable, Sendable, Hashable {
            public var verdict: VerdictKind
            public var reason: VerdictReason
            public var detail: String
        }

        public var id: String
        /// The case id or the receipt file the mutant was made from.
        public var source: String
        public var seed: UInt64
        public var index: Int
        public var operations: [ReceiptMutator.Change]
        /// The payload bytes differ from the source's (the signature was made again over them).
        public var payloadChanged: Bool
        public var payloadSHA256: String
        /// What the reference verifier says (also `case.json`'s expected verdict).
        public var verifier: OurVerdict
    }

    /// Where the mutants come from.
    public enum Source: Sendable {
        /// A case of the catalogue, minted with the forge's settings.
        case forgeCase(ForgeCase)
        /// A receipt file's bytes (a PKCS#7 receipt, any signer) and a name for it.
        case receipt(bytes: [UInt8], name: String)
    }

    public let forge: Forge
    public let sourceName: String
    public let mutants: [Mutant]
    /// Operations drawn per mutant (at most; at least one changes the payload).
    public static let maximumOperations = 3

    /// Makes `count` distinct mutants of `source` from `seed`.
    public init(source: Source, count: Int, seed: UInt64, forge: Forge = Forge()) throws {
        guard count > 0 else { throw MutantBatchError(code: .invalidCount, description: "the count must be at least 1") }
        self.forge = forge
        var base: MutableReceipt
        var app: AppUnderTest
        let caseForDescription: ForgeCase
        switch source {
        case .forgeCase(let forgeCase):
            let minted = try forge.mint(forgeCase)
            guard let file = minted.receipt, let opened = MutableReceipt(file: file) else {
                throw MutantBatchError(code: .caseHasNoDecodableReceipt, description: "case '\(forgeCase.id)' has no receipt whose payload decodes: pick another case")
            }
            (base, app, caseForDescription, sourceName) = (opened, minted.app, forgeCase, forgeCase.id)
        case .receipt(let bytes, let name):
            guard let opened = MutableReceipt(file: bytes) else {
                throw MutantBatchError(code: .notADecodableReceipt, description: "\(name): not a PKCS#7 receipt whose payload decodes")
            }
            base = opened
            app = Self.app(for: &base, seed: seed)
            caseForDescription = ForgeCase.valid
            sourceName = name
        }

        let mutator = ReceiptMutator()
        let anchor = forge.authority.root.certificate
        let validator = ReceiptValidator(
            anchors: [try Certificate(anchor)],
            options: ReceiptValidator.Options(bundleIdentifier: app.bundleIdentifier, appVersion: app.version,
                                              device: .identifier(app.device)))
        let now = Date(timeIntervalSince1970: TimeInterval(forge.settings.now))
        let prefix = Self.caseIDPrefix(sourceName)
        var seen: Set<[UInt8]> = []
        var mutants: [Mutant] = []
        for index in 1...count {
            let id = "\(prefix)-mutant-\(String(repeating: "0", count: max(0, 3 - String(index).count)))\(index)"
            var random = DeterministicRandom(seed: seed, label: "\(sourceName)/\(index)")
            var mutant = base
            var operations = mutator.mutate(&mutant, operations: random.int(in: 1...Self.maximumOperations), random: &random)
            var file = try mutant.file(signedBy: forge.authority)
            // Every mutant changes the payload and differs from the others: draw more
            // operations until it does (bounded; what is left is reported as it is).
            var attempts = 0
            while (mutant.payload == base.originalPayload || seen.contains(file)) && attempts < 16 {
                operations += mutator.mutate(&mutant, operations: 1, random: &random)
                file = try mutant.file(signedBy: forge.authority)
                attempts += 1
            }
            seen.insert(file)
            let payload = mutant.payload
            let verdict = validator.validate(file, now: now)
            let record = MutationRecord(
                id: id, source: sourceName, seed: seed, index: index, operations: operations,
                payloadChanged: payload != base.originalPayload,
                payloadSHA256: lowercaseHex(DigestAlgorithm.sha256.digest(payload)),
                verifier: .init(verdict: verdict.verdict, reason: verdict.reason, detail: verdict.detail))
            let description = Self.caseDescription(
                id: id, record: record, mutant: mutant, file: file, app: app, forgeCase: caseForDescription,
                settings: forge.settings, certificateCount: 3)
            mutants.append(Mutant(id: id, file: file, payload: payload, record: record, description: description))
        }
        self.mutants = mutants
    }

    /// The app a foreign receipt is checked as: its own bundle id and version, and a
    /// device drawn from the seed, for which attribute 5 is computed again (the source's
    /// hash was made for a device nobody knows).
    package static func app(for receipt: inout MutableReceipt, seed: UInt64) -> AppUnderTest {
        var random = DeterministicRandom(seed: seed, label: "device")
        var uuid = random.bytes(16)
        uuid[6] = uuid[6] & 0x0F | 0x40
        uuid[8] = uuid[8] & 0x3F | 0x80
        let device = DeviceIdentifier(bytes: uuid)!
        let payload = receipt.receipt
        if let hash = DeviceHash.expected(for: payload, device: device) { receipt.receipt.sha1Hash = hash }
        return AppUnderTest(bundleIdentifier: payload.bundleIdentifier ?? "", version: payload.appVersion ?? "",
                            platform: .ios, device: device)
    }

    /// A case-id-shaped prefix from a source name (`valid`, `my.receipt` → `my-receipt`).
    package static func caseIDPrefix(_ name: String) -> String {
        let words = name.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return words.isEmpty ? "receipt" : words.joined(separator: "-")
    }

    /// The mutant's `case.json`: the source's inputs, our verdict as the expected one,
    /// the tags its operations touch (always `strict-policy`), importance `low`.
    package static func caseDescription(id: String, record: MutationRecord, mutant: MutableReceipt, file: [UInt8],
                                app: AppUnderTest, forgeCase: ForgeCase, settings: ForgeSettings,
                                certificateCount: Int) -> CaseDescription {
        let container = mutant.container ?? MutableReceipt.Container()
        var description = CaseDescription(
            forgeCase: forgeCase, app: app, receipt: mutant.receipt, file: file, settings: settings,
            trustAnchor: "Certs/root.cer", digest: container.digest, signatureAlgorithm: container.signatureAlgorithm,
            layout: container.layout, certificateCount: certificateCount)
        description.id = id
        description.receipt = "\(id)/receipt"
        description.receiptBase64 = "\(id)/receipt.b64"
        description.expected = CaseDescription.Expected(record.verifier.reason)
        description.tags = tags(for: record.operations)
        description.importance = .low
        let summary = record.operations.map { "\($0.operation.rawValue) \($0.path) (\($0.detail))" }.joined(separator: "; ")
        description.description = "Mutant \(record.index) of \(record.source), signed again; expected = our verifier's verdict: \(summary)"
        description.openssl.expected = .verified
        description.openssl.command = description.openssl.command.map {
            $0.replacingOccurrences(of: "\(forgeCase.id)/receipt", with: "\(id)/receipt")
        }
        // The chain is checked at attribute 12: a mutated creation date can put it
        // outside the certificates' validity.
        if [.certificateExpired, .untrustedChain].contains(record.verifier.reason) { description.openssl.expected = .chainInvalid }
        return description
    }

    /// Tags from where the operations went.
    package static func tags(for operations: [ReceiptMutator.Change]) -> [ForgeCase.Tag] {
        var tags: Set<ForgeCase.Tag> = [.strictPolicy]
        for change in operations {
            switch change.operation {
            case .encoding: tags.formUnion([.ber, .payload])
            case .container, .spliceEncoding: tags.insert(.container)
            default: tags.insert(.payload)
            }
            if change.path.contains(".value.") || change.detail.contains("in-app") { tags.insert(.inApp) }
            if change.detail.contains("date '") { tags.insert(.dates) }
            if change.detail.contains("INTEGER") { tags.insert(.integers) }
            if change.operation == .retype { tags.insert(.unknownAttributes) }
            if change.detail.hasPrefix("type 2:") { tags.insert(.bundle) }
            if change.detail.hasPrefix("type 3:") { tags.insert(.version) }
            if change.detail.hasPrefix("type 5:") || change.detail.hasPrefix("type 4:") { tags.insert(.deviceHash) }
        }
        return ForgeCase.Tag.allCases.filter(tags.contains)
    }

    /// The tree: per mutant `ID/receipt`, `ID/receipt.b64`, `ID/case.json`,
    /// `ID/mutation.json`; then `manifest.json` and the anchors under `Certs/`.
    public func files() throws -> [(String, [UInt8])] {
        var manifest = ForgeManifest(cases: [], settings: forge.settings, app: forge.app)
        manifest.cases = mutants.map { mutant in
            ForgeManifest.Entry(
                id: mutant.id, description: mutant.description.description, expected: mutant.description.expected,
                tags: mutant.description.tags, importance: mutant.description.importance,
                receipt: mutant.description.receipt, caseFile: "\(mutant.id)/case.json")
        }
        return try mutants.flatMap { try $0.files() } + sharedTreeFiles(manifest: manifest, anchors: forge.anchors)
    }

    /// Writes the tree into `directory` (replacing a tree the forge wrote there; see
    /// `OutputTree`: nothing the forge did not write is touched).
    @discardableResult
    public func write(to directory: URL) throws -> OutputTree.Report {
        try OutputTree(directory: directory, ownership: .fixtures).replaceTree(with: try files())
    }
}

/// Why mutants cannot be made.
public struct MutantBatchError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A count below 1.
        case invalidCount
        /// The case has no receipt whose payload decodes (`missing`, `not-pkcs7`, …).
        case caseHasNoDecodableReceipt
        /// The file is not a PKCS#7 receipt whose payload decodes.
        case notADecodableReceipt
    }

    public let code: Code
    public let description: String
}
