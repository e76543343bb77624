import BigNum
import Foundation
import XCTest
#if canImport(Darwin)
import Darwin
#endif

/// The paths this CPU can run, read from a source other than the code under test (which
/// asks cpuid itself): the `flags` of /proc/cpuinfo on Linux, `sysctl hw.optional.*` on
/// Darwin. Off x86-64 only `scalar` and `sse2` (NEON there) exist, whatever the CPU.
enum CPUFeatures {
    struct Reading {
        let paths: Set<BigNum.Path>
        /// Where `paths` came from, for messages.
        let source: String
    }

    /// The reading, or a skip naming why none is possible here (a failure under `CI`,
    /// where a check that cannot run must not pass).
    static func read(file: StaticString = #filePath, line: UInt = #line) throws -> Reading {
        #if arch(x86_64)
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let flagsLine = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
           let colon = flagsLine.firstIndex(of: ":") {
            let flags = Set(flagsLine[flagsLine.index(after: colon)...].split(separator: " ").map(String.init))
            return Reading(paths: paths { flags.contains($0) }, source: "/proc/cpuinfo flags")
        }
        return try unreadable("/proc/cpuinfo has no flags line", file: file, line: line)
        #elseif canImport(Darwin)
        // sysctl's names for the flags /proc/cpuinfo spells without the suffix.
        let names = ["avx2": "avx2_0"]
        func has(_ flag: String) -> Bool {
            var value: Int32 = 0
            var size = MemoryLayout<Int32>.size
            return sysctlbyname("hw.optional.\(names[flag] ?? flag)", &value, &size, nil, 0) == 0 && value != 0
        }
        return Reading(paths: paths(has), source: "sysctl hw.optional")
        #else
        return try unreadable("no CPU flag source on this system", file: file, line: line)
        #endif
        #else
        return Reading(paths: [.scalar, .sse2], source: "the architecture (not x86-64)")
        #endif
    }

    /// The paths, given which CPU flags (as /proc/cpuinfo names them) are present: the
    /// rules of `BigNum.Path.isAvailable`, written down again from the kernels' needs.
    private static func paths(_ has: (String) -> Bool) -> Set<BigNum.Path> {
        var paths: Set<BigNum.Path> = [.scalar, .sse2]
        if has("adx") && has("bmi2") { paths.insert(.adx) }
        if has("avx2") {
            paths.insert(.avx2)
            if ["avx512f", "avx512vl", "avx512bw", "avx512dq"].allSatisfy(has) {
                paths.insert(.avx512)
                if has("avx512ifma") { paths.insert(.ifma) }
            }
        }
        return paths
    }

    private static func unreadable(_ why: String, file: StaticString, line: UInt) throws -> Reading {
        let message = "cannot tell which BigNum paths this CPU has independently of the code under test: \(why)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail(message + "; CI is set, so this is a failure", file: file, line: line)
        }
        throw XCTSkip(message)
    }
}
