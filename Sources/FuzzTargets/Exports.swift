// The fuzz driver (`runFuzzTarget`, `replay`, `fuzzFinding`) and the `ber` target live
// in modules of their own, so that fuzz-ber links only BER and swift-asn1 (libFuzzer
// scans every coverage counter of the executable on every run). Importing FuzzTargets
// brings them along.
@_exported import BERFuzzTarget
@_exported import FuzzSupport
