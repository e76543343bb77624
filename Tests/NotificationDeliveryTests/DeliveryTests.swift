import AppInput
import Foundation
import HTTPWebhook
import LocalAppStore
import NotificationDelivery
import XCTest

/// Apple's delivery rules against real webhooks on 127.0.0.1: the body and header, which
/// statuses count as delivered, the production retry schedule in store time (the same
/// `notificationUUID` every time), sandbox's single attempt, and each way a webhook can
/// fail named with Apple's `sendAttemptResult`.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class DeliveryTests: XCTestCase {
    static let start: StoreInstant = 1_780_000_000_000

    func notification(_ number: Int) -> OutgoingNotification {
        OutgoingNotification(notificationUUID: String(format: "00000000-0000-4000-8000-%012d", number), typeAndSubtype: "TEST",
                             signedPayload: "eyJhbGciOiJFUzI1NiJ9.eyJuIjo\(number)fQ.c2lnbmF0dXJl")
    }

    func testTheBodyIsTheSignedPayloadAsJSONAndTwoHundredToTwoHundredSixDeliver() async throws {
        let sender = try HTTPWebhookSender(timeout: .seconds(10))
        try await Webhook.with { webhook, base in
            for status in [200, 201, 204, 206, 207, 301, 400, 404, 500, 503] {
                let outcome = await sender.post(notification(status).body, to: "\(base)/status/\(status)")
                XCTAssertEqual(outcome.result, (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode, "\(status)")
                XCTAssertEqual(outcome.detail, "HTTP \(status)")
            }
            let first = try XCTUnwrap(webhook.requests.first)
            XCTAssertEqual(first.contentType, "application/json")
            let decoded = try JSONDecoder().decode([String: String].self, from: Data(first.body))
            XCTAssertEqual(decoded, ["signedPayload": notification(200).signedPayload])
        }
    }

    func testProductionRetriesFiveTimesAtAppleIntervalsWithTheSameUUID() async throws {
        let sender = try HTTPWebhookSender(timeout: .seconds(10))
        try await Webhook.with { webhook, base in
            let outbox = NotificationOutbox(schedule: .production)
            let courier = NotificationCourier(outbox: outbox, sender: sender, url: "\(base)/status/500")
            try outbox.enqueue(notification(1), at: Self.start)
            // Nothing is due before the queue date; the first attempt is due at it.
            let early = await courier.deliverDue(upTo: Self.start - 1)
            XCTAssertEqual(early, [])
            let first = await courier.deliverDue(upTo: Self.start)
            XCTAssertEqual(first.map(\.attempt), [1])
            XCTAssertEqual(first.first?.nextAttemptDate, Self.start + StoreDuration.hour)
            // Moving the clock 200 hours at once makes every retry at its own instant.
            let rest = await courier.deliverDue(upTo: Self.start + 200 * StoreDuration.hour)
            XCTAssertEqual(rest.map(\.attempt), [2, 3, 4, 5, 6])
            let hours = rest.map { ($0.attemptDate - Self.start) / StoreDuration.hour }
            XCTAssertEqual(hours, [1, 13, 37, 85, 157], "1, 12, 24, 48 and 72 hours after the attempt before")
            let record = try XCTUnwrap(outbox.record(notificationUUID: notification(1).notificationUUID))
            XCTAssertEqual(record.attempts.count, 6)
            XCTAssertTrue(record.attempts.allSatisfy { $0.sendAttemptResult == .unsuccessfulHTTPResponseCode })
            XCTAssertNil(record.nextAttemptDate, "no seventh attempt")
            XCTAssertTrue(record.isSettled)
            XCTAssertFalse(record.isDelivered)
            let bodies = Set(webhook.requests.map(\.body))
            XCTAssertEqual(webhook.requests.count, 6)
            XCTAssertEqual(bodies, [notification(1).body], "every retry sends the same notification")
            let after = await courier.deliverDue(upTo: Self.start + 1_000 * StoreDuration.hour)
            XCTAssertEqual(after, [])
        }
    }

    func testARetryThatSucceedsEndsTheSchedule() async throws {
        let sender = try HTTPWebhookSender(timeout: .seconds(10))
        try await Webhook.with { webhook, base in
            let failing = NotificationOutbox(schedule: .production)
            try failing.enqueue(notification(2), at: Self.start)
            _ = await NotificationCourier(outbox: failing, sender: sender, url: "\(base)/status/503").deliverDue(upTo: Self.start)
            // The webhook recovers: the retry an hour later is delivered and is the last.
            let recovered = await NotificationCourier(outbox: failing, sender: sender, url: "\(base)/status/200")
                .deliverDue(upTo: Self.start + 100 * StoreDuration.hour)
            XCTAssertEqual(recovered.map(\.attempt), [2])
            XCTAssertEqual(recovered.first?.attemptDate, Self.start + StoreDuration.hour)
            let record = try XCTUnwrap(failing.allRecords.first)
            XCTAssertEqual(record.attempts.map(\.sendAttemptResult), [.unsuccessfulHTTPResponseCode, .success])
            XCTAssertTrue(record.isDelivered)
            XCTAssertNil(failing.nextDueDate)
        }
    }

    func testSandboxSendsOnce() async throws {
        let sender = try HTTPWebhookSender(timeout: .seconds(10))
        try await Webhook.with { webhook, base in
            let outbox = NotificationOutbox(schedule: .of(.sandbox))
            try outbox.enqueue(notification(3), at: Self.start)
            let reports = await NotificationCourier(outbox: outbox, sender: sender, url: "\(base)/status/500")
                .deliverDue(upTo: Self.start + 1_000 * StoreDuration.hour)
            XCTAssertEqual(reports.map(\.attempt), [1])
            XCTAssertNil(reports.first?.nextAttemptDate)
            XCTAssertEqual(webhook.requests.count, 1)
        }
    }

    func testEachWayAWebhookFailsHasAppleWord() async throws {
        // A short timeout only where the webhook hangs: on a loaded machine (TSan, CI)
        // even a refused connection can take longer than 300 ms to be reported.
        let impatient = try HTTPWebhookSender(timeout: .milliseconds(300))
        let sender = try HTTPWebhookSender(timeout: .seconds(30))
        try await Webhook.with { webhook, base in
            let hung = await impatient.post(notification(4).body, to: "\(base)/hang")
            XCTAssertEqual(hung.result, .timedOut, hung.detail)
            let loop = await sender.post(notification(5).body, to: "\(base)/redirect/loop")
            XCTAssertEqual(loop.result, .circularRedirect, loop.detail)
            let big = await sender.post(notification(6).body, to: "\(base)/big")
            XCTAssertEqual(big.result, .success, "a long answer is still an answer: \(big.detail)")
        }
        let hangingUp = try await HangingUp()
        let closed = await sender.post(notification(7).body, to: hangingUp.url)
        XCTAssertEqual(closed.result, .prematureClose, closed.detail)
        // Nothing listens on the port any more.
        let url = hangingUp.url
        await hangingUp.close()
        let refused = await sender.post(notification(8).body, to: url)
        XCTAssertEqual(refused.result, .noResponse, refused.detail)
        let tls = await sender.post(notification(9).body, to: url.replacingOccurrences(of: "http:", with: "https:"))
        XCTAssertEqual(tls.result, .noResponse, "refused before TLS starts: \(tls.detail)")
    }

    func testAHangingWebhookDoesNotHoldUpTheOthers() async throws {
        let impatient = try HTTPWebhookSender(timeout: .milliseconds(500))
        // The healthy webhook's sender can wait: on a loaded machine 500 ms may pass before it answers.
        let patient = try HTTPWebhookSender(timeout: .seconds(30))
        try await Webhook.with { webhook, base in
            let hanging = NotificationOutbox(schedule: .sandbox)
            let healthy = NotificationOutbox(schedule: .sandbox)
            for number in 10..<14 { try hanging.enqueue(notification(number), at: Self.start) }
            try healthy.enqueue(notification(20), at: Self.start)
            async let stuck = NotificationCourier(outbox: hanging, sender: impatient, url: "\(base)/hang", maximumConcurrentAttempts: 2)
                .deliverDue(upTo: Self.start)
            // The other courier delivers while the first waits on the hanging webhook.
            let delivered = await NotificationCourier(outbox: healthy, sender: patient, url: "\(base)/status/200").deliverDue(upTo: Self.start)
            XCTAssertEqual(delivered.map(\.outcome.result), [.success])
            let timedOut = await stuck
            XCTAssertEqual(timedOut.map(\.outcome.result), Array(repeating: .timedOut, count: 4))
        }
    }

    /// Twice the courier's concurrency in notifications to a slow webhook that answers
    /// none of them until as many as the courier's concurrency wait at once: every attempt
    /// is sent as soon as it is claimed, on a connection of its own, and gets its whole
    /// timeout. (AsyncHTTPClient's default of 8 connections per host held half of 16
    /// attempts back, their deadline running, and they were recorded TIMED_OUT.)
    func testEveryAttemptInTheWindowIsSentAtOnceAndNoneTimesOut() async throws {
        let concurrency = 16
        let sender = try HTTPWebhookSender(timeout: .seconds(60), maximumConnectionsPerHost: concurrency)
        try await Webhook.with { webhook, base in
            let outbox = NotificationOutbox(schedule: .production)
            for number in 100..<(100 + 2 * concurrency) { try outbox.enqueue(notification(number), at: Self.start) }
            let reports = await NotificationCourier(outbox: outbox, sender: sender, url: "\(base)/gather/\(concurrency)",
                                                    maximumConcurrentAttempts: concurrency).deliverDue(upTo: Self.start)
            XCTAssertEqual(reports.count, 2 * concurrency)
            XCTAssertEqual(reports.filter { $0.outcome.result != .success }.map(\.outcome), [], "every attempt SUCCESS")
            XCTAssertEqual(webhook.requests.count, 2 * concurrency)
            XCTAssertTrue(outbox.allRecords.allSatisfy(\.isDelivered))
        }
        await sender.shutdown()
    }

    /// A slow answer holds up only its own attempt: the first notification's webhook
    /// answer waits until every other notification (2× the concurrency in all) has
    /// reached the webhook, which a courier waiting for a whole batch before claiming
    /// more never lets happen.
    func testASlowAnswerHoldsUpNoOtherAttempt() async throws {
        let concurrency = 4
        let total = 2 * concurrency
        let sender = try HTTPWebhookSender(timeout: .seconds(60), maximumConnectionsPerHost: concurrency)
        try await Webhook.with { webhook, base in
            let outbox = NotificationOutbox(schedule: .sandbox)
            for number in 200..<(200 + total) { try outbox.enqueue(notification(number), at: Self.start) }
            let reports = await NotificationCourier(outbox: outbox, sender: sender, url: "\(base)/first-waits/\(total)",
                                                    maximumConcurrentAttempts: concurrency).deliverDue(upTo: Self.start)
            XCTAssertEqual(reports.map(\.outcome.result), Array(repeating: .success, count: total), "\(reports.map(\.outcome))")
            XCTAssertEqual(Set(reports.map(\.notificationUUID)).count, total)
        }
        await sender.shutdown()
    }

    /// A notification queued while another's slow attempt is in flight is sent at once:
    /// the first attempt's answer waits until a second request reaches the webhook, which
    /// a courier that waited for its attempts in flight before looking again never sent.
    func testANotificationQueuedWhileAnotherIsInFlightIsSentAtOnce() async throws {
        let sender = try HTTPWebhookSender(timeout: .seconds(60), maximumConnectionsPerHost: 4)
        try await Webhook.with { webhook, base in
            let outbox = NotificationOutbox(schedule: .sandbox)
            let courier = NotificationCourier(outbox: outbox, sender: sender, url: "\(base)/first-waits/2", maximumConcurrentAttempts: 4)
            let wake = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let reports = AsyncStream.makeStream(of: NotificationCourier.Report.self)
            let delivering = Task {
                await courier.deliver(wakeUps: wake.stream, now: { Self.start }) { reports.continuation.yield($0) }
                reports.continuation.finish()
            }
            var incoming = webhook.incoming.makeAsyncIterator()
            try outbox.enqueue(notification(300), at: Self.start)
            wake.continuation.yield()
            // The first attempt has reached the webhook, which holds its answer.
            _ = await incoming.next()
            try outbox.enqueue(notification(301), at: Self.start)
            wake.continuation.yield()
            var made: [NotificationCourier.Report] = []
            for await report in reports.stream {
                made.append(report)
                if made.count == 2 { break }
            }
            // The second's arrival releases the first: either may finish first.
            XCTAssertEqual(Set(made.map(\.notificationUUID)), Set([notification(300), notification(301)].map(\.notificationUUID)))
            XCTAssertEqual(made.map(\.outcome.result), [.success, .success], "\(made.map(\.outcome))")
            // The wake-ups end: the courier returns.
            wake.continuation.finish()
            await delivering.value
        }
        await sender.shutdown()
    }

    func testACancelledCourierStopsAfterTheBatchInFlight() async throws {
        let sender = try HTTPWebhookSender(timeout: .seconds(30))
        try await Webhook.with { webhook, base in
            let outbox = NotificationOutbox(schedule: .sandbox)
            for number in 40..<50 { try outbox.enqueue(notification(number), at: Self.start) }
            let courier = NotificationCourier(outbox: outbox, sender: sender, url: "\(base)/hang", maximumConcurrentAttempts: 2)
            let delivering = Task { await courier.deliverDue(upTo: Self.start) }
            // The first batch of two reaches the webhook and hangs there.
            let deadline = ContinuousClock.now + .seconds(60)
            while webhook.requests.count < 2 {
                guard ContinuousClock.now < deadline else { return XCTFail("the first batch never arrived") }
                try await Task.sleep(for: .milliseconds(10))  // polling the webhook's record, not a stand-in for it
            }
            delivering.cancel()
            webhook.releaseHanging()
            let reports = await delivering.value
            XCTAssertEqual(reports.count, 2, "only the batch in flight: \(reports)")
            XCTAssertEqual(outbox.claimDue(upTo: Self.start).count, 8, "the rest stay queued, unclaimed")
        }
        await sender.shutdown()
    }

    func testTheOutboxRefusesADuplicateAndHandsAnAttemptOutOnce() throws {
        let outbox = NotificationOutbox(schedule: .production)
        try outbox.enqueue(notification(30), at: Self.start)
        XCTAssertThrowsError(try outbox.enqueue(notification(30), at: Self.start)) { error in
            XCTAssertEqual(error as? NotificationOutboxError, .duplicateNotificationUUID(notification(30).notificationUUID))
        }
        let claims = outbox.claimDue(upTo: Self.start)
        XCTAssertEqual(claims.count, 1)
        XCTAssertEqual(outbox.claimDue(upTo: Self.start + StoreDuration.day), [], "claimed: not handed out again")
        XCTAssertFalse(try XCTUnwrap(outbox.allRecords.first).isSettled, "in flight")
        outbox.record(claims[0], result: .timedOut, detail: "test")
        XCTAssertEqual(outbox.nextDueDate, Self.start + StoreDuration.hour)
    }

    /// A history page filters a snapshot, not the outbox under its lock: a notification
    /// queued (from another thread) while a filter runs is not held up by it.
    func testAHistoryFilterDoesNotHoldUpQueueing() throws {
        let outbox = NotificationOutbox(schedule: .sandbox)
        for number in 60..<63 { try outbox.enqueue(notification(number), at: Self.start) }
        let extra = notification(70)
        let queued = DispatchSemaphore(value: 0)
        var first = true
        let page = outbox.records(from: 0, limit: 20) { _ in
            if first {
                first = false
                Thread {
                    try? outbox.enqueue(extra, at: Self.start)
                    queued.signal()
                }.start()
                XCTAssertEqual(queued.wait(timeout: .now() + 30), .success, "queueing waited for the filter to finish")
            }
            return true
        }
        XCTAssertEqual(page.records.map(\.notification.notificationUUID), (60..<63).map { notification($0).notificationUUID })
        XCTAssertEqual(outbox.count, 4)
    }

    func testRetryScheduleIsApples() {
        XCTAssertEqual(RetrySchedule.production.delays.map { $0 / StoreDuration.hour }, [1, 12, 24, 48, 72])
        XCTAssertEqual(RetrySchedule.of(.production), .production)
        XCTAssertEqual(RetrySchedule.of(.sandbox).delays, [])
        XCTAssertEqual(RetrySchedule.production.nextAttempt(after: 5, at: 0), 72 * StoreDuration.hour)
        XCTAssertNil(RetrySchedule.production.nextAttempt(after: 6, at: 0))
        XCTAssertEqual(SendAttemptResult.allCases.map(\.rawValue).count, 11)
    }

    /// An https webhook whose certificate comes from the user's test CA: delivered when
    /// the sender is given that CA (`--notify-ca`), TLS_ISSUE when it is not, and a
    /// trust root that is no certificate is refused when the sender is made.
    func testAnHTTPSWebhookIsTrustedThroughTheUsersTestCA() async throws {
        let webhook = try await TLSWebhook()
        let trusting = try HTTPWebhookSender(timeout: .seconds(30), trustRoots: [Array(TLSWebhook.caPEM.utf8)])
        let delivered = await trusting.post(notification(40).body, to: webhook.url)
        XCTAssertEqual(delivered.result, .success, delivered.detail)
        let stranger = try HTTPWebhookSender(timeout: .seconds(30))
        let refused = await stranger.post(notification(41).body, to: webhook.url)
        XCTAssertEqual(refused.result, .tlsIssue, refused.detail)
        await webhook.close()
        await trusting.shutdown()
        await stranger.shutdown()
        XCTAssertThrowsError(try HTTPWebhookSender(trustRoots: [Array("not a certificate".utf8)]))
    }
}
