import StoreScenarios
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
        XCTAssertEqual(band.components(separatedBy: "class=\"segment\"").count - 1, transcript.steps.count)
        for status in ["active", "grace period", "expired"] {
            XCTAssertTrue(band.contains(">\(status)</span>"), "the band shows \(status): \(band)")
        }
        XCTAssertEqual(page.components(separatedBy: "<tr><td>").count - 1, transcript.steps.count)
        XCTAssertTrue(page.contains("DID_FAIL_TO_RENEW/GRACE_PERIOD"))
        XCTAssertTrue(page.contains("not sent"))
    }
}
