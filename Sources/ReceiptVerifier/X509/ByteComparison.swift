import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-for-byte equality by `memcmp`. `elementsEqual` walks two iterators one byte
/// at a time, which costs microseconds per certificate on the verification path.
func sameBytes<A: ContiguousBytes, B: ContiguousBytes>(_ a: A, _ b: B) -> Bool {
    a.withUnsafeBytes { a in
        b.withUnsafeBytes { b in
            a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }
    }
}
