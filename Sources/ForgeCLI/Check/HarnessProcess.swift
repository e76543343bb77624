import Foundation
import ReceiptForge
import CheckReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a validator once, the way `forge check` must: in a process group of its own
/// (so a hang is killed whole, children included), standard input from /dev/null,
/// standard output and error through pipes read as they come (the first 64 KiB of
/// output kept, 16 MiB of a JSON answer, the last 2 KiB of errors; the rest counted
/// and dropped, so a flood cannot fill memory or block the child). When it exits, whatever it left running
/// in its group is killed; a child that left the group and holds the pipes open is
/// given 200 ms, then no longer read.
struct HarnessProcess {
    struct Result {
        var ending: HarnessAnswer.Ending
        var output: [UInt8]
        var totalOutput: Int
        var errorTail: [UInt8]
        var seconds: Double
    }

    static let errorTailBytes = 2048

    static func run(_ arguments: [String], environment: [String: String], timeout: Double) throws(HarnessStartError) -> Result {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw HarnessStartError(command: arguments[0], reason: String(cString: strerror(errno))) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw HarnessStartError(command: arguments[0], reason: String(cString: strerror(errno)))
        }
        for descriptor in outPipe + errPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let started = monotonicSeconds()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw HarnessStartError(command: arguments[0], reason: String(cString: strerror(spawned)))
        }
        HarnessGroups.add(pid)
        defer { HarnessGroups.remove(pid) }

        var output: [UInt8] = []
        var totalOutput = 0
        var errorTail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptors = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
                           pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)]
        let deadline = started + timeout
        var status: Int32 = 0
        var exited = false
        var timedOut = false
        var graceEnd = Double.infinity

        func reap(blocking: Bool) -> Bool {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            return result == pid || (result < 0 && errno == ECHILD)
        }

        while descriptors.contains(where: { $0.fd >= 0 }) {
            let now = monotonicSeconds()
            if !exited && now >= deadline {
                timedOut = true
                kill(-pid, SIGKILL)
                exited = reap(blocking: true)
                graceEnd = monotonicSeconds() + 0.2
            }
            if exited && monotonicSeconds() >= graceEnd { break }
            let wait = exited ? graceEnd - now : min(deadline - now, 0.05)
            let ready = poll(&descriptors, 2, Int32(max(0, min(wait, 0.05)) * 1000) + 1)
            if ready > 0 {
                for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                    let count = read(descriptors[index].fd, &buffer, buffer.count)
                    if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    if count <= 0 {
                        close(descriptors[index].fd)
                        descriptors[index].fd = -1
                        continue
                    }
                    if index == 0 {
                        totalOutput += count
                        let limit = output.isEmpty ? HarnessAnswer.outputLimit(forOutputStartingWith: buffer[..<count])
                                                   : HarnessAnswer.outputLimit(forOutputStartingWith: output)
                        let room = limit - output.count
                        if room > 0 { output += buffer[..<min(room, count)] }
                    } else {
                        errorTail += buffer[..<count]
                        if errorTail.count > 2 * errorTailBytes { errorTail.removeFirst(errorTail.count - errorTailBytes) }
                    }
                }
            }
            if !exited && reap(blocking: false) {
                exited = true
                kill(-pid, SIGKILL)  // what it left running in its group
                graceEnd = monotonicSeconds() + 0.2
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        // Both pipes closed but the validator still runs: wait for it, up to the deadline.
        while !exited {
            if reap(blocking: false) { exited = true; break }
            if monotonicSeconds() >= deadline {
                timedOut = true
                kill(-pid, SIGKILL)
                exited = reap(blocking: true)
                break
            }
            usleep(1_000)
        }
        kill(-pid, SIGKILL)
        let seconds = monotonicSeconds() - started
        if errorTail.count > errorTailBytes { errorTail.removeFirst(errorTail.count - errorTailBytes) }

        let ending: HarnessAnswer.Ending
        let signal = status & 0x7F
        if timedOut {
            ending = .timedOut(seconds: timeout)
        } else if signal == 0 {
            ending = .exited((status >> 8) & 0xFF)
        } else {
            ending = .signaled(signal)
        }
        return Result(ending: ending, output: output, totalOutput: totalOutput, errorTail: errorTail, seconds: seconds)
    }

    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The validator could not be started at all (exit 127).
struct HarnessStartError: Error, CustomStringConvertible {
    let command: String
    let reason: String
    var description: String { "cannot start \(command): \(reason)" }
}
