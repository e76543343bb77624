import Foundation
import StrictJSON
import TestSupport
import XCTest

/// `forge scenario` and `forge notify` as a user runs them.
final class ScenarioCommandTests: XCTestCase {
    func testListNamesEveryScenarioWithASummary() throws {
        let result = try ForgeProcess.run(["scenario", "list"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardOutput.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 12)
        XCTAssertTrue(lines.contains { $0.hasPrefix("trial-billing-retry-recovery ") })
        XCTAssertTrue(lines.allSatisfy { $0.split(separator: " ", omittingEmptySubsequences: true).count > 2 })
    }

    /// --out writes NAME.json (the same bytes twice), keeps a file the forge did not write,
    /// and --html writes the page, the same bytes from two processes (JSON bodies inside it
    /// once came out with their keys in another order in each process).
    func testRunWritesTheTranscriptIntoOutAndKeepsOtherFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let page = directory.appendingPathComponent("run.html")
        let first = try ForgeProcess.run(["scenario", "run", "refund-declined-reversed", "--out", out.path, "--html", page.path])
        XCTAssertEqual(first.status, 0, first.standardError)
        let file = out.appendingPathComponent("refund-declined-reversed.json")
        let bytes = try Data(contentsOf: file)
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let secondPage = directory.appendingPathComponent("run-again.html")
        let second = try ForgeProcess.run(["scenario", "run", "refund-declined-reversed", "--out", out.path, "--html", secondPage.path])
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertEqual(try Data(contentsOf: file), bytes)
        XCTAssertEqual(try Data(contentsOf: secondPage), try Data(contentsOf: page), "the page differs between two runs")
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")
        let json = try JSONValue(json: bytes)
        XCTAssertEqual(json["notificationSequence"]?.arrayValue?.compactMap(\.stringValue), ["ONE_TIME_CHARGE", "REFUND_DECLINED", "REFUND", "REFUND_REVERSED"])
        XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    func testABadScenarioFileExits65NamingTheLocation() throws {
        let file = try ForgeProcess.temporaryFile(Array(#"{"name": "x", "summary": "s", "customer": "a", "steps": [{"control": "advanceClock", "body": {"secs": 1}}]}"#.utf8),
                                                  in: self, name: "mine.json")
        let result = try ForgeProcess.run(["scenario", "run", "--scenario", file.path])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.standardError.contains("$.steps[0].body.secs"), result.standardError)

        // A number no double holds: refused where it is written, not a trap when the step is sent on.
        let huge = try ForgeProcess.temporaryFile(Array(#"{"name": "x", "summary": "s", "customer": "a", "steps": [{"control": "advanceClock", "body": {"seconds": 1e400}}]}"#.utf8),
                                                  in: self, name: "huge.json")
        let refused = try ForgeProcess.run(["scenario", "run", "--scenario", huge.path])
        XCTAssertEqual(refused.status, 65, refused.standardError)
        XCTAssertTrue(refused.standardError.contains("$.steps[0].body.seconds"), refused.standardError)
    }

    /// A webhook that answers 500 once, then 200: two attempt lines (same UUID), exit 0.
    func testNotifyRetriesAFailedAttemptAndExitsZeroWhenDelivered() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { throw XCTSkip("Hummingbird 2 needs macOS 14") }
        try await FlakyWebhook.with(failures: 1) { webhook, url in
            // Off the cooperative pool, which the webhook answers on while forge runs.
            let result = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result {
                        try ForgeProcess.run(["notify", url, "--type", "DID_FAIL_TO_RENEW", "--subtype", "GRACE_PERIOD", "--time-rate", "3600000"])
                    })
                }
            }
            XCTAssertEqual(result.status, 0, result.standardOutput + result.standardError)
            let attempts = result.standardOutput.split(separator: "\n").filter { $0.contains(" attempt ") }
            XCTAssertEqual(attempts.count, 2, result.standardOutput)
            XCTAssertTrue(attempts[0].contains("attempt 1 DID_FAIL_TO_RENEW/GRACE_PERIOD: UNSUCCESSFUL_HTTP_RESPONSE_CODE (HTTP 500)"), String(attempts[0]))
            XCTAssertTrue(attempts[1].contains("attempt 2 DID_FAIL_TO_RENEW/GRACE_PERIOD: SUCCESS (HTTP 200)"), String(attempts[1]))
            XCTAssertEqual(Set(attempts.map { $0.split(separator: " ")[1] }).count, 1, "one notificationUUID")
            XCTAssertEqual(webhook.received.count, 2)
            XCTAssertEqual(webhook.received[0], webhook.received[1], "a retry sends the same body")
            XCTAssertTrue(webhook.received[0].starts(with: Array(#"{"signedPayload":"ey"#.utf8)))
        }
    }

    /// `scenario run --notify`: each notification POSTed as it happens (the first
    /// attempt fails and is retried), and the transcript records every attempt.
    func testScenarioRunNotifyPostsEachNotificationAndRecordsTheAttempts() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { throw XCTSkip("Hummingbird 2 needs macOS 14") }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-notify-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: out) }
        try await FlakyWebhook.with(failures: 1) { webhook, url in
            let result = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result {
                        try ForgeProcess.run(["scenario", "run", "refund-declined-reversed", "--notify", url, "--out", out.path])
                    })
                }
            }
            XCTAssertEqual(result.status, 0, result.standardOutput + result.standardError)
            let transcript = try JSONValue(json: Data(contentsOf: out.appendingPathComponent("refund-declined-reversed.json")))
            let notifications = (transcript["steps"]?.arrayValue ?? []).flatMap { $0["notifications"]?.arrayValue ?? [] }
            XCTAssertEqual(notifications.count, 4)
            let attempts = notifications.map { ($0["deliveryAttempts"]?.arrayValue ?? []).compactMap { $0["sendAttemptResult"]?.stringValue } }
            XCTAssertEqual(attempts.first, ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"], "the webhook failed once, the retry delivered")
            XCTAssertEqual(attempts.dropFirst().map { $0 }, Array(repeating: ["SUCCESS"], count: 3))
            XCTAssertEqual(webhook.received.count, 5, "four notifications, one of them twice")
            let posted = Set(webhook.received.map { String(decoding: $0, as: UTF8.self) })
            for notification in notifications {
                let body = #"{"signedPayload":"\#(notification["signedPayload"]?.stringValue ?? "")"}"#
                XCTAssertTrue(posted.contains(body), "the transcript's signedPayload is what was POSTed")
            }
        }
    }

    /// Nothing listening: every attempt NO_RESPONSE, a summary, a non-zero exit.
    func testNotifyExitsNonZeroWhenTheWebhookRefuses() throws {
        let result = try ForgeProcess.run(["notify", "http://127.0.0.1:9/", "--scenario", "test-notification", "--environment", "sandbox"])
        XCTAssertEqual(result.status, 1, result.standardOutput + result.standardError)
        let attempts = result.standardOutput.split(separator: "\n").filter { $0.contains(" attempt ") }
        XCTAssertEqual(attempts.count, 1, "sandbox sends once")
        XCTAssertTrue(attempts[0].contains("TEST: NO_RESPONSE"), String(attempts[0]))
        XCTAssertTrue(result.standardOutput.contains("0 of 1 notifications delivered"), result.standardOutput)
    }
}
