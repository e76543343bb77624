@testable import ForgeServer
import Foundation
import Receipt
import XCTest

/// The three forms of every date, Pacific time with daylight saving right.
final class AppleDateTests: XCTestCase {
    func testTheExampleOfVerifyReceiptMD() {
        let date = AppleDate(milliseconds: 1_777_714_567_000)
        XCTAssertEqual(date.gmt, "2026-05-02 09:36:07 Etc/GMT")
        XCTAssertEqual(date.ms, "1777714567000")
        XCTAssertEqual(date.pst, "2026-05-02 02:36:07 America/Los_Angeles")
    }

    func testDaylightSavingBoundaries() {
        // 2026: PDT from 2026-03-08 10:00 UTC to 2026-11-01 09:00 UTC.
        let cases: [(Int64, String)] = [
            (ReceiptDate("2026-03-08T09:59:59Z")!.secondsSince1970, "2026-03-08 01:59:59"),
            (ReceiptDate("2026-03-08T10:00:00Z")!.secondsSince1970, "2026-03-08 03:00:00"),
            (ReceiptDate("2026-11-01T08:59:59Z")!.secondsSince1970, "2026-11-01 01:59:59"),
            (ReceiptDate("2026-11-01T09:00:00Z")!.secondsSince1970, "2026-11-01 01:00:00"),
            (ReceiptDate("2026-01-01T07:59:59Z")!.secondsSince1970, "2025-12-31 23:59:59"),
            // Before 2007: first Sunday of April to the last Sunday of October.
            (ReceiptDate("2006-04-02T10:00:00Z")!.secondsSince1970, "2006-04-02 03:00:00"),
            (ReceiptDate("2006-10-29T08:59:59Z")!.secondsSince1970, "2006-10-29 01:59:59"),
            (ReceiptDate("2006-10-29T09:00:00Z")!.secondsSince1970, "2006-10-29 01:00:00"),
        ]
        for (seconds, local) in cases {
            XCTAssertEqual(AppleDate(milliseconds: seconds * 1000).pst, local + " America/Los_Angeles", "\(seconds)")
        }
    }

    /// The hand-coded rules agree with the system's time zone database, hour by hour
    /// around every transition from 1990 to 2040, and at 5 000 spread instants.
    func testPacificOffsetAgreesWithTheTimeZoneDatabase() throws {
        let zone = try XCTUnwrap(TimeZone(identifier: "America/Los_Angeles"))
        var instants: [Int64] = []
        for year in 1990...2040 {
            for transition in [zone.nextDaylightSavingTimeTransition(after: Self.date(year, 1)),
                               zone.nextDaylightSavingTimeTransition(after: Self.date(year, 7))] {
                let at = Int64(try XCTUnwrap(transition).timeIntervalSince1970)
                instants += [at - 3601, at - 1, at, at + 1, at + 3600]
            }
        }
        let start = Self.date(1990, 1).timeIntervalSince1970
        for step in 0..<5000 { instants.append(Int64(start) + Int64(step) * 317_777) }
        for seconds in instants {
            let expected = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
            XCTAssertEqual(AppleDate.pacificOffset(seconds), expected, "at \(seconds)")
        }
    }

    func testMillisecondsKeepTheFractionAndNegativeTimes() {
        XCTAssertEqual(AppleDate(ReceiptDate("2020-08-21T07:54:47.123Z")!).ms, "1597996487123")
        XCTAssertEqual(AppleDate(ReceiptDate("2020-10-16T14:29:30+0300")!).gmt, "2020-10-16 11:29:30 Etc/GMT")
        XCTAssertEqual(AppleDate(milliseconds: -1).gmt, "1969-12-31 23:59:59 Etc/GMT")
    }

    private static func date(_ year: Int, _ month: Int) -> Date {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, 1)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)!
    }
}
