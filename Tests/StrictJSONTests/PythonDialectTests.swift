import Foundation
import StrictJSON
import TestSupport
import XCTest

/// The `python` dialect reads what Python's `json.loads` reads from bytes, and reads it
/// the same way; `rfc8259` refuses each of those departures. Checked value by value
/// here, and against Python itself on every input of `inputs` where `python3` exists.
final class PythonDialectTests: XCTestCase {
    private func python(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes, dialect: .python) }
    private func python(_ text: String) throws -> JSONValue { try python(Array(text.utf8)) }

    private func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        ((byteOrderMark ? [0xFEFF] : []) + Array(text.utf16)).flatMap { (unit: UInt16) -> [UInt8] in
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            return bigEndian ? [high, low] : [low, high]
        }
    }

    private func utf32(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        ((byteOrderMark ? [0xFEFF] : []) + text.unicodeScalars.map(\.value)).flatMap { (value: UInt32) -> [UInt8] in
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
            return bigEndian ? bytes : bytes.reversed()
        }
    }

    func testRepeatedNamesKeepTheFirstPlaceAndTheLastValue() throws {
        XCTAssertEqual(try python(#"{"a": 1, "b": 2, "a": 3}"#), ["a": 3, "b": 2])
        XCTAssertEqual(try JSONParser.parse(Array(#"{"a": 1, "a": 3}"#.utf8)), .object([JSONMember(key: "a", value: 1), JSONMember(key: "a", value: 3)]),
                       "rfc8259 keeps both for the reader to refuse")
    }

    func testNonFiniteNumbers() throws {
        XCTAssertEqual(try python("[NaN, Infinity, -Infinity, 1e999]"), .array([.number("NaN"), .number("Infinity"), .number("-Infinity"), .number("1e999")]))
        for text in ["[NaN]", "[Infinity]", "[-Infinity]"] {
            XCTAssertThrowsError(try JSONParser.parse(Array(text.utf8)), text)
        }
        for text in ["[nan]", "[-NaN]", "[Infinity1]", "[-Inf]", "[+Infinity]"] {
            XCTAssertThrowsError(try python(text), text)
        }
    }

    func testEncodingsAreDetectedAsPythonDoes() throws {
        let text = #"{"é": ["😀", 1]}"#
        let expected = try JSONParser.parse(Array(text.utf8))
        let encodings: [(String, [UInt8])] = [
            ("UTF-8 with a byte order mark", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            ("UTF-16LE", utf16(text, bigEndian: false, byteOrderMark: false)),
            ("UTF-16BE", utf16(text, bigEndian: true, byteOrderMark: false)),
            ("UTF-16LE with a byte order mark", utf16(text, bigEndian: false, byteOrderMark: true)),
            ("UTF-16BE with a byte order mark", utf16(text, bigEndian: true, byteOrderMark: true)),
            ("UTF-32LE", utf32(text, bigEndian: false, byteOrderMark: false)),
            ("UTF-32BE", utf32(text, bigEndian: true, byteOrderMark: false)),
            ("UTF-32LE with a byte order mark", utf32(text, bigEndian: false, byteOrderMark: true)),
            ("UTF-32BE with a byte order mark", utf32(text, bigEndian: true, byteOrderMark: true)),
        ]
        for (name, bytes) in encodings {
            XCTAssertEqual(try python(bytes), expected, name)
            if !name.hasPrefix("UTF-8") { XCTAssertThrowsError(try JSONParser.parse(bytes), "rfc8259 reads UTF-8 only: \(name)") }
        }
        // Two bytes, one of them zero: one UTF-16 unit.
        XCTAssertEqual(try python([0x37, 0x00]), 7)
        XCTAssertEqual(try python([0x00, 0x37]), 7)
        // Only the first byte order mark is the codec's.
        XCTAssertThrowsError(try python([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("1".utf8)))
        XCTAssertThrowsError(try python(utf16("\u{FEFF}1", bigEndian: false, byteOrderMark: true)))
        XCTAssertThrowsError(try python(Array(utf16("1", bigEndian: false, byteOrderMark: true).dropLast()))) { error in
            XCTAssertEqual((error as? JSONParser.SyntaxError)?.reason, "invalid UTF-16: an odd number of bytes")
        }
        XCTAssertThrowsError(try python([0x00, 0x00, 0x00, 0x31, 0x00, 0x11, 0x00, 0x00])) { error in
            XCTAssertEqual((error as? JSONParser.SyntaxError)?.reason, "invalid UTF-32: code point 0x110000 is above U+10FFFF")
            XCTAssertEqual((error as? JSONParser.SyntaxError)?.offset, 4)
        }
    }

    /// Python keeps unpaired surrogates; a Swift string cannot, so they read as U+FFFD.
    func testUnpairedSurrogatesReadAsReplacementCharacters() throws {
        let cases: [(String, [UInt8])] = [
            ("\u{FFFD}", Array(#""\ud800""#.utf8)),
            ("\u{FFFD}", Array(#""\udc00""#.utf8)),
            ("\u{FFFD}A", Array(#""\ud800\u0041""#.utf8)),
            ("\u{FFFD}😀", Array(#""\ud83d\ud83d\ude00""#.utf8)),
            ("a\u{FFFD}b", [0x22, 0x61, 0xED, 0xA0, 0x80, 0x62, 0x22]),
            ("\u{FFFD}\u{FFFD}", [0x22, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0x22]),  // CESU-8: two surrogates, not a pair
            ("\u{FFFD}", utf16("\"", bigEndian: false, byteOrderMark: false) + [0x00, 0xD8] + utf16("\"", bigEndian: false, byteOrderMark: false)),
        ]
        for (expected, bytes) in cases {
            XCTAssertEqual(try python(bytes), .string(expected), "\(bytes)")
        }
        XCTAssertThrowsError(try python([0x22, 0xED, 0xA0, 0x22]), "a truncated surrogate is still invalid UTF-8")
        XCTAssertThrowsError(try python([0x22, 0xFF, 0x22]))
    }

    func testIntegerDigitLimit() throws {
        let limit = JSONParser.pythonIntegerDigitLimit
        XCTAssertEqual(limit, 4300)
        let longest = String(repeating: "9", count: limit)
        XCTAssertEqual(try python("[-\(longest)]"), .array([.number("-" + longest)]))
        XCTAssertThrowsError(try python("[1, -\(longest)9]")) { error in
            XCTAssertEqual((error as? JSONParser.SyntaxError)?.offset, 4)
            XCTAssertEqual((error as? JSONParser.SyntaxError)?.reason, "an integer of 4301 digits, more than the 4300 Python converts")
        }
        XCTAssertNoThrow(try python("[\(longest)9.5, \(longest)9e1]"), "floats have no digit limit")
        XCTAssertNoThrow(try JSONParser.parse(Array("[\(longest)9]".utf8)), "nor has rfc8259")
    }

    func testDepthLimit() throws {
        let depth = JSONDialect.python.maximumDepth
        XCTAssertEqual(depth, 512)
        XCTAssertNoThrow(try python(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
        XCTAssertThrowsError(try python(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1))) { error in
            XCTAssertEqual((error as? JSONParser.SyntaxError)?.reason, "arrays and objects nested more than 512 levels deep")
        }
    }

    // MARK: Against Python

    /// Inputs on both sides of every rule: what Python reads must be read the same,
    /// what it refuses must be refused.
    private var inputs: [[UInt8]] {
        let texts = [
            #"{"a": 1}"#, #"[1, 2.5, -0, -0.0, 1e2, 1E-2, 123456789012345678901234567890, true, false, null, "x"]"#,
            #"["\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\", "😀", "\u2028", "\u0000", "\u007f"]"#,
            #"{"a": 1, "b": 2, "a": 3}"#, #"{"a": {"x": 1}, "a": [2]}"#, #"{"": 1, "": 2}"#,
            "[NaN, Infinity, -Infinity]", "[1e999, -1e999, 1e-400, 4.9e-324, 1.7976931348623157e308, 0.1, 100.0, 1e16, 1e-5]",
            #"["\ud800", "\udc00", "\ud800\u0041", "\ud83d\ud83d\ude00"]"#,
            " \t\r\n[1]\n ", "[1,]", #"{"a": 1,}"#, "[01]", "{'a': 1}", "[1 2]", "nan", "[-NaN]", "[Infinity1]", "[+1]", "[.5]",
            "[1.]", "[1e]", "[--1]", "", " ", "\u{0C}{}", "{} x", #"["\x"]"#, #"{"a":"#, "[\"a\tb\"]", "[tru]", "[True]",
            "[" + String(repeating: "1", count: 4300) + "]", "[" + String(repeating: "1", count: 4301) + "]",
            "[-" + String(repeating: "1", count: 4301) + "]", "[" + String(repeating: "1", count: 4301) + ".5]",
            String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
            "\u{FEFF}{}",
        ]
        let unicode = #"{"é": ["😀", 1, "\ud800"]}"#
        return texts.map { Array($0.utf8) } + [
            [0xEF, 0xBB, 0xBF] + Array("{}".utf8), [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8),
            [0x22, 0x61, 0xED, 0xA0, 0x80, 0x62, 0x22], [0x22, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x22],
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x37, 0x00], [0x00, 0x37], [0x31, 0x20, 0x00],
            utf16(unicode, bigEndian: false, byteOrderMark: false), utf16(unicode, bigEndian: true, byteOrderMark: false),
            utf16(unicode, bigEndian: false, byteOrderMark: true), utf16(unicode, bigEndian: true, byteOrderMark: true),
            utf32(unicode, bigEndian: false, byteOrderMark: false), utf32(unicode, bigEndian: true, byteOrderMark: true),
            Array(utf16("[1]", bigEndian: false, byteOrderMark: false).dropLast()), Array(utf32("[1]", bigEndian: true, byteOrderMark: false).dropLast()),
            utf16("\"", bigEndian: true, byteOrderMark: false) + [0xD8, 0x00] + utf16("\"", bigEndian: true, byteOrderMark: false),
            [0x00, 0x00, 0x00, 0x5B, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5D],
        ]
    }

    /// Python's answer for each input, one line each: "error", or the value in the
    /// notation of `notation(_:)`.
    private static let script = """
        import json, sys
        def notation(v):
            if v is None: return "n"
            if v is True: return "t"
            if v is False: return "f"
            if isinstance(v, int): return "i" + str(v)
            if isinstance(v, float): return "d" + repr(v)
            if isinstance(v, str):
                return "s" + "".join("\\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in v).encode("utf-8").hex()
            if isinstance(v, list): return "[" + ",".join(notation(x) for x in v) + "]"
            return "{" + ",".join(notation(k) + ":" + notation(x) for k, x in v.items()) + "}"
        for line in sys.stdin:
            try:
                print(notation(json.loads(bytes.fromhex(line.strip()))))
            except (ValueError, RecursionError):
                print("error")
        """

    /// The script's notation of a value of the python dialect: Python's `int` for an
    /// integer literal, its `float` repr otherwise.
    private func notation(_ value: JSONValue) -> String {
        switch value {
        case .null: return "n"
        case .bool(let flag): return flag ? "t" : "f"
        case .number(let text):
            if text.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }) {
                return "i" + (text.allSatisfy { $0 == "-" || $0 == "0" } ? "0" : text)
            }
            return "d" + Double(text)!.description
        case .string(let text): return "s" + text.utf8.map { String(format: "%02x", $0) }.joined()
        case .array(let elements): return "[" + elements.map(notation).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { notation(.string($0.key)) + ":" + notation($0.value) }.joined(separator: ",") + "}"
        }
    }

    func testPythonReadsEveryInputAsWeDo() throws {
        try PythonOracle.require(module: "json")
        let inputs = inputs
        let lines = inputs.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n") + "\n"
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", Self.script]), input: Data(lines.utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        let answers = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(answers.count, inputs.count)
        var refused = 0
        for (input, python) in zip(inputs, answers) {
            let ours = (try? self.python(input)).map(notation) ?? "error"
            XCTAssertEqual(ours, python, "input \(String(decoding: input.prefix(80), as: UTF8.self).debugDescription) \(input.prefix(12))")
            if python == "error" { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 20, "the inputs include refusals")
        XCTAssertLessThan(refused, inputs.count - 20, "and documents Python reads")
    }
}
