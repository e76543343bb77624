import StrictJSON
import XCTest

/// `JSONInput.decode`: any `Decodable` read through the strict parser, every refusal at
/// its JSONPath.
final class JSONValueDecoderTests: XCTestCase {
    struct Manifest: Decodable, Equatable {
        struct Entry: Decodable, Equatable {
            let id: String
            let expected: String
            var tags: [String]?
        }
        let version: Int
        let cases: [Entry]
    }

    /// Every field optional and of a different type, so each mismatch is reached alone.
    struct Fields: Decodable, Equatable {
        struct Nested: Decodable, Equatable { let x: Int }
        var s: String?
        var b: Bool?
        var i: Int?
        var d: Double?
        var a: [Int]?
        var o: Nested?
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String, dialect: JSONDialect = .rfc8259) throws -> T {
        try JSONInput.parse(Array(text.utf8), file: "t.json", dialect: dialect).decode(type)
    }

    /// The refusal of `text` as `T`; fails the test when it decodes.
    private func refusal<T: Decodable>(_ type: T.Type, _ text: String, dialect: JSONDialect = .rfc8259,
                                       file: StaticString = #filePath, line: UInt = #line) -> JSONInputError? {
        do {
            let value = try decode(type, text, dialect: dialect)
            XCTFail("\(text) decoded as \(value)", file: file, line: line)
        } catch let error as JSONInputError {
            return error
        } catch {
            XCTFail("not a JSONInputError: \(error)", file: file, line: line)
        }
        return nil
    }

    private func assertRefused<T: Decodable>(_ type: T.Type, _ text: String, at location: String, _ reason: String,
                                             file: StaticString = #filePath, line: UInt = #line) {
        let error = refusal(type, text, file: file, line: line)
        XCTAssertEqual(error?.kind, .invalid, text, file: file, line: line)
        XCTAssertEqual(error?.location, location, text, file: file, line: line)
        XCTAssertEqual(error?.reason, reason, text, file: file, line: line)
    }

    func testDecodesAWholeDocument() throws {
        let manifest = try decode(Manifest.self, #"{"version": 1, "cases": [{"id": "a", "expected": "valid", "tags": ["x"]}, {"id": "b", "expected": "invalid"}], "extra": {"ignored": [1, 2]}}"#)
        XCTAssertEqual(manifest, Manifest(version: 1, cases: [.init(id: "a", expected: "valid", tags: ["x"]),
                                                              .init(id: "b", expected: "invalid", tags: nil)]))
    }

    func testErrorsNameTheJSONPath() throws {
        let text = #"{"version": 1, "cases": [{"id": "a", "expected": "valid"}, {"id": "b", "expected": "valid"}, {"id": "c", "expected": "valid"}, {"id": "d", "expected": null}]}"#
        let error = refusal(Manifest.self, text)
        XCTAssertEqual(error?.location, "$.cases[3].expected")
        XCTAssertEqual(error?.description, "t.json: $.cases[3].expected: expected a string, found null")
        // Member names that are not identifiers are bracketed.
        assertRefused([String: Int].self, #"{"a b": "x"}"#, at: "$['a b']",
                      "expected an integer from -9223372036854775808 to 9223372036854775807, found a string")
        // A value found below the root keeps its path.
        let input = try JSONInput.parse(Array(#"{"outer": [{"inner": {"x": "1"}}]}"#.utf8), file: "t.json")
        let inner = try input.object(knownKeys: nil).required("outer").array()[0]
        XCTAssertThrowsError(try inner.decode([String: Fields.Nested].self)) {
            XCTAssertEqual(($0 as? JSONInputError)?.location, "$.outer[0].inner.x")
        }
    }

    func testWrongTypes() {
        let cases: [(text: String, location: String, reason: String)] = [
            (#"{"s": 1}"#, "$.s", "expected a string, found a number"),
            (#"{"b": 1}"#, "$.b", "expected true or false, found a number"),
            (#"{"b": "true"}"#, "$.b", "expected true or false, found a string"),
            (#"{"i": "1"}"#, "$.i", "expected an integer from -9223372036854775808 to 9223372036854775807, found a string"),
            (#"{"i": true}"#, "$.i", "expected an integer from -9223372036854775808 to 9223372036854775807, found a boolean"),
            (#"{"d": "1.5"}"#, "$.d", "expected a number, found a string"),
            (#"{"a": {}}"#, "$.a", "expected an array, found an object"),
            (#"{"a": [1, null]}"#, "$.a[1]", "expected an integer from -9223372036854775808 to 9223372036854775807, found null"),
            (#"{"o": []}"#, "$.o", "expected an object, found an array"),
            (#"{"o": {"x": null}}"#, "$.o.x", "expected an integer from -9223372036854775808 to 9223372036854775807, found null"),
            ("[]", "$", "expected an object, found an array"),
            ("null", "$", "expected an object, found null"),
        ]
        for (text, location, reason) in cases {
            assertRefused(Fields.self, text, at: location, reason)
        }
    }

    func testAbsentAndNullOptionalsAreNil() throws {
        XCTAssertEqual(try decode(Fields.self, "{}"), Fields())
        XCTAssertEqual(try decode(Fields.self, #"{"s": null, "o": null, "a": null}"#), Fields())
        XCTAssertEqual(try decode(Fields.self, #"{"s": "x", "o": {"x": 3}, "a": []}"#), Fields(s: "x", a: [], o: .init(x: 3)))
        XCTAssertEqual(try decode([Int?].self, "[1, null]"), [1, nil])
    }

    func testMissingKeys() {
        assertRefused(Manifest.self, #"{"version": 1}"#, at: "$.cases", "required field 'cases' is missing")
        assertRefused(Manifest.self, #"{"version": 1, "cases": [{"expected": "valid"}]}"#, at: "$.cases[0].id",
                      "required field 'id' is missing")
    }

    func testIntegersAreExactAtTheSixtyFourBitLimits() throws {
        XCTAssertEqual(try decode([Int64].self, "[9223372036854775807, -9223372036854775808]"), [.max, .min])
        XCTAssertEqual(try decode([UInt64].self, "[18446744073709551615, 0]"), [.max, 0])
        // Above 2^53 a Double would round; the text is read exactly.
        XCTAssertEqual(try decode([Int64].self, "[9007199254740993]"), [9_007_199_254_740_993])
        XCTAssertEqual(try decode([Int64].self, "[1e18, 7.0, 70e-1, -0]"), [1_000_000_000_000_000_000, 7, 7, 0])
        let int64 = "an integer from -9223372036854775808 to 9223372036854775807"
        assertRefused([Int64].self, "[9223372036854775808]", at: "$[0]", "expected \(int64), found 9223372036854775808")
        assertRefused([Int64].self, "[0, -9223372036854775809]", at: "$[1]", "expected \(int64), found -9223372036854775809")
        assertRefused([Int64].self, "[7.5]", at: "$[0]", "expected \(int64), found 7.5, which is not a whole number")
        assertRefused([Int64].self, "[1e19]", at: "$[0]", "expected \(int64), found 1e19")
        let uint64 = "an integer from 0 to 18446744073709551615"
        assertRefused([UInt64].self, "[18446744073709551616]", at: "$[0]", "expected \(uint64), found 18446744073709551616")
        assertRefused([UInt64].self, "[-1]", at: "$[0]", "expected \(uint64), found -1")
        XCTAssertEqual(try decode([Int8].self, "[127, -128]"), [127, -128])
        assertRefused([Int8].self, "[128]", at: "$[0]", "expected an integer from -128 to 127, found 128")
        XCTAssertEqual(try decode([String: UInt8].self, #"{"max": 255}"#), ["max": 255])
        assertRefused([String: UInt8].self, #"{"max": 256}"#, at: "$.max", "expected an integer from 0 to 255, found 256")
    }

    func testFloatingPoint() throws {
        XCTAssertEqual(try decode([Double].self, "[1.5, -2e3, 17, 9007199254740993]"), [1.5, -2000, 17, 9_007_199_254_740_992])
        XCTAssertEqual(try decode([Double].self, "[-0.0]")[0].sign, .minus)
        XCTAssertEqual(try decode([Double].self, "[1e-400]"), [0], "too small rounds to zero, as every reader does")
        assertRefused([Double].self, "[1e999]", at: "$[0]", "1e999 is too large for a Double")
        assertRefused([Float].self, "[1e39]", at: "$[0]", "1e39 is too large for a Float")
        // Python reads 1e999 as infinity, and NaN and Infinity as numbers.
        let python = try decode([Double].self, "[1e999, -Infinity, NaN]", dialect: .python)
        XCTAssertEqual(python[0], .infinity)
        XCTAssertEqual(python[1], -.infinity)
        XCTAssertTrue(python[2].isNaN)
    }

    func testNestedArrays() throws {
        XCTAssertEqual(try decode([[[Int]]].self, "[[[]], [[1], [2, 3]]]"), [[[]], [[1], [2, 3]]])
        assertRefused([String: [[Int]]].self, #"{"grid": [[1, 2], [3, 4, "x"]]}"#, at: "$.grid[1][2]",
                      "expected an integer from -9223372036854775808 to 9223372036854775807, found a string")
        // A type that reads a fixed number of elements is told where the array ended.
        struct Triple: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                for _ in 0..<3 { _ = try container.decode(Int.self) }
            }
        }
        assertRefused([Triple].self, "[[1, 2, 3], [1, 2]]", at: "$[1][2]", "expected another element, the array has only 2")
    }

    /// Unknown members are ignored unless the type itself refuses them.
    func testUnknownKeysAreTheTypesDecision() throws {
        struct AnyKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
            var intValue: Int? { nil }
        }
        struct Closed: Decodable {
            enum CodingKeys: String, CodingKey, CaseIterable { case id }
            let id: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                if let unknown = container.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
                    throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [unknown],
                                                            debugDescription: "unknown field '\(unknown.stringValue)'"))
                }
                id = try container.decode(String.self, forKey: AnyKey(stringValue: "id"))
            }
        }
        struct Keys: Decodable {
            let names: [String]
            init(from decoder: any Decoder) throws { names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue) }
        }
        XCTAssertEqual(try decode(Manifest.Entry.self, #"{"id": "a", "expected": "valid", "later": 1}"#).id, "a")
        XCTAssertEqual(try decode(Closed.self, #"{"id": "a"}"#).id, "a")
        assertRefused([Closed].self, #"[{"id": "a", "later": 1}]"#, at: "$[0].later", "unknown field 'later'")
        XCTAssertEqual(try decode(Keys.self, #"{"z": 1, "a": 2, "m": 3}"#).names, ["z", "a", "m"], "in document order")
    }

    /// A repeated member is refused, even one the type does not read; in the python
    /// dialect the last value wins, as in Python's dict.
    func testRepeatedMembers() throws {
        assertRefused(Manifest.Entry.self, #"{"id": "a", "expected": "valid", "id": "b"}"#, at: "$.id",
                      "the field 'id' appears twice in this object")
        assertRefused(Manifest.Entry.self, #"{"id": "a", "expected": "valid", "x": 1, "x": 2}"#, at: "$.x",
                      "the field 'x' appears twice in this object")
        XCTAssertEqual(try decode(Manifest.Entry.self, #"{"id": "a", "expected": "valid", "id": "b"}"#, dialect: .python).id, "b")
    }

    func testRawValuesAndTheTypesOwnErrors() {
        enum Kind: String, Decodable { case a, b }
        let error = refusal([String: Kind].self, #"{"kind": "c"}"#)
        XCTAssertEqual(error?.location, "$.kind")
        XCTAssertTrue(error?.reason.contains("c") == true, "\(String(describing: error))")

        struct Refuses: Decodable {
            struct Why: Error, CustomStringConvertible { var description: String { "not today" } }
            init(from decoder: any Decoder) throws { throw Why() }
        }
        let own = refusal(Refuses.self, "{}")
        XCTAssertEqual(own?.location, "$")
        XCTAssertEqual(own?.reason, "not today")
    }

    func testSuperDecoder() throws {
        class Base: Decodable {
            let a: Int
        }
        final class Derived: Base {
            let b: Int
            enum CodingKeys: String, CodingKey { case b }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                b = try container.decode(Int.self, forKey: .b)
                try super.init(from: container.superDecoder())
            }
        }
        let derived = try decode(Derived.self, #"{"b": 1, "super": {"a": 2}}"#)
        XCTAssertEqual([derived.a, derived.b], [2, 1])
        assertRefused(Derived.self, #"{"b": 1}"#, at: "$.super", "expected an object, found null")
    }

    func testSyntaxErrorsGiveLineColumnAndOffset() {
        XCTAssertThrowsError(try JSONInput.parse(Array("{\n  \"a\": tru\n}".utf8), file: "t.json")) {
            let error = $0 as? JSONInputError
            XCTAssertEqual(error?.kind, .malformedJSON)
            XCTAssertEqual(error?.location, "$")
            XCTAssertEqual(error?.reason, "invalid JSON at line 2, column 8 (byte offset 9): expected a JSON value, found 't' "
                               + "(literals are true, false and null, in lowercase)")
        }
    }
}
