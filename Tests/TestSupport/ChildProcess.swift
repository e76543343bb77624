import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program the way a user or another project's CI does: one of this package's
/// built products (`forge`, `fuzz-ber`, …) or a script of the repository. Every child
/// has a deadline: one that hangs is killed (its process group with it) and the test
/// fails naming the command, instead of hanging the suite.
public enum ChildProcess {
    public struct Output: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// How long a child may run unless its caller says otherwise: far beyond what any
    /// child of the suite takes on a loaded machine, so only a hang reaches it.
    public static let defaultDeadline: Duration = .seconds(300)

    /// A child still running at its deadline (it was killed), or output that never came.
    public struct DeadlineExceeded: Error, CustomStringConvertible {
        public let command: String
        public let deadline: Duration
        public let waitingFor: String
        public let standardOutput: String
        public let standardError: String

        public var description: String {
            "\(command): \(waitingFor) not within \(String(format: "%g", deadline.seconds)) s, so it was killed; "
                + "standard output ends \(Self.tail(standardOutput)), standard error ends \(Self.tail(standardError))"
        }

        static func tail(_ text: String) -> String {
            text.isEmpty ? "(empty)" : "\"" + String(text.suffix(600)) + "\""
        }
    }

    /// The folder holding the test bundle, which also holds the package's executables.
    public static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        fatalError("no .xctest bundle found")
        #else
        return Bundle.main.bundleURL
        #endif
    }

    /// The built executable `name` (a product of Package.swift).
    public static func product(_ name: String) -> URL {
        productsDirectory.appendingPathComponent(name)
    }

    /// The package root, from this file's location.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments` to its end, at most `deadline`; standard output
    /// and error go to temporary files (no pipe to fill up and block the child).
    /// `environment` replaces the inherited one when given.
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil, workingDirectory: URL? = nil,
                           deadline: Duration = defaultDeadline) throws -> Output {
        let child = try start(executable, arguments, input: input, environment: environment, workingDirectory: workingDirectory)
        return try child.waitForExit(within: deadline)
    }

    /// Starts `executable` and returns at once; wait for it with `Running.waitForExit`.
    public static func start(_ executable: URL, _ arguments: [String], input: Data? = nil,
                             environment: [String: String]? = nil, workingDirectory: URL? = nil) throws -> Running {
        try Running(executable, arguments, input: input, environment: environment, workingDirectory: workingDirectory)
    }

    /// A started child. Its output is kept in temporary files, removed when it is gone.
    public final class Running: @unchecked Sendable {
        // @unchecked: `process` is only read after `run()`; `exited` is a semaphore.
        public let command: String
        private let process = Process()
        private let exited = DispatchSemaphore(value: 0)
        private let scratch: URL
        private let handles: [FileHandle]

        init(_ executable: URL, _ arguments: [String], input: Data?, environment: [String: String]?,
             workingDirectory: URL?) throws {
            command = ([executable.path] + arguments).joined(separator: " ")
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-process-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            for name in ["stdout", "stderr"] {
                _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent(name).path, contents: nil)
            }
            _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent("stdin").path, contents: input ?? Data())
            handles = [try FileHandle(forWritingTo: scratch.appendingPathComponent("stdout")),
                       try FileHandle(forWritingTo: scratch.appendingPathComponent("stderr")),
                       try FileHandle(forReadingFrom: scratch.appendingPathComponent("stdin"))]
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            if let workingDirectory { process.currentDirectoryURL = workingDirectory }
            process.standardOutput = handles[0]
            process.standardError = handles[1]
            process.standardInput = handles[2]
            let exited = self.exited
            process.terminationHandler = { _ in exited.signal() }
            do {
                try process.run()
            } catch {
                cleanUp()
                throw error
            }
        }

        deinit {
            if process.isRunning { killGroup() }
            cleanUp()
        }

        public var processIdentifier: Int32 { process.processIdentifier }

        /// What the child has written to standard output and error so far.
        public var standardOutput: String { read("stdout") }
        public var standardError: String { read("stderr") }

        /// Sends `signal` to the child.
        public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Waits until the child's standard output satisfies `condition`, at most
        /// `deadline`; then the output so far. Past the deadline (or if the child exits
        /// first) the child is killed and `DeadlineExceeded` names it.
        public func waitForOutput(within deadline: Duration, _ description: String,
                                  until condition: (String) -> Bool) throws -> String {
            let end = ContinuousClock.now + deadline
            while true {
                let text = standardOutput
                if condition(text) { return text }
                // Exited without it: it never comes.
                if exited.wait(timeout: .now()) == .success {
                    exited.signal()
                    break
                }
                if ContinuousClock.now >= end { break }
                usleep(10_000)  // output arrives in a file: look again shortly
            }
            killGroup()
            throw DeadlineExceeded(command: command, deadline: deadline, waitingFor: description,
                                   standardOutput: standardOutput, standardError: standardError)
        }

        /// Waits for the child to exit, at most `deadline`; then its status and output.
        /// Past the deadline it is killed, with its process group, and `DeadlineExceeded`
        /// names the command.
        public func waitForExit(within deadline: Duration) throws -> Output {
            guard exited.wait(timeout: .now() + deadline.seconds) == .success else {
                killGroup()
                throw DeadlineExceeded(command: command, deadline: deadline, waitingFor: "the exit",
                                       standardOutput: standardOutput, standardError: standardError)
            }
            exited.signal()  // later waits return at once
            process.waitUntilExit()
            return Output(status: process.terminationStatus, standardOutput: standardOutput, standardError: standardError)
        }

        /// How the child ended (after `waitForExit`).
        public var terminationReason: Process.TerminationReason { process.terminationReason }

        /// SIGKILL to the child's process group when it leads one (Foundation starts
        /// children in groups of their own on Linux), else to the child; then reaps it.
        private func killGroup() {
            let pid = process.processIdentifier
            guard pid > 0, process.isRunning else { return }
            if getpgid(pid) == pid { kill(-pid, SIGKILL) } else { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }

        private func read(_ name: String) -> String {
            String(decoding: (try? Data(contentsOf: scratch.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
        }

        private func cleanUp() {
            for handle in handles { try? handle.close() }
            try? FileManager.default.removeItem(at: scratch)
        }
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
