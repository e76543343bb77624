import ForgeSupport
import Foundation
import StoreKit2
import StoreKit2Verifier
import StrictJSON
import TestSupport
import XCTest

/// The pieces of Python our verifier reproduces to answer as Apple's library does, each
/// against the Python of the oracle venv: `b64decode(validate=True)` (x5c), `repr` of a
/// float (what `str()` gives a JSON number cattrs converts), and the table of Apple's
/// payload models cattrs structures into.
final class PythonReadingTests: XCTestCase {
    private func python(_ script: String, input: String) throws -> [String] {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script]), input: Data(input.utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        return run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Random strings over the characters `b64decode` tells apart (padding anywhere, the
    /// URL-safe pair, white space, a non-ASCII letter), decoded by both.
    func testBase64DecodesAsPython() throws {
        let alphabet = Array("AQgw+/=-_ \u{e9}")
        var random = DeterministicRandom(seed: 28)
        var inputs = ["", "AA==", "AA=", "AAAA====", "AAAA=A", "A", "=", "AB==", "AA==AA==", "AAA=A"]
        for _ in 0..<3_000 {
            let length = random.int(in: 0..<13)
            inputs.append(String((0..<length).map { _ in alphabet[random.int(in: 0..<alphabet.count)] }))
        }
        let script = """
            import base64, sys
            for line in sys.stdin.read().split("\\n")[:-1]:
                try:
                    print(base64.b64decode(line.encode("utf-8").decode("unicode_escape"), validate=True).hex())
                except Exception:
                    print("error")
            """
        // Each input travels as ASCII with \\u escapes, so the line structure survives.
        let escaped = inputs.map { text in
            text.unicodeScalars.map { $0.isASCII && $0 != "\\" ? String($0) : String(format: "\\u%04x", $0.value) }.joined()
        }
        let answers = try python(script, input: escaped.joined(separator: "\n") + "\n")
        XCTAssertEqual(answers.count, inputs.count)
        var decoded = 0
        for (input, answer) in zip(inputs, answers) {
            let ours = PythonBase64.decode(input).map { $0.map { String(format: "%02x", $0) }.joined() } ?? "error"
            XCTAssertEqual(ours, answer, "b64decode('\(input)')")
            if answer != "error" { decoded += 1 }
        }
        XCTAssertGreaterThan(decoded, 100, "too few inputs decode for the comparison to mean much")
    }

    /// `repr(float)` of numbers written as JSON writes them, across the switch to
    /// scientific notation at 1e16 and 1e-4.
    func testFloatsPrintAsPythonsRepr() throws {
        var texts = ["0.0", "-0.0", "1.0", "1e16", "9999999999999998.0", "1e15", "123456789012345678.0", "0.0001",
                     "0.00001", "1.5e-7", "1e22", "1e-320", "1.7976931348623157e308", "-2.5", "1234567890.0", "0.1",
                     "100.0", "1e100", "5e-324"]
        var random = DeterministicRandom(seed: 5)
        for _ in 0..<500 {
            let bits = random.next()
            let value = Double(bitPattern: bits)
            if value.isFinite { texts.append("\(value)") }
        }
        let answers = try python("import sys\nfor line in sys.stdin.read().split()[:]:\n    print(repr(float(line)))",
                                 input: texts.joined(separator: "\n") + "\n")
        XCTAssertEqual(answers.count, texts.count)
        for (text, answer) in zip(texts, answers) {
            XCTAssertEqual(PythonStr.floatRepr(Double(text)!), answer, "repr(float('\(text)'))")
        }
    }

    /// `AppleModel` lists the fields and types of the library's models, no more, no fewer.
    func testAppleModelTableIsTheLibrarys() throws {
        func describe(_ model: AppleModel, _ lines: inout [String], _ seen: inout Set<String>) {
            guard seen.insert(model.name).inserted else { return }
            func typeName(_ type: AppleModel.FieldType) -> String {
                switch type {
                case .str: return "str"
                case .int: return "int"
                case .bool: return "bool"
                case .list(let element): return "list[\(typeName(element))]"
                case .model(let nested): return nested.name
                }
            }
            lines.append(model.name + " " + model.fields.map { "\($0.name):\(typeName($0.type))" }.sorted().joined(separator: " "))
            for field in model.fields {
                var fieldType = field.type
                while case .list(let element) = fieldType { fieldType = element }
                if case .model(let nested) = fieldType { describe(nested, &lines, &seen) }
            }
        }
        var ours: [String] = []
        var seen: Set<String> = []
        for kind in [JWSKind.transaction, .renewalInfo, .notification, .appTransaction] { describe(AppleModel.of(kind), &ours, &seen) }

        let script = """
            import attr, typing
            from appstoreserverlibrary.models.JWSTransactionDecodedPayload import JWSTransactionDecodedPayload
            from appstoreserverlibrary.models.JWSRenewalInfoDecodedPayload import JWSRenewalInfoDecodedPayload
            from appstoreserverlibrary.models.ResponseBodyV2DecodedPayload import ResponseBodyV2DecodedPayload
            from appstoreserverlibrary.models.AppTransaction import AppTransaction
            seen = set()
            def name(t):
                args = [a for a in typing.get_args(t) if a is not type(None)]
                if typing.get_origin(t) is typing.Union: t = args[0]
                if attr.has(t): return t.__name__
                if typing.get_origin(t) in (list, typing.List): return "list[" + name(typing.get_args(t)[0]) + "]"
                return t.__name__
            def show(cls):
                if cls.__name__ in seen: return
                seen.add(cls.__name__)
                fields, nested = [], []
                for f in attr.fields(cls):
                    if f.metadata.get("typeOfField") == "main": continue
                    key = f.metadata["correspondingFieldName"] if f.metadata.get("typeOfField") == "raw" else f.name
                    fields.append(key + ":" + name(f.type))
                    t = f.type
                    while True:
                        args = [a for a in typing.get_args(t) if a is not type(None)]
                        if not args: break
                        t = args[0]
                    if attr.has(t): nested.append(t)
                print(cls.__name__ + " " + " ".join(sorted(fields)))
                for t in nested: show(t)
            for cls in [JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload, ResponseBodyV2DecodedPayload, AppTransaction]:
                show(cls)
            """
        let library = try python(script, input: "")
        XCTAssertEqual(ours.sorted(), library.sorted())
    }
}
