import Dispatch
import Foundation
import ReceiptForge
import CheckReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process groups of the validators running right now. `forge check` runs each
/// validator in a group of its own, which a terminal's Ctrl-C or a CI runner's SIGTERM
/// does not reach: on SIGINT, SIGTERM or SIGHUP the check removes the temporary tree it
/// minted, kills every group still here, and exits 128 + the signal.
enum HarnessGroups {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var groups: Set<pid_t> = []
    nonisolated(unsafe) private static var cleanup: [@Sendable () -> Void] = []
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    /// Set once a signal came: a group started after it is killed at once.
    nonisolated(unsafe) private static var stopping = false

    static func add(_ group: pid_t) {
        lock.lock()
        groups.insert(group)
        if stopping { kill(-group, SIGKILL) }
        lock.unlock()
    }

    static func remove(_ group: pid_t) {
        lock.lock()
        groups.remove(group)
        lock.unlock()
    }

    /// Kills the running groups, runs `cleanup` and exits, on the first of SIGINT,
    /// SIGTERM or SIGHUP.
    static func stopOnSignals(cleanup work: @escaping @Sendable () -> Void) {
        lock.lock()
        cleanup.append(work)
        let installed = !sources.isEmpty
        lock.unlock()
        guard !installed else { return }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // Clean up while the validators still run: the check waits for them, so
                // nothing of its own (the removal of its temporary tree included) runs
                // alongside; then kill them and exit before it goes on.
                lock.lock()
                stopping = true
                for step in cleanup { step() }
                for group in groups { kill(-group, SIGKILL) }
                lock.unlock()
                FileHandle.standardError.write(Data("\nforge check: stopped by \(HarnessAnswer.signalName(signalNumber))\n".utf8))
                exit(128 + signalNumber)
            }
            source.resume()
            lock.lock()
            sources.append(source)
            lock.unlock()
        }
    }
}
