import Foundation
import StrictJSON
import XCTest

/// The JSON layer under every reader: the parser's grammar, exact integers and
/// JSONPath rendering.
final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func syntaxError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONParser.SyntaxError? {
        do {
            let value = try parse(text)
            XCTFail("\(text) parsed as \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testValues() throws {
        XCTAssertEqual(try parse(" null "), .null)
        XCTAssertEqual(try parse("true"), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("-12.5e+3"), .number("-12.5e+3"))
        XCTAssertEqual(try parse("[]"), .array([]))
        XCTAssertEqual(try parse("{}"), .object([]))
        XCTAssertEqual(try parse(#"[1, "a", [true], {"k": null}]"#),
                       .array([.number("1"), .string("a"), .array([.bool(true)]), .object([JSONMember(key: "k", value: .null)])]))
        // Duplicates are kept, in order, for the reader to refuse by name.
        XCTAssertEqual(try parse(#"{"a": 1, "a": 2}"#),
                       .object([JSONMember(key: "a", value: .number("1")), JSONMember(key: "a", value: .number("2"))]))
        // A UTF-8 byte order mark is skipped.
        XCTAssertEqual(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("1".utf8)), .number("1"))
    }

    func testStrings() throws {
        XCTAssertEqual(try parse(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{08}\u{0C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u0041\u00e9\u20AC""#), .string("Aé€"))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(try parse(#""\u0000""#), .string("\u{0}"))
        XCTAssertEqual(try parse("\"café 😀\""), .string("café 😀"))
    }

    func testSyntaxErrors() {
        let cases: [(text: String, offset: Int, reason: String)] = [
            ("", 0, "the file holds no JSON value (it is empty)"),
            ("[1,]", 3, "expected a JSON value, found ']' (a trailing comma is not JSON)"),
            ("[1 2]", 3, "expected ',' or ']' after an array element, found '2'"),
            (#"{"a" 1}"#, 5, "expected ':' after the member name, found '1'"),
            (#"{"a": 1 "b": 2}"#, 8, "expected ',' or '}' after an object member, found '\"'"),
            ("[", 1, "expected a JSON value, found the end of the file"),
            ("01", 1, "a number must not start with 0 followed by digits"),
            ("-", 1, "expected a digit after '-', found the end of the file"),
            ("1.", 2, "expected a digit after the decimal point, found the end of the file"),
            ("1e", 2, "expected a digit after the exponent, found the end of the file"),
            (".5", 0, "expected a JSON value, found '.'"),
            ("+1", 0, "expected a JSON value, found '+'"),
            ("NaN", 0, "expected a JSON value, found 'N'"),
            ("nul", 0, "expected a JSON value, found 'n' (literals are true, false and null, in lowercase)"),
            ("\"a\tb\"", 2, "control character byte 0x09 inside a string (write it as an escape such as \\n or \\u00XX)"),
            (#""\x""#, 2, "unknown escape '\\x' (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
            (#""\u12g4""#, 5, "expected four hex digits after \\u, found 'g'"),
            (#""\ud83d""#, 1, "high surrogate \\uD83D not followed by a low surrogate"),
            (#""\ud83d\u0041""#, 1, "high surrogate \\uD83D followed by \\u0041, not a low surrogate"),
            (#""\ude00""#, 1, "low surrogate \\uDE00 without a high surrogate before it"),
            ("\"\\", 2, "unterminated escape at the end of the file"),
            ("1 x", 2, "unexpected 'x' after the JSON value"),
            ("[\u{7F}]", 1, "expected a JSON value, found byte 0x7F"),
            ("[é]", 1, "expected a JSON value, found 'é'"),
        ]
        for (text, offset, reason) in cases {
            let error = syntaxError(text)
            XCTAssertEqual(error?.offset, offset, text)
            XCTAssertEqual(error?.reason, reason, text)
        }
    }

    /// Overlong forms, surrogates, code points above U+10FFFF, truncated and stray bytes.
    func testInvalidUTF8() {
        let cases: [[UInt8]] = [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0x80], [0xFF],
        ]
        for sequence in cases {
            XCTAssertEqual(JSONParser.firstInvalidUTF8([0x22, 0x61] + sequence + [0x22]), 2, "\(sequence)")
        }
        for valid: [UInt8] in [[0x7F], [0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]] {
            XCTAssertNil(JSONParser.firstInvalidUTF8(valid), "\(valid)")
        }
    }

    func testDepthLimit() throws {
        let depth = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertNoThrow(try parse(deepest))
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        XCTAssertNoThrow(try parse(objects))
        let tooDeep = syntaxError("[" + deepest + "]")
        XCTAssertEqual(tooDeep?.offset, depth)
        XCTAssertEqual(tooDeep?.reason, "arrays and objects nested more than 128 levels deep")
    }

    /// The deepest document each dialect takes, objects and arrays alternating, parses
    /// and is released on a thread with 512 KiB of stack (a secondary thread's default on
    /// Apple platforms): the parser keeps open containers on a stack of its own.
    func testTheDeepestDocumentsFitASmallStack() throws {
        for dialect in [JSONDialect.rfc8259, .python] {
            let pairs = dialect.maximumDepth / 2
            let text = Array((String(repeating: #"{"a":["#, count: pairs) + "1" + String(repeating: "]}", count: pairs)).utf8)
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var parsed = false
            let thread = Thread {
                parsed = (try? JSONParser.parse(text, dialect: dialect)) != nil
                done.signal()
            }
            thread.stackSize = 512 << 10
            thread.start()
            done.wait()
            XCTAssertTrue(parsed, "\(dialect)")
        }
    }

    /// Whole numbers however written, exactly; fractions nil; values `T` cannot hold `.some(nil)`.
    func testExactInteger() {
        let cases: [(text: String, value: Int64??)] = [
            ("7", 7), ("-7", -7), ("0", 0), ("-0", 0), ("7.0", 7), ("7.000", 7), ("70e-1", 7), ("0.7e1", 7), ("7E+2", 700),
            ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min), ("9223372036854775808", .some(nil)),
            ("-9223372036854775809", .some(nil)), ("9007199254740993", 9_007_199_254_740_993), ("1e18", 1_000_000_000_000_000_000),
            ("1e19", .some(nil)), ("1e400", .some(nil)), ("1e99999999999999999999", .some(nil)), ("0e99999999999999999999", 0),
            ("0.0e-5", 0), ("7.5", nil), ("1e-1", nil), ("1e-99999999999999999999", nil), ("123456789012345678901234567890e-20", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONInput.exactInteger(text, as: Int64.self), expected, text)
        }
        XCTAssertEqual(JSONInput.exactInteger("255", as: UInt8.self), 255)
        XCTAssertEqual(JSONInput.exactInteger("256", as: UInt8.self), .some(nil))
        XCTAssertEqual(JSONInput.exactInteger("-1", as: UInt8.self), .some(nil))
    }

    func testPathDescription() {
        XCTAssertEqual(JSONPath.root.description, "$")
        let path = JSONPath.root.appending(key: "subscriptionGroups").appending(index: 0).appending(key: "subscriptions")
            .appending(index: 2).appending(key: "recurringSubscriptionPeriod")
        XCTAssertEqual(path.description, "$.subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod")
        XCTAssertEqual(JSONPath.root.appending(key: "$schema").description, "$['$schema']")
        XCTAssertEqual(JSONPath.root.appending(key: "it's a\\b").description, #"$['it\'s a\\b']"#)
        XCTAssertEqual(JSONPath.root.appending(key: "2fa").description, "$['2fa']")
        XCTAssertEqual(JSONPath.root.appending(key: "").description, "$['']")
        XCTAssertEqual(JSONPath.root.appending(key: "a\nb").description, #"$['a\u000ab']"#)
        XCTAssertEqual(JSONPath.root.appending(key: "_private1").description, "$._private1")
    }
}
