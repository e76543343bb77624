// The fuzz driver (`runFuzzTarget`, `replay`, `fuzzFinding`) and the `ber` and `bignum`
// targets live in modules of their own, so that fuzz-ber links only BER and swift-asn1,
// and fuzz-bignum only BigNum and the OpenSSL shim (libFuzzer scans every coverage
// counter of the executable on every run). Importing FuzzTargets
// brings them along.
@_exported import BERFuzzTarget
@_exported import BigNumFuzzTarget
@_exported import FuzzSupport
