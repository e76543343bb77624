// Exports libFuzzer's custom mutator hooks for the executables that link this module
// (fuzz-receipt and fuzz-verifier only: libFuzzer finds them by symbol name, so every
// target linking them would use them). The engine is FuzzTargets'
// StructureAwareMutator; only fuzzing builds (-DFUZZING) export anything.
#if FUZZING
import FuzzTargets

@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzerCustomMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    StructureAwareMutator.mutate(data, size, maxSize, seed)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func fuzzerCustomCrossOver(_ data1: UnsafePointer<UInt8>, _ size1: Int, _ data2: UnsafePointer<UInt8>, _ size2: Int,
                                  _ out: UnsafeMutablePointer<UInt8>, _ maxOutSize: Int, _ seed: UInt32) -> Int {
    StructureAwareMutator.crossOver(data1, size1, data2, size2, out, maxOutSize, seed)
}
#endif
