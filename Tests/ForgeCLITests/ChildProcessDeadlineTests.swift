import Foundation
import TestSupport
import XCTest

/// The suite's children have deadlines: a hung one is killed, with what it started,
/// and the test fails naming the command instead of hanging the suite.
final class ChildProcessDeadlineTests: XCTestCase {
    func testAChildPastItsDeadlineIsKilledAndNamed() throws {
        // A shell that starts a grandchild, says its pid, and waits for it.
        let started = ContinuousClock.now
        let child = try ChildProcess.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "sleep 60 & echo $!; wait"])
        let grandchild = try XCTUnwrap(Int32(try child.waitForOutput(within: .seconds(30), "the pid") { $0.hasSuffix("\n") }
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertThrowsError(try child.waitForExit(within: .milliseconds(200))) { error in
            let deadline = error as? ChildProcess.DeadlineExceeded
            XCTAssertEqual(deadline?.command, "/bin/sh -c sleep 60 & echo $!; wait")
            XCTAssertEqual(deadline?.waitingFor, "the exit")
            XCTAssertTrue("\(error)".hasPrefix("/bin/sh -c sleep 60 & echo $!; wait: the exit not within 0.2 s, so it was killed"),
                          "\(error)")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(30), "killed, not waited for")
        XCTAssertFalse(CheckCommandTests.isRunning(grandchild), "the grandchild \(grandchild) was killed with its group")
    }

    func testOutputThatNeverComesIsADeadlineToo() throws {
        let child = try ChildProcess.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo partial; exec sleep 60"])
        XCTAssertThrowsError(try child.waitForOutput(within: .milliseconds(300), "the address line") { $0.contains("listening") }) {
            let deadline = $0 as? ChildProcess.DeadlineExceeded
            XCTAssertEqual(deadline?.waitingFor, "the address line")
            XCTAssertEqual(deadline?.standardOutput, "partial\n")
        }
    }

    func testAChildThatExitsInTimeGivesItsOutput() throws {
        let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "cat; echo err >&2; exit 3"],
                                       input: Data("in".utf8), deadline: .seconds(30))
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.standardOutput, "in")
        XCTAssertEqual(run.standardError, "err\n")
    }
}
