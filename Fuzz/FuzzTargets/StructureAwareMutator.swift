import Foundation
import ReceiptForge
import ForgeCA
import ForgeSupport
import ReceiptMutation

#if FUZZING
@_silgen_name("LLVMFuzzerMutate")
private func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int
#endif

/// The libFuzzer custom mutator and crossover of the `receipt` and `verifier` targets
/// (exported by the FuzzStructureAware module, which only those two link): the input
/// is opened as a receipt file or payload, changed by one `ReceiptMutator` operation,
/// encoded again and, for a file, signed again with the committed test CA, so most
/// mutants carry a valid signature and reach the payload checks behind it. One call in
/// four edits a certificate of the receipt's SET instead (`CertificateSetMutator`: any
/// certificate, used or not, field by field, lengths encoded again; the SET is not
/// signed, so the signature stays valid). Inputs that do not parse, mutants larger than
/// libFuzzer allows, and one call in eight go to libFuzzer's own byte mutation instead
/// (it still finds the parser's bugs).
public enum StructureAwareMutator {
    /// `LLVMFuzzerMutate` in a fuzzing build; in an ordinary build (tests) the input is
    /// left as it is.
    public typealias ByteMutation = (UnsafeMutablePointer<UInt8>, Int, Int) -> Int

    static let mutator = ReceiptMutator()
    /// Inputs already opened: libFuzzer mutates and crosses the same corpus inputs
    /// over and over, and opening one (PKCS#7 and payload decoding, under ASan) costs
    /// about as much as verifying it.
    static let parsed = ParsedInputs()
    static let authority = ReceiptAuthority.committed
    /// One call in this many uses libFuzzer's byte mutation whatever the input.
    static let byteMutationShare = 8
    /// One structure-aware call in this many edits a certificate of the SET.
    static let certificateEditShare = 4
    /// `FUZZ_BYTE_MUTATION_ONLY=1`: every call goes to libFuzzer's byte mutation and
    /// the crossover declines: the baseline of the with/without comparison, same binary.
    static let byteMutationOnly = ProcessInfo.processInfo.environment["FUZZ_BYTE_MUTATION_ONLY"] == "1"

    public static func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int {
        #if FUZZING
        return LLVMFuzzerMutate(data, size, maxSize)
        #else
        return size
        #endif
    }

    /// `LLVMFuzzerCustomMutator`: mutates `data[0..<size]` in place (capacity
    /// `maxSize`), returns the new size.
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32,
                              byteMutation: ByteMutation = libFuzzerMutate) -> Int {
        var random = DeterministicRandom(seed: UInt64(seed))
        if !byteMutationOnly, random.int(in: 0..<byteMutationShare) != 0 {
            let input = Array(UnsafeBufferPointer(start: data, count: size))
            if random.int(in: 0..<certificateEditShare) == 0 {
                if let (bytes, _) = CertificateSetMutator.mutate(input, random: &random), bytes.count <= maxSize {
                    bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
                    return bytes.count
                }
            } else if var receipt = parsed.receipt(input) {
                _ = mutator.mutate(&receipt, operations: 1, random: &random)
                if let written = write(receipt, to: data, maxSize) { return written }
            }
        }
        return byteMutation(data, size, maxSize)
    }

    /// `LLVMFuzzerCustomCrossOver`: splices the second input into the first (both must
    /// parse), written to `out`; returns its size, 0 when there is none.
    public static func crossOver(_ data1: UnsafePointer<UInt8>, _ size1: Int, _ data2: UnsafePointer<UInt8>, _ size2: Int,
                                 _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32) -> Int {
        guard !byteMutationOnly, var first = parsed.receipt(Array(UnsafeBufferPointer(start: data1, count: size1))),
              let second = parsed.receipt(Array(UnsafeBufferPointer(start: data2, count: size2))) else { return 0 }
        var random = DeterministicRandom(seed: UInt64(seed))
        _ = mutator.crossOver(&first, with: second, random: &random)
        return write(first, to: out, maxOutSize) ?? 0
    }

    /// Encodes (and signs) `receipt` into `buffer`; nil when it does not fit or cannot be signed.
    static func write(_ receipt: MutableReceipt, to buffer: UnsafeMutablePointer<UInt8>, _ capacity: Int) -> Int? {
        guard let bytes = try? receipt.file(signedBy: authority), !bytes.isEmpty, bytes.count <= capacity else { return nil }
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: bytes.count) }
        return bytes.count
    }
}

/// `MutableReceipt(bytes:)` of the inputs seen, keyed by their exact bytes (those that
/// do not open too, as nil), so an input is decoded once while it stays in the corpus.
/// Opening is a pure function of the bytes, so a hit gives what opening again would:
/// the mutator's output stays a function of its input and seed. When full, it starts
/// over.
final class ParsedInputs: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [Input: MutableReceipt?] = [:]
    let capacity: Int

    /// The bytes as a key, hashed in one call (an `[UInt8]` key hashes byte by byte).
    private struct Input: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func receipt(_ bytes: [UInt8]) -> MutableReceipt? {
        if let found = lock.withLock({ entries[Input(bytes: bytes)] }) { return found }
        let opened = MutableReceipt(bytes: bytes)
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[Input(bytes: bytes)] = .some(opened)
        }
        return opened
    }
}
