/// Reading and building values directly, where no `Decodable` type describes the
/// document (a report's payload, a test's view of a file it just wrote). Each accessor
/// is nil for a value of another kind, so nothing is read as what it is not: `1` is no
/// `true`, `"1"` no integer, `1.5` no `Int`.
extension JSONValue {
    /// The first member named `key` of an object; nil for other values. Setting
    /// replaces that member's value in place or, for a new name, appends the member;
    /// setting nil removes every member of that name. Only an object has members.
    package subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { preconditionFailure("setting '\(key)' of \(kindDescription)") }
            if let newValue {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index] = JSONMember(key: key, value: newValue)
                } else {
                    members.append(JSONMember(key: key, value: newValue))
                }
            } else {
                members.removeAll { $0.key == key }
            }
            self = .object(members)
        }
    }

    /// The element at `index` of an array; nil for other values or an index out of range.
    /// Setting replaces an element that exists.
    package subscript(index: Int) -> JSONValue? {
        get {
            guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
            return elements[index]
        }
        set {
            guard case .array(var elements) = self, elements.indices.contains(index), let newValue else {
                preconditionFailure("setting element \(index) of \(kindDescription)")
            }
            elements[index] = newValue
            self = .array(elements)
        }
    }

    package var isNull: Bool { self == .null }

    package var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    package var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    package var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// An object's members in document order.
    package var objectValue: [JSONMember]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// A number that is a whole `T`, read exactly (`JSONInput.exactInteger`).
    package func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T? {
        guard case .number(let text) = self else { return nil }
        return JSONInput.exactInteger(text, as: T.self) ?? nil
    }

    package var intValue: Int? { integer(Int.self) }

    /// A number, to the nearest `Double`.
    package var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .number(String(value)) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(members.map { JSONMember(key: $0.0, value: $0.1) })
    }
}
