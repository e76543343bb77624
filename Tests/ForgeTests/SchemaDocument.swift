import Foundation
import StrictJSON
import TestSupport
import XCTest

/// One of `Schemas/*.schema.json`, read by the strict parser as plain JSON, for the
/// checks Python's `jsonschema` does not make: which values a schema enumerates, which
/// fields it declares, and whether it describes them.
struct SchemaDocument {
    let name: String
    let root: JSONValue

    init(_ name: String) throws {
        self.name = name
        root = try JSONValue(contentsOf: JSONSchemaOracle.schemaURL(name))
        XCTAssertNotNil(root.objectValue, "\(name) is not an object")
        XCTAssertEqual(root["$schema"]?.stringValue, "https://json-schema.org/draft/2020-12/schema", name)
    }

    /// The value at `path` (member names from the root).
    func value(_ path: String...) throws -> JSONValue? {
        var current: JSONValue? = root
        for key in path {
            current = try XCTUnwrap(Self.object(current), "\(name): \(path) leaves the objects")[key]
        }
        return current
    }

    /// The `enum` of the subschema at `path`.
    func enumeration(_ path: String...) throws -> [String] {
        var current: JSONValue? = root
        for key in path { current = Self.object(current)?[key] }
        let schema = try XCTUnwrap(Self.object(current), "\(name): no subschema at \(path)")
        return try XCTUnwrap(resolved(schema)["enum"]?.strings, "\(name): no enum at \(path)")
    }

    /// `schema`, or what its local `$ref` (`#/$defs/NAME`) points to.
    func resolved(_ schema: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/") else { return schema }
        var current: JSONValue? = root
        for key in reference.dropFirst(2).split(separator: "/") { current = current?[String(key)] }
        return resolved(Self.object(current) ?? [:])
    }

    /// For each object of `document` the schema describes (by document path): the fields
    /// the schema declares there and those the document writes.
    func collectFields(of document: JSONValue, into fields: inout [String: (declared: Set<String>, written: Set<String>)]) {
        collect(document, schema: root, path: "", into: &fields)
    }

    private func collect(_ document: JSONValue, schema unresolved: JSONValue, path: String,
                         into fields: inout [String: (declared: Set<String>, written: Set<String>)]) {
        let schema = resolved(unresolved)
        for alternative in (schema["oneOf"]?.arrayValue ?? []) + (schema["anyOf"]?.arrayValue ?? []) where alternative.objectValue != nil {
            collect(document, schema: alternative, path: path, into: &fields)
        }
        if let properties = Self.object(schema["properties"]), let members = document.objectValue {
            var entry = fields[path] ?? ([], [])
            entry.declared.formUnion(properties.objectValue?.map(\.key) ?? [])
            entry.written.formUnion(members.map(\.key))
            fields[path] = entry
            for member in members {
                if let property = Self.object(properties[member.key]) {
                    collect(member.value, schema: property, path: path + "/" + member.key, into: &fields)
                }
            }
        }
        if let items = Self.object(schema["items"]), let elements = document.arrayValue {
            for element in elements { collect(element, schema: items, path: path + "/[]", into: &fields) }
        }
    }

    /// Every declared field has a description, and every object schema refuses fields
    /// it does not declare.
    func assertDescribedAndClosed(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse((root["description"]?.stringValue ?? "").isEmpty, "\(name) has no description", file: file, line: line)
        var visited = 0
        walk(root, path: "#") { schema, path in
            guard let properties = schema["properties"]?.objectValue else { return }
            visited += 1
            XCTAssertEqual(schema["additionalProperties"]?.boolValue, false, "\(name) \(path) is open", file: file, line: line)
            for property in properties {
                let description = property.value["description"]?.stringValue
                XCTAssertFalse(description?.isEmpty ?? true, "\(name) \(path)/\(property.key) has no description", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(visited, 0, "\(name): no object schemas found", file: file, line: line)
    }

    /// Visits every subschema but the conditional ones (`if`, `then`, `else`, `not`),
    /// which only narrow fields declared beside them.
    private func walk(_ schema: JSONValue, path: String, _ visit: (JSONValue, String) -> Void) {
        visit(schema, path)
        for member in schema.objectValue ?? [] where !["if", "then", "else", "not"].contains(member.key) {
            if let children = member.value.objectValue {
                // `properties` and `$defs` map names to schemas; other keywords hold one.
                if member.key == "properties" || member.key == "$defs" {
                    for child in children where child.value.objectValue != nil {
                        walk(child.value, path: "\(path)/\(member.key)/\(child.key)", visit)
                    }
                } else {
                    walk(member.value, path: "\(path)/\(member.key)", visit)
                }
            } else if let elements = member.value.arrayValue {
                for (index, child) in elements.enumerated() where child.objectValue != nil {
                    walk(child, path: "\(path)/\(member.key)/\(index)", visit)
                }
            }
        }
    }

    /// `value` when it is an object.
    private static func object(_ value: JSONValue?) -> JSONValue? {
        value?.objectValue == nil ? nil : value
    }
}
