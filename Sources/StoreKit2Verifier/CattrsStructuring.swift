import StrictJSON

/// How Apple's Python library turns a verified payload into its model: cattrs 26 with
/// the library's converter, field by field as `AppleModel` lists them. The result is the
/// payload with every known field converted as cattrs converts it (and unknown ones
/// dropped), or the field where cattrs raises. Apple's library lets that exception
/// through: its caller gets no verification status at all.
///
/// - `str`: `str(value)` (`PythonStr`): never raises; `5` becomes `"5"`.
/// - `int`: `int(value)` (`PythonInt`): `"12"`, `1.9` and `true` are 12, 1 and 1; raises
///   on other strings, arrays, objects, `NaN` and infinities.
/// - `bool`: `bool(value)` (`PythonTruth`): never raises.
/// - a list: each element of any iterable converted: an array's elements, a string's
///   characters, an object's keys; raises on numbers and booleans.
/// - a model: from an object, its fields; from anything else, what cattrs' generated
///   code does with it (`if "field" in value: value["field"]`): a string or array that
///   contains no field name gives the model with every field unset, else it raises; a
///   number or boolean raises.
/// - `null` leaves an optional field unset (every field of Apple's models is optional);
///   in a list, it converts as its element type says (`"None"`, or a raise).
enum CattrsStructuring {

    static func structure(_ value: JSONValue, as model: AppleModel, at path: String) -> Result<JSONValue, CattrsError> {
        do throws(CattrsError) {
            return .success(try structureModel(value, model, path))
        } catch {
            return .failure(error)
        }
    }

    private static func structureModel(_ value: JSONValue, _ model: AppleModel, _ path: String) throws(CattrsError) -> JSONValue {
        switch value {
        case .object:
            var members: [JSONMember] = []
            for field in model.fields {
                guard let member = value[field.name], !member.isNull else { continue }
                members.append(JSONMember(key: field.name, value: try convert(member, field.type, path + "." + field.name)))
            }
            return .object(members)
        case .string(let text):
            // Python's `in` on strings compares code points (here: UTF-8 bytes), not characters.
            let bytes = Array(text.utf8)
            if let field = model.fields.first(where: { bytes.firstRange(of: Array($0.name.utf8)) != nil }) {
                throw CattrsError(path: path, reason: "a string containing '\(field.name)' is indexed by that name (\(model.name))")
            }
            return .object([])
        case .array(let elements):
            if let field = model.fields.first(where: { elements.contains(.string($0.name)) }) {
                throw CattrsError(path: path, reason: "an array holding '\(field.name)' is indexed by that name (\(model.name))")
            }
            return .object([])
        case .null, .bool, .number:
            throw CattrsError(path: path, reason: "\(value.kindDescription) is not a \(model.name)")
        }
    }

    private static func convert(_ value: JSONValue, _ type: AppleModel.FieldType, _ path: String) throws(CattrsError) -> JSONValue {
        switch type {
        case .str:
            return .string(PythonStr.of(value))
        case .int:
            guard let integer = PythonInt.of(value) else {
                throw CattrsError(path: path, reason: "\(value.kindDescription) that Python's int() refuses")
            }
            return .number(String(integer))
        case .bool:
            return .bool(PythonTruth.of(value))
        case .list(let element):
            let items: [JSONValue]
            switch value {
            case .array(let elements): items = elements
            case .string(let text): items = text.unicodeScalars.map { .string(String($0)) }
            case .object(let members): items = members.map { .string($0.key) }
            case .null, .bool, .number:
                throw CattrsError(path: path, reason: "\(value.kindDescription) is not iterable")
            }
            var converted: [JSONValue] = []
            for (index, item) in items.enumerated() {
                converted.append(try convert(item, element, path + "[\(index)]"))
            }
            return .array(converted)
        case .model(let model):
            return try structureModel(value, model, path)
        }
    }
}

/// Where cattrs raises, and why.
struct CattrsError: Error {
    let path: String
    let reason: String
}
