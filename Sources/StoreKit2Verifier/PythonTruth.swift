import StrictJSON

/// Python's truth value of what `json.loads` returned (`bool(value)`): null, false, zero,
/// "", [] and {} are false, everything else true (`NaN` too). PyJWT tests `aud` so, and
/// cattrs converts a `bool` field so.
enum PythonTruth {
    static func of(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let text): return Double(text) != 0
        case .string(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        }
    }
}
