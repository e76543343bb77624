/// A value of a parsed input file together with its file and JSONPath, so that every
/// refusal says where it applies: `app.json: $.purchases[2].quantity: expected an
/// integer of at least 1, found 0`. The format parsers (`StoreKitConfiguration`,
/// `AppFile`) walk their documents only through these accessors.
package struct JSONInput {
    package let value: JSONValue
    package let path: JSONPath
    package let file: String
    /// The dialect the document was parsed in, which `decode` also reads numbers by.
    package let dialect: JSONDialect

    package init(value: JSONValue, path: JSONPath = .root, file: String, dialect: JSONDialect = .rfc8259) {
        self.value = value
        self.path = path
        self.file = file
        self.dialect = dialect
    }

    /// Reads and parses the file at `path` (named `path` in errors).
    package static func load(contentsOfFile path: String) throws(JSONInputError) -> JSONInput {
        try parse(InputFileReading.contents(of: path), file: path)
    }

    /// Parses `bytes`; a syntax error gives its line, column and byte offset.
    package static func parse(_ bytes: [UInt8], file: String, dialect: JSONDialect = .rfc8259) throws(JSONInputError) -> JSONInput {
        do throws(JSONParser.SyntaxError) {
            return JSONInput(value: try JSONParser.parse(bytes, dialect: dialect), file: file, dialect: dialect)
        } catch {
            let (line, column) = lineAndColumn(of: error.offset, in: bytes)
            throw JSONInputError(.malformedJSON, file: file,
                                "invalid JSON at line \(line), column \(column) (byte offset \(error.offset)): \(error.reason)")
        }
    }

    /// 1-based; columns count characters (UTF-8 lead bytes), not bytes.
    private static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// A refusal of this value.
    package func failure(_ reason: String) -> JSONInputError {
        JSONInputError(.invalid, file: file, location: path.description, reason)
    }

    private func mismatch(_ expected: String) -> JSONInputError {
        failure("expected \(expected), found \(value.kindDescription)")
    }

    package var isNull: Bool { value == .null }

    package func string() throws(JSONInputError) -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    /// A string that names something (a product id, a bundle id, a version): not
    /// empty, no control characters.
    package func name() throws(JSONInputError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw failure("must not be empty") }
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw failure("contains the control character U+\(hex4(control.value, uppercase: true))")
        }
        return text
    }

    /// One of a fixed set of strings (compared exactly), as the value it stands for.
    package func choice<Value>(_ choices: [(name: String, value: Value)], naming what: String) throws(JSONInputError) -> Value {
        let text = try string()
        guard let match = choices.first(where: { $0.name == text }) else {
            throw failure("unsupported \(what) '\(text)' (expected \(choices.map(\.name).joined(separator: ", ")))")
        }
        return match.value
    }

    package func bool() throws(JSONInputError) -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("true or false") }
        return flag
    }

    /// An integer in `range`. Any JSON number whose value is a whole number counts
    /// (`3`, `3.0`, `30e-1`), as in JSON Schema; the value is read exactly.
    package func integer<T: FixedWidthInteger>(in range: ClosedRange<T>) throws(JSONInputError) -> T {
        let expected = range.upperBound == .max ? "an integer of at least \(range.lowerBound)"
            : "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let text) = value else { throw mismatch(expected) }
        switch JSONInput.integer(number: text, in: range, expected: expected) {
        case .success(let integer): return integer
        case .failure(let refusal): throw failure(refusal.reason)
        }
    }

    /// The number `text` as an integer in `range`, which the refusal calls `expected`.
    package static func integer<T: FixedWidthInteger>(number text: String, in range: ClosedRange<T>,
                                                      expected: String) -> Result<T, JSONNumberError> {
        switch exactInteger(text, as: T.self) {
        case .some(.some(let integer)) where range.contains(integer):
            return .success(integer)
        case .some:
            return .failure(JSONNumberError(reason: "expected \(expected), found \(text)"))
        case .none:
            return .failure(JSONNumberError(reason: "expected \(expected), found \(text), which is not a whole number"))
        }
    }

    /// The value of a JSON number (already checked against the grammar) as a `T`:
    /// nil when it is not a whole number, `.some(nil)` when it is one `T` cannot hold.
    package static func exactInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T?? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let exponentStart = rest.firstIndex { $0 == "e" || $0 == "E" } ?? rest.endIndex
        let mantissa = rest[..<exponentStart].split(separator: ".", omittingEmptySubsequences: false)
        let fraction = mantissa.count > 1 ? mantissa[1] : ""
        var digits = Substring(mantissa[0] + fraction).drop { $0 == "0" }
        guard !digits.isEmpty else { return .some(0) }
        // The value is digits × 10^scale.
        var scale = -fraction.count
        while digits.last == "0" {
            digits = digits.dropLast()
            scale += 1
        }
        if exponentStart != rest.endIndex {
            let exponentText = rest[rest.index(after: exponentStart)...]
            guard let exponent = Int(exponentText), exponent.magnitude < Int.max / 2 else {
                // More than 18 digits of exponent: far too small or far too large.
                return exponentText.first == "-" ? nil : .some(nil)
            }
            scale += exponent
        }
        guard scale >= 0 else { return nil }
        // Int64.max has 19 digits: anything longer cannot fit, whatever T is.
        guard digits.count + scale <= 40 else { return .some(nil) }
        return .some(T((negative ? "-" : "") + digits + String(repeating: "0", count: scale)))
    }

    package func array() throws(JSONInputError) -> [JSONInput] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return elements.enumerated().map { JSONInput(value: $1, path: path.appending(index: $0), file: file, dialect: dialect) }
    }

    /// This value decoded as `T`, through `T`'s `Decodable` conformance. Every refusal
    /// names the JSONPath of the offending value: a wrong type (`expected a string,
    /// found null`), a missing member, a member repeated in an object, a number `T`
    /// cannot hold exactly, or whatever `T`'s own decoding refuses. Members `T` does
    /// not read are ignored unless `T` checks for them.
    package func decode<T: Decodable>(_ type: T.Type = T.self) throws(JSONInputError) -> T {
        do {
            return try T(from: JSONValueDecoder(value: value, codingPath: [], dialect: dialect))
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                throw JSONInputError(.invalid, file: file, location: location(context.codingPath + [key]),
                                     "required field '\(key.stringValue)' is missing")
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                throw JSONInputError(.invalid, file: file, location: location(context.codingPath), context.debugDescription)
            @unknown default:
                throw failure("\(error)")
            }
        } catch {
            // An error of T's own, thrown without a coding path.
            throw failure("\(error)")
        }
    }

    private func location(_ codingPath: [any CodingKey]) -> String {
        JSONValueDecoder.path(codingPath, below: path).description
    }

    /// This value as an object. With `knownKeys`, any other member is refused (strict);
    /// without, other members are ignored (lenient, for formats that grow). Either way a
    /// repeated member name is refused.
    package func object(knownKeys: Set<String>?) throws(JSONInputError) -> JSONObject {
        guard case .object(let members) = value else { throw mismatch("an object") }
        return try JSONObject(self, members: members, knownKeys: knownKeys)
    }
}

/// The members of an object in an input file, each reachable as a located `JSONInput`.
package struct JSONObject {
    /// The object itself.
    package let input: JSONInput
    private let members: [String: JSONValue]

    fileprivate init(_ input: JSONInput, members list: [JSONMember], knownKeys: Set<String>?) throws(JSONInputError) {
        var members: [String: JSONValue] = [:]
        for member in list {
            let location = input.path.appending(key: member.key).description
            if let knownKeys, !knownKeys.contains(member.key) {
                throw JSONInputError(.invalid, file: input.file, location: location,
                                     JSONObject.unknownFieldReason(member.key, knownKeys: knownKeys))
            }
            guard members.updateValue(member.value, forKey: member.key) == nil else {
                throw JSONInputError(.invalid, file: input.file, location: location,
                                    "the field '\(member.key)' appears twice in this object")
            }
        }
        self.input = input
        self.members = members
    }

    package func contains(_ key: String) -> Bool { members[key] != nil }

    /// The member, or nil when absent (a `null` member is returned as is).
    package func optional(_ key: String) -> JSONInput? {
        members[key].map { JSONInput(value: $0, path: input.path.appending(key: key), file: input.file, dialect: input.dialect) }
    }

    /// The member, or nil when absent or `null`.
    package func optionalNonNull(_ key: String) -> JSONInput? {
        optional(key).flatMap { $0.isNull ? nil : $0 }
    }

    /// The member; its absence is refused at the path it should have had.
    package func required(_ key: String) throws(JSONInputError) -> JSONInput {
        guard let member = optional(key) else {
            throw JSONInputError(.invalid, file: input.file, location: input.path.appending(key: key).description,
                                "required field '\(key)' is missing")
        }
        return member
    }

    /// Why `key` is refused: "unknown field 'quantty' (did you mean 'quantity'? known fields: …)".
    static func unknownFieldReason(_ key: String, knownKeys: Set<String>) -> String {
        let suggestion = closest(to: key, in: knownKeys).map { "did you mean '\($0)'? " } ?? ""
        return "unknown field '\(key)' (\(suggestion)known fields: \(knownKeys.sorted().joined(separator: ", ")))"
    }

    /// The known key a mistyped one most likely meant: equal ignoring case, or at
    /// most two edits away.
    private static func closest(to key: String, in knownKeys: Set<String>) -> String? {
        let lowered = key.lowercased()
        if let sameLetters = knownKeys.sorted().first(where: { $0.lowercased() == lowered }) { return sameLetters }
        let candidates = knownKeys.map { ($0, editDistance(lowered, $0.lowercased())) }.filter { $0.1 <= 2 }
        return candidates.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// Levenshtein distance over characters.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Why a number is not the integer a reader asked for: "expected …, found …".
package struct JSONNumberError: Error {
    package let reason: String
}
