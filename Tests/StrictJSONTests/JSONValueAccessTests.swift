import Foundation
import StrictJSON
import XCTest

/// Reading, editing and writing back a `JSONValue` directly.
final class JSONValueAccessTests: XCTestCase {
    private func written(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func testAccessorsReadOnlyTheirOwnKind() throws {
        let value = try JSONParser.parse(Array(#"{"s": "1", "i": 1, "f": 1.5, "w": 2.0, "b": true, "n": null, "a": ["x", 2], "o": {}}"#.utf8))
        XCTAssertEqual(value["s"]?.stringValue, "1")
        XCTAssertNil(value["s"]?.intValue, "a string is no integer")
        XCTAssertEqual(value["i"]?.intValue, 1)
        XCTAssertNil(value["i"]?.boolValue, "1 is no boolean")
        XCTAssertNil(value["f"]?.intValue)
        XCTAssertEqual(value["w"]?.intValue, 2, "a whole number however written")
        XCTAssertEqual(value["f"]?.doubleValue, 1.5)
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["n"]?.isNull, true)
        XCTAssertEqual(value["a"]?[0]?.stringValue, "x")
        XCTAssertNil(value["a"]?[2])
        XCTAssertEqual(value["o"]?.objectValue?.count, 0)
        XCTAssertNil(value["missing"])
        XCTAssertNil(value["a"]?["x"], "an array has no members")
    }

    func testEditing() throws {
        var value: JSONValue = ["a": 1, "b": ["c": [true, "d"]]]
        value["a"] = "one"
        value["b"]?["c"]?[1] = .null
        value["e"] = []
        value["missing"]?["x"] = 1  // nothing to edit
        XCTAssertEqual(value, ["a": "one", "b": ["c": [true, .null]], "e": []])
        value["b"] = nil
        XCTAssertEqual(value, ["a": "one", "e": []])
    }

    func testWritingBack() throws {
        let text = #"{"z":[9223372036854775807,-9223372036854775808,18446744073709551615,1.5,1e2,-0],"a":{"s":"a/b\n","t":true,"n":null}}"#
        XCTAssertEqual(try written(try JSONParser.parse(Array(text.utf8))),
                       #"{"a":{"n":null,"s":"a/b\n","t":true},"z":[9223372036854775807,-9223372036854775808,18446744073709551615,1.5,100,0]}"#)
        // A repeated name is written once, with its last value.
        XCTAssertEqual(try written(.object([JSONMember(key: "a", value: 1), JSONMember(key: "a", value: 2)])), #"{"a":2}"#)
        // NaN and infinities follow the encoder's strategy.
        let python = try JSONParser.parse(Array("[NaN]".utf8), dialect: .python)
        XCTAssertThrowsError(try written(python))
    }
}
