// The driver every fuzz executable calls. Built by `scripts/fuzz` (which passes
// -DFUZZING and links libFuzzer), it hands control to libFuzzer. In an ordinary
// build it replays files instead: `swift run fuzz-ber crash-…` reproduces a finding
// without any fuzzing runtime.
import Foundation
import FileAccess

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
            `scripts/fuzz \(name)` builds the fuzzing one). Each input is named on standard
            error before it runs. Exit codes: 0 no finding, 64 usage, 66 a path that does
            not exist or a folder with no inputs, 74 an input that cannot be read.

            """.utf8))
        exit(64)
    }
    do throws(ReplayError) {
        var files: [String] = []
        for path in paths { files += try inputFiles(at: path) }
        try replay(files, through: body)
        print("replayed \(files.count) input(s) through \(name): no finding")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("fuzz-\(name): \(error)\n".utf8))
        exit(error.exitCode)
    }
    #endif
}

/// Why inputs could not be replayed. A replay never passes on nothing: a path that
/// does not exist, a folder without inputs and an input that cannot be read all stop it.
public struct ReplayError: Error, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The path does not exist, or is a folder holding no file.
        case noInput
        /// A file or folder that exists but cannot be read.
        case unreadable
    }

    public let kind: Kind
    public let description: String

    /// The replayer's exit status: 66 (EX_NOINPUT) or 74 (EX_IOERR).
    public var exitCode: Int32 { kind == .noInput ? 66 : 74 }
}

/// The inputs `path` names: the file itself, or every file below a folder, sorted.
/// Throws for a path that does not exist, a folder with no file and a folder that
/// cannot be listed. Entries that are not folders are all inputs, a dangling link
/// included, so that `replay` reports what it cannot read instead of skipping it.
public func inputFiles(at path: String) throws(ReplayError) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ReplayError(kind: .noInput, description: "\(path): no such file or folder")
    }
    guard isDirectory.boolValue else { return [path] }
    let names: [String]
    do {
        names = try FileManager.default.subpathsOfDirectory(atPath: path)
    } catch {
        throw ReplayError(kind: .unreadable, description: "\(path): cannot list the folder: \(error.localizedDescription)")
    }
    let files = names.sorted().map { path + "/" + $0 }.filter {
        var isDirectory: ObjCBool = false
        return !(FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
    guard !files.isEmpty else { throw ReplayError(kind: .noInput, description: "\(path): the folder holds no inputs") }
    return files
}

/// Runs `body` on each file in order, naming it through `announce` first (by default
/// `replaying PATH` on standard error, which is unbuffered), so a property violation
/// that traps says which input did it. A file that cannot be read throws.
public func replay(_ files: [String], through body: ([UInt8]) -> Void,
                   announce: (String) -> Void = announceOnStandardError) throws(ReplayError) {
    for file in files {
        announce(file)
        let bytes: [UInt8]?
        do throws(FileReadError) {
            bytes = try FileReading.contents(atPath: file)
        } catch {
            throw ReplayError(kind: .unreadable, description: "\(file): cannot read: \(error.reason)")
        }
        guard let bytes else { throw ReplayError(kind: .unreadable, description: "\(file): cannot read: it is gone") }
        body(bytes)
    }
}

/// Writes `replaying PATH` to standard error.
public func announceOnStandardError(_ file: String) {
    FileHandle.standardError.write(Data("replaying \(file)\n".utf8))
}

/// Stops the process with a stable message, so libFuzzer deduplicates findings by
/// it (Cryptofuzz style: `<target>-<property>-difference`).
public func fuzzFinding(_ signature: String, _ detail: @autoclosure () -> String = "") -> Never {
    fatalError(signature + (detail().isEmpty ? "" : ": " + detail()))
}
