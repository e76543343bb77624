import ForgeServer
import XCTest

/// The request body is read by the strict parser: what a client sends is taken as
/// before, anything that is not RFC 8259 JSON (answered 21002) is refused with the JSON
/// location of the problem.
final class VerifyReceiptRequestTests: XCTestCase {
    private func request(_ body: String) throws(VerifyReceiptRequestError) -> VerifyReceiptRequest {
        try VerifyReceiptRequest(body: Array(body.utf8))
    }

    private func failure(_ body: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do throws(VerifyReceiptRequestError) {
            let parsed = try request(body)
            XCTFail("\(body) was taken: \(parsed)", file: file, line: line)
            return nil
        } catch {
            return error.description
        }
    }

    func testWhatClientsSend() throws {
        XCTAssertEqual(try request(#"{"receipt-data": "AAEC"}"#), VerifyReceiptRequest(receipt: [0, 1, 2]))
        XCTAssertEqual(try request(#"{"receipt-data": "AA\nEC", "password": "ff", "exclude-old-transactions": true, "later": [1]}"#),
                       VerifyReceiptRequest(receipt: [0, 1, 2], password: "ff", excludeOldTransactions: true))
        XCTAssertEqual(try request(#"{"receipt-data": "AAEC", "exclude-old-transactions": "true"}"#).excludeOldTransactions, true)
        XCTAssertEqual(try request(#"{"receipt-data": "AAEC", "exclude-old-transactions": "false"}"#).excludeOldTransactions, false)
        XCTAssertEqual(try request(#"{"receipt-data": "AAEC", "password": null, "exclude-old-transactions": null}"#),
                       VerifyReceiptRequest(receipt: [0, 1, 2]))
    }

    func testRefusalsNameTheLocation() {
        let cases: [(body: String, description: String)] = [
            ("receipt-data=AAEC", "body: $: invalid JSON at line 1, column 1 (byte offset 0): expected a JSON value, found 'r'"),
            ("[]", "body: $: expected an object, found an array"),
            (#"{"receipt-data": 12}"#, "body: $['receipt-data']: expected a string, found a number"),
            (#"{"receipt-data": "AAEC", "password": 7}"#, "body: $.password: expected a string, found a number"),
            (#"{"receipt-data": "AAEC", "exclude-old-transactions": 1}"#,
             "body: $['exclude-old-transactions']: expected true or false, found a number"),
            (#"{"receipt-data": "AAEC", "exclude-old-transactions": "yes"}"#,
             "body: $['exclude-old-transactions']: unsupported exclude-old-transactions string 'yes' (expected true, false)"),
            (#"{"receipt-data": "AAEC", "receipt-data": "AAEC"}"#, "body: $['receipt-data']: the field 'receipt-data' appears twice in this object"),
            (#"{"receipt-data": "AAEC",}"#, "body: $: invalid JSON at line 1, column 25 (byte offset 24): expected a quoted member name, "
                + "found '}' (a trailing comma is not JSON)"),
            (#"{"password": "ff"}"#, "no receipt-data"),
            (#"{"receipt-data": "@@@"}"#, "receipt-data is not Base64"),
            (#"{"receipt-data": ""}"#, "receipt-data is empty"),
        ]
        for (body, description) in cases {
            XCTAssertEqual(failure(body), description, body)
        }
    }
}
