import BER
import Receipt
import XCTest

final class ReceiptDateTests: XCTestCase {
    func testAcceptedForms() throws {
        let table: [(String, Int64, Int, Int)] = [
            // text, seconds since 1970 (UTC), nanoseconds, offset minutes
            ("2024-02-23T17:27:16Z", 1_708_709_236, 0, 0),
            ("2020-08-21T07:54:47.123Z", 1_597_996_487, 123_000_000, 0),
            ("2020-08-21T07:54:47.1Z", 1_597_996_487, 100_000_000, 0),
            ("2020-08-21T07:54:47.123456789Z", 1_597_996_487, 123_456_789, 0),
            ("2020-10-16T14:29:30+0300", 1_602_847_770, 0, 180),
            ("2020-10-16T14:29:30+03:00", 1_602_847_770, 0, 180),
            ("2020-07-22T18:33:15-0100", 1_595_446_395, 0, -60),
            ("2020-07-22T18:33:15.5+0100", 1_595_439_195, 500_000_000, 60),
            ("4001-01-01T00:00:00+0000", 64_092_211_200, 0, 0),
            ("1970-01-01T00:00:00Z", 0, 0, 0),
            ("2024-02-29T23:59:59Z", 1_709_251_199, 0, 0),
        ]
        for (text, seconds, nanoseconds, offset) in table {
            let date = try XCTUnwrap(ReceiptDate(text), text)
            XCTAssertEqual(date.secondsSince1970, seconds, text)
            XCTAssertEqual(date.nanoseconds, nanoseconds, text)
            XCTAssertEqual(date.utcOffsetMinutes, offset, text)
            XCTAssertEqual(date.text, text)
        }
        XCTAssertEqual(ReceiptDate("2020-10-16T14:29:30+0300"), ReceiptDate("2020-10-16T11:29:30Z"))
        XCTAssertLessThan(ReceiptDate("2020-10-16T14:29:30+0300")!, ReceiptDate("2020-10-16T11:29:31Z")!)
    }

    func testRefusedFormsThrowInvalidTimeAtTheValueOffset() {
        let table = [
            "", "2024", "2024-02-23", "2024-02-23T17:27:16", "2024-02-23 17:27:16Z", "2024-02-23T17:27:16z",
            "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
            "2024-02-23T24:00:00Z", "2024-02-23T23:60:00Z", "2024-02-23T23:59:60Z", "2024-02-23T17:27:16.Z",
            "2024-02-23T17:27:16.1234567890Z", "2024-02-23T17:27:16+03", "2024-02-23T17:27:16+2400",
            "2024-02-23T17:27:16ZZ", "2024-02-23T17:27:16Z ", "２０２４-02-23T17:27:16Z", "2024-02-23T17:27:16+03:0",
            "-024-02-23T17:27:16Z",
        ]
        for text in table {
            XCTAssertThrowsError(try ReceiptDate(rfc3339: Array(text.utf8), offset: 77), text) { error in
                XCTAssertEqual((error as? BERError)?.code, .invalidTime, text)
                XCTAssertEqual((error as? BERError)?.offset, 77, text)
            }
        }
    }

    /// receipt-date-difference (scripts/fuzz-campaign receipt, 2026-11-23): a date in
    /// year 0000 with a +14:00 offset is an instant in year -1, whose `utcText` came out
    /// as "00-1-12-31T23:59:59Z". Such instants are refused at the parse now; the ends of
    /// the range are kept.
    func testInstantsOutsideYears0000To9999InUTCAreRefused() throws {
        for text in ["0000-01-01T13:59:59.123456789+1400", "0000-01-01T00:00:00+0001",
                     "9999-12-31T23:59:59-0001", "9999-12-31T10:00:00-14:00"] {
            XCTAssertThrowsError(try ReceiptDate(rfc3339: Array(text.utf8), offset: 9), text) { error in
                XCTAssertEqual((error as? BERError)?.code, .invalidTime, text)
                XCTAssertEqual((error as? BERError)?.offset, 9, text)
                XCTAssertTrue("\(error)".contains("outside 0000-01-01T00:00:00Z"), "\(error)")
            }
        }
        for text in ["0000-01-01T00:00:00Z", "0000-01-01T14:00:00+1400", "9999-12-31T23:59:59Z",
                     "9999-12-31T09:59:59-1400", "0000-01-01T00:00:00.5Z"] {
            let date = try XCTUnwrap(ReceiptDate(text), text)
            let utc = try XCTUnwrap(ReceiptDate(date.utcText), date.utcText)
            XCTAssertEqual(utc.secondsSince1970, date.secondsSince1970, text)
        }
        XCTAssertEqual(ReceiptDate("0000-01-01T14:00:00+1400")?.utcText, "0000-01-01T00:00:00Z")
        XCTAssertEqual(ReceiptDate.representableSeconds.lowerBound, -62_167_219_200)
        XCTAssertEqual(ReceiptDate.representableSeconds.upperBound, 253_402_300_799)
    }

    func testFormattingProducesParseableText() throws {
        let seconds: Int64 = 1_777_714_567
        XCTAssertEqual(ReceiptDate(secondsSince1970: seconds).text, "2026-05-02T09:36:07Z")
        XCTAssertEqual(ReceiptDate(secondsSince1970: seconds, nanoseconds: 123_456_789, fractionDigits: 3).text,
                       "2026-05-02T09:36:07.123Z")
        XCTAssertEqual(ReceiptDate(secondsSince1970: seconds, utcOffsetMinutes: 60).text, "2026-05-02T10:36:07+0100")
        XCTAssertEqual(ReceiptDate(secondsSince1970: seconds, utcOffsetMinutes: -330).text, "2026-05-02T04:06:07-0530")
        for offset in [-720, -330, 0, 60, 840] {
            let date = ReceiptDate(secondsSince1970: seconds, nanoseconds: 5_000_000, fractionDigits: 3,
                                   utcOffsetMinutes: offset)
            let parsed = try XCTUnwrap(ReceiptDate(date.text))
            XCTAssertEqual(parsed.secondsSince1970, seconds)
            XCTAssertEqual(parsed.nanoseconds, 5_000_000)
        }
    }
}
