import Foundation
import TestSupport
import XCTest

/// One of `Schemas/*.schema.json`, read as plain JSON, for the checks Python's
/// `jsonschema` does not make: which values a schema enumerates, which fields it
/// declares, and whether it describes them.
struct SchemaDocument {
    let name: String
    let root: [String: Any]

    init(_ name: String) throws {
        self.name = name
        let data = try Data(contentsOf: JSONSchemaOracle.schemaURL(name))
        root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name) is not an object")
        XCTAssertEqual(root["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema", name)
    }

    /// The value at `path` (member names from the root).
    func value(_ path: String...) throws -> Any? {
        var current: Any? = root
        for key in path {
            current = try XCTUnwrap(current as? [String: Any], "\(name): \(path) leaves the objects")[key]
        }
        return current
    }

    /// The `enum` of the subschema at `path`.
    func enumeration(_ path: String...) throws -> [String] {
        var current: Any? = root
        for key in path { current = (current as? [String: Any])?[key] }
        let schema = try XCTUnwrap(current as? [String: Any], "\(name): no subschema at \(path)")
        return try XCTUnwrap(resolved(schema)["enum"] as? [String], "\(name): no enum at \(path)")
    }

    /// `schema`, or what its local `$ref` (`#/$defs/NAME`) points to.
    func resolved(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String, reference.hasPrefix("#/") else { return schema }
        var current: Any? = root
        for key in reference.dropFirst(2).split(separator: "/") { current = (current as? [String: Any])?[String(key)] }
        return resolved(current as? [String: Any] ?? [:])
    }

    /// For each object of `document` the schema describes (by document path): the fields
    /// the schema declares there and those the document writes.
    func collectFields(of document: Any, into fields: inout [String: (declared: Set<String>, written: Set<String>)]) {
        collect(document, schema: root, path: "", into: &fields)
    }

    private func collect(_ document: Any, schema unresolved: [String: Any], path: String,
                         into fields: inout [String: (declared: Set<String>, written: Set<String>)]) {
        let schema = resolved(unresolved)
        for alternative in (schema["oneOf"] as? [[String: Any]] ?? []) + (schema["anyOf"] as? [[String: Any]] ?? []) {
            collect(document, schema: alternative, path: path, into: &fields)
        }
        if let properties = schema["properties"] as? [String: Any], let object = document as? [String: Any] {
            var entry = fields[path] ?? ([], [])
            entry.declared.formUnion(properties.keys)
            entry.written.formUnion(object.keys)
            fields[path] = entry
            for (key, value) in object {
                if let property = properties[key] as? [String: Any] {
                    collect(value, schema: property, path: path + "/" + key, into: &fields)
                }
            }
        }
        if let items = schema["items"] as? [String: Any], let array = document as? [Any] {
            for element in array { collect(element, schema: items, path: path + "/[]", into: &fields) }
        }
    }

    /// Every declared field has a description, and every object schema refuses fields
    /// it does not declare.
    func assertDescribedAndClosed(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse((root["description"] as? String ?? "").isEmpty, "\(name) has no description", file: file, line: line)
        var visited = 0
        walk(root, path: "#") { schema, path in
            guard let properties = schema["properties"] as? [String: Any] else { return }
            visited += 1
            XCTAssertEqual(schema["additionalProperties"] as? Bool, false, "\(name) \(path) is open", file: file, line: line)
            for (key, value) in properties {
                let description = (value as? [String: Any])?["description"] as? String
                XCTAssertFalse(description?.isEmpty ?? true, "\(name) \(path)/\(key) has no description", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(visited, 1, "\(name): no object schemas found", file: file, line: line)
    }

    /// Visits every subschema but the conditional ones (`if`, `then`, `else`, `not`),
    /// which only narrow fields declared beside them.
    private func walk(_ schema: [String: Any], path: String, _ visit: ([String: Any], String) -> Void) {
        visit(schema, path)
        for (key, value) in schema where !["if", "then", "else", "not"].contains(key) {
            if let child = value as? [String: Any] {
                // `properties` and `$defs` map names to schemas; other keywords hold one.
                if key == "properties" || key == "$defs" {
                    for (name, subschema) in child {
                        if let subschema = subschema as? [String: Any] { walk(subschema, path: "\(path)/\(key)/\(name)", visit) }
                    }
                } else {
                    walk(child, path: "\(path)/\(key)", visit)
                }
            } else if let children = value as? [[String: Any]] {
                for (index, child) in children.enumerated() { walk(child, path: "\(path)/\(key)/\(index)", visit) }
            }
        }
    }
}
