import Foundation
import ForgeSupport
import StoreKit2
import StoreKit2Verifier
import StrictJSON

/// The mutation differential behind `scripts/differential --jws`: mutants of signed App
/// Store JWS (`JWSMutator`), each judged by our `JWSVerifier` and by Apple's
/// `SignedDataVerifier` (the oracle: app-store-server-library in the oracle venv, run by
/// `scripts/storekit2-oracle --jsonl`), every status difference kept. A difference that
/// is a documented exception (`Exception`) is counted, not reported.
public struct JWSDifferential: Sendable {
    /// A signed JWS, how its verifier is set up, and how to sign a mutant again.
    public struct Source: Sendable {
        public let name: String
        public let kind: JWSKind
        public let jws: String
        public let bundleId: String
        public let appAppleId: Int64?
        public let environment: JWSEnvironment
        public let roots: [[UInt8]]
        public let signer: JWSMutator.Signer

        public init(name: String, kind: JWSKind, jws: String, bundleId: String, appAppleId: Int64?,
                    environment: JWSEnvironment, roots: [[UInt8]], signer: @escaping JWSMutator.Signer) {
            self.name = name
            self.kind = kind
            self.jws = jws
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.roots = roots
            self.signer = signer
        }
    }

    /// One line the oracle reads (`scripts/storekit2-oracle --jsonl`).
    public struct OracleRequest: Codable, Sendable {
        public let id: String
        public let kind: String
        public let jws: String
        public let bundleId: String
        public let appAppleId: Int64?
        public let environment: String
        /// Base64 DER.
        public let roots: [String]

        public init(id: String, kind: String, jws: String, bundleId: String, appAppleId: Int64?, environment: String,
                    roots: [String]) {
            self.id = id
            self.kind = kind
            self.jws = jws
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.roots = roots
        }
    }

    /// One line the oracle answers: Apple's status name, `EXCEPTION:TYPE` when the library
    /// raised something other than its `VerificationException`, and the exception behind it.
    public struct OracleAnswer: Codable, Sendable {
        public let id: String
        public let status: String
        public let cause: String?
    }

    /// Runs Apple's verifier over a batch, one answer per request, in order.
    public typealias Oracle = ([OracleRequest]) throws -> [OracleAnswer]

    /// Differences left on purpose; each is documented in docs/architecture.md ("The JWS
    /// verifier and Apple's") and pinned by a test.
    public enum Exception: String, Sendable, CaseIterable {
        /// The payload has a field cattrs cannot convert to Apple's model (`CattrsStructuring`):
        /// Apple's library raises cattrs' own exception, outside `VerificationException`,
        /// so its caller gets no status; ours is `VERIFICATION_FAILURE` naming the field.
        case payloadTypeRaisesInApple = "payload-type-raises-in-apple"
    }

    public struct Mutant: Sendable {
        public let index: Int
        public let source: String
        public let family: JWSMutator.Family
        public let mutation: String
        public let jws: String
        public let ours: JWSVerification
    }

    public struct Difference: Sendable {
        public let mutant: Mutant
        public let apple: OracleAnswer
    }

    public struct Tally: Sendable, CustomStringConvertible {
        public var mutants = 0
        public var agree = 0
        public var byFamily: [JWSMutator.Family: Int] = [:]
        public var excused: [Exception: Int] = [:]
        /// How many mutants got each pair of statuses (ours = Apple's included): what was reached.
        public var statuses: [String: Int] = [:]
        public var differences: [Difference] = []

        public var description: String {
            let excuses = excused.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            return "\(mutants) mutants: \(agree) agree, excused [\(excuses.joined(separator: ", "))], \(differences.count) differences"
        }
    }

    public let sources: [Source]
    private let mutators: [JWSMutator]
    private let verifiers: [JWSVerifier]

    public init(sources: [Source]) throws {
        self.sources = sources
        mutators = try sources.map { try JWSMutator(jws: $0.jws, signer: $0.signer) }
        verifiers = sources.map {
            JWSVerifier(rootCertificates: $0.roots, bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment)
        }
    }

    /// `count` mutants from `seed`, the sources taken in turn and the families in turn,
    /// judged in batches of `batch` by `oracle`; `progress` gets the tally after each batch.
    /// `now` is the clock of JWT claims (Apple's library reads the real clock).
    public func run(count: Int, seed: UInt64, batch: Int = 1_000, now: Int64 = Int64(Date().timeIntervalSince1970),
                    oracle: Oracle, progress: (Tally) -> Void = { _ in }) throws -> Tally {
        var random = DeterministicRandom(seed: seed)
        var tally = Tally()
        var start = 0
        while start < count {
            let end = min(count, start + batch)
            var mutants: [Mutant] = []
            var requests: [OracleRequest] = []
            for index in start..<end {
                let which = index % sources.count
                let source = sources[which]
                let family = JWSMutator.Family.allCases[index / sources.count % JWSMutator.Family.allCases.count]
                let (jws, mutation) = mutators[which].mutant(family, random: &random)
                let ours = verifiers[which].verify(jws, kind: source.kind, currentTime: now)
                mutants.append(Mutant(index: index, source: source.name, family: family, mutation: mutation, jws: jws, ours: ours))
                requests.append(OracleRequest(id: String(index), kind: source.kind.rawValue, jws: jws, bundleId: source.bundleId,
                                              appAppleId: source.appAppleId, environment: source.environment.rawValue,
                                              roots: source.roots.map { Data($0).base64EncodedString() }))
            }
            let answers = try oracle(requests)
            guard answers.count == requests.count else {
                throw OracleError("the oracle answered \(answers.count) of \(requests.count) requests")
            }
            for (mutant, answer) in zip(mutants, answers) {
                guard answer.id == String(mutant.index) else {
                    throw OracleError("the oracle answered request \(answer.id) where \(mutant.index) was expected")
                }
                tally.mutants += 1
                tally.byFamily[mutant.family, default: 0] += 1
                tally.statuses["\(mutant.ours.status.rawValue) / \(answer.status)", default: 0] += 1
                if mutant.ours.status.rawValue == answer.status {
                    tally.agree += 1
                } else if let exception = Self.exception(mutant, answer) {
                    tally.excused[exception, default: 0] += 1
                } else {
                    tally.differences.append(Difference(mutant: mutant, apple: answer))
                }
            }
            start = end
            progress(tally)
        }
        return tally
    }

    /// The documented exception a difference is, or nil.
    static func exception(_ mutant: Mutant, _ apple: OracleAnswer) -> Exception? {
        if apple.status.hasPrefix("EXCEPTION:"), mutant.ours.status == .verificationFailure,
           mutant.ours.detail.contains("Apple's library raises outside its statuses") {
            return .payloadTypeRaisesInApple
        }
        return nil
    }

    /// The oracle's answers, one JSON object per line.
    public static func answers(_ output: [UInt8]) throws -> [OracleAnswer] {
        var answers: [OracleAnswer] = []
        for (number, line) in output.split(separator: UInt8(ascii: "\n")).enumerated() {
            do {
                answers.append(try JSONInput.parse(Array(line), file: "oracle line \(number + 1)").decode(OracleAnswer.self))
            } catch {
                throw OracleError("\(error)")
            }
        }
        return answers
    }

    /// The requests as the oracle reads them: one JSON object per line.
    public static func lines(_ requests: [OracleRequest]) -> [UInt8] {
        requests.flatMap { StoreKit2JSON.encode($0) + [UInt8(ascii: "\n")] }
    }

    /// The oracle as a program run with `--jsonl` (`scripts/storekit2-oracle`) for each
    /// batch: requests from a file, answers to a file (no pipe to fill while the other
    /// side waits), ended after `deadline` seconds if it has not answered.
    public static func program(_ path: String, deadline: Double = 900) -> Oracle {
        { requests in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("jws-oracle-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let input = scratch.appendingPathComponent("requests.jsonl"), output = scratch.appendingPathComponent("answers.jsonl")
            try Data(lines(requests)).write(to: input)
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["--jsonl"]
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = try FileHandle(forWritingTo: output)
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
            if exited.wait(timeout: .now() + deadline) == .timedOut {
                process.terminate()
                _ = exited.wait(timeout: .now() + 10)
                throw OracleError("\(path) --jsonl did not answer \(requests.count) requests within \(Int(deadline)) s")
            }
            guard process.terminationStatus == 0 else {
                throw OracleError("\(path) --jsonl exited with status \(process.terminationStatus)")
            }
            return try answers(Array(try Data(contentsOf: output)))
        }
    }

    public struct OracleError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
