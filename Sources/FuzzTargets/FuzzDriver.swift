// The driver every fuzz executable calls. Built by `scripts/fuzz` (which passes
// -DFUZZING and links libFuzzer), it hands control to libFuzzer. In an ordinary
// build it replays files instead: `swift run fuzz-ber crash-…` reproduces a finding
// without any fuzzing runtime.
import Foundation

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The body libFuzzer calls; set once before the driver starts.
nonisolated(unsafe) private var fuzzBody: ([UInt8]) -> Void = { _ in }
#endif

/// Runs `body` under libFuzzer (fuzzing builds) or on every file named on the
/// command line (ordinary builds), then exits.
public func runFuzzTarget(_ name: String, _ body: @escaping ([UInt8]) -> Void) -> Never {
    #if FUZZING
    fuzzBody = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        fuzzBody(bytes)
        return 0
    }
    exit(status)
    #else
    let paths = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
    if paths.isEmpty {
        FileHandle.standardError.write(Data("""
            usage: fuzz-\(name) FILE|DIR ...
            Replays inputs through the \(name) fuzz target (this build has no libFuzzer;
            `scripts/fuzz \(name)` builds the fuzzing one).

            """.utf8))
        exit(64)
    }
    var count = 0
    for path in paths {
        for file in inputFiles(at: path) {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            body(Array(data))
            count += 1
        }
    }
    print("replayed \(count) input(s) through \(name): no finding")
    exit(0)
    #endif
}

/// The file itself, or every regular file below a folder, sorted.
public func inputFiles(at path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
    guard isDirectory.boolValue else { return [path] }
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
    return names.sorted().map { path + "/" + $0 }.filter {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}

/// Stops the process with a stable message, so libFuzzer deduplicates findings by
/// it (Cryptofuzz style: `<target>-<property>-difference`).
public func fuzzFinding(_ signature: String, _ detail: @autoclosure () -> String = "") -> Never {
    fatalError(signature + (detail().isEmpty ? "" : ": " + detail()))
}
