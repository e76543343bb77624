@testable import StoreScenarios
import XCTest

final class ScenarioPageTests: XCTestCase {
    /// The page is one document with no external resource and no script; what a user's
    /// script says is escaped; the band shows each status the subscription went through.
    func testThePageIsSelfContainedEscapedAndShowsTheStatusBand() async throws {
        let script = #"""
        {"name": "mine", "summary": "<script>alert(1)</script> & more", "customer": "alice",
         "steps": [{"control": "buyProduct", "body": {"customer": "alice", "productId": "com.example.receiptforge.monthly"}, "as": "s", "note": "<b>buy</b>"},
                   {"control": "failRenewal", "body": {"originalTransactionId": "${s.originalTransactionId}", "gracePeriod": true}},
                   {"control": "advanceClock", "body": {"seconds": 2678400}},
                   {"control": "expireSubscription", "body": {"originalTransactionId": "${s.originalTransactionId}"}}]}
        """#
        let transcript = try await ScenarioRunner().run(Scenario(json: Array(script.utf8), file: "mine.json"))
        let page = ScenarioPage.render(transcript)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(page.components(separatedBy: "<html").count, 2)
        XCTAssertFalse(page.contains("<script"), "no script, and the summary's is escaped")
        XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
        XCTAssertTrue(page.contains("&lt;b&gt;buy&lt;/b&gt;"))
        for external in ["src=", "href=", "url(", "@import"] {
            XCTAssertFalse(page.contains(external), external)
        }
        let bandStart = try XCTUnwrap(page.range(of: "<div class=\"band\""))
        let bandEnd = try XCTUnwrap(page.range(of: "</div>", range: bandStart.upperBound..<page.endIndex))
        let band = String(page[bandStart.upperBound..<bandEnd.lowerBound])
        // Four statuses, one of them (billing retry) begun and ended inside the clock move.
        XCTAssertEqual(band.components(separatedBy: "class=\"segment\"").count - 1, 4, band)
        for status in ["active", "grace period", "billing retry", "expired"] {
            XCTAssertTrue(band.contains(">\(status)</span>"), "the band shows \(status): \(band)")
        }
        XCTAssertEqual(page.components(separatedBy: "<tr><td>").count - 1, transcript.steps.count)
        XCTAssertTrue(page.contains("DID_FAIL_TO_RENEW/GRACE_PERIOD"))
        XCTAssertTrue(page.contains("not sent"))
    }

    /// A status that begins and ends within one step has its width: in the catalogue's
    /// billing-retry scenario one clock move of 14 days ends the grace period six days in,
    /// so billing retry starts where GRACE_PERIOD_EXPIRED was signed, not at the step's end.
    func testAStatusWithinOneStepStartsAtItsNotification() async throws {
        let transcript = try await ScenarioRunner().run(Scenario.named("trial-billing-retry-recovery"))
        let expired = try XCTUnwrap(transcript.steps.flatMap(\.notifications).first { $0.kind == "GRACE_PERIOD_EXPIRED" })
        let step = try XCTUnwrap(transcript.steps.first { $0.notifications.contains(expired) })
        XCTAssertLessThan(expired.signedDate, step.storeInstant, "the scenario's grace period ends inside a step")
        let changes = ScenarioPage.statusChanges(transcript)
        XCTAssertEqual(changes.map(\.status), [1, 4, 3, 1], "active, grace period, billing retry, recovered")
        XCTAssertEqual(changes[2].instant, expired.signedDate)
        let page = ScenarioPage.render(transcript)
        XCTAssertTrue(page.contains("title=\"billing retry from \(ScenarioPage.date(expired.signedDate))\""), page)
    }
}
