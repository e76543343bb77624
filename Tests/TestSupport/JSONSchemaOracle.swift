import Foundation
import XCTest

/// Python's `jsonschema` (draft 2020-12) as an independent judge of the JSON files the
/// forge writes: `Schemas/*.schema.json` against real output. Skips (or, with `CI`
/// set, fails) like `PythonOracle` when the module is missing.
public enum JSONSchemaOracle {
    /// `Schemas/NAME.schema.json` in the package.
    public static func schemaURL(_ name: String) -> URL {
        ChildProcess.packageRoot.appendingPathComponent("Schemas/\(name).schema.json")
    }

    /// What the schema at `schema` finds wrong with each document, in order: an empty
    /// list for a document it accepts. Documents travel as written (no round trip through a
    /// parser, which could change how a number is written). The schema itself
    /// is checked against the draft 2020-12 metaschema first.
    ///
    /// `definition` (a JSON pointer such as `/$defs/request/$defs/buyProduct`) judges the
    /// documents by that part of the schema instead of the whole; `resources` are the
    /// other schemas its `$ref`s name by `$id`.
    public static func errors(in documents: [String], schema: URL, definition: String? = nil,
                              resources: [URL] = []) throws -> [[String]] {
        try PythonOracle.require(module: "jsonschema")
        let input = Data(("[" + documents.joined(separator: ",\n") + "]").utf8)
        let output = try runPython(script, arguments: [schema.path, definition ?? ""] + resources.map(\.path), input: input)
        let decoded = try? decodeJSON([[String]].self, from: output)
        guard let decoded, decoded.count == documents.count else {
            throw PythonFailed(status: 0, standardError: "unexpected output: " + String(decoding: output, as: UTF8.self))
        }
        return decoded
    }

    private static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        resources = [json.load(open(path)) for path in sys.argv[3:]]
        for resource in resources:
            Draft202012Validator.check_schema(resource)
        registry = Registry().with_resources(
            [(document["$id"], Resource.from_contents(document)) for document in [schema] + resources if "$id" in document])
        target = {"$ref": schema["$id"] + "#" + sys.argv[2]} if sys.argv[2] else schema
        validator = Draft202012Validator(target, registry=registry)
        def where(error):
            return "/" + "/".join(str(part) for part in error.absolute_path)
        print(json.dumps([[where(e) + ": " + e.message[:300] for e in validator.iter_errors(document)]
                          for document in json.load(sys.stdin)]))
        """

    private struct PythonFailed: Error, CustomStringConvertible {
        let status: Int32
        let standardError: String
        var description: String { "python3 exited with \(status): \(standardError)" }
    }

    private static func runPython(_ script: String, arguments: [String], input: Data) throws -> Data {
        let result = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script] + arguments),
                                          input: input)
        guard result.status == 0 else { throw PythonFailed(status: result.status, standardError: result.standardError) }
        return Data(result.standardOutput.utf8)
    }
}
