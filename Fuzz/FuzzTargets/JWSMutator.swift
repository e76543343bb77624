import BER
import Foundation
import ForgeSupport
import StoreKit2
import StrictJSON

/// Mutants of a signed App Store JWS for the differential against Apple's verifier
/// (`JWSDifferential`). Four families, so that every step of the verification is
/// reached:
/// - `text`: a character of one part changed, inserted or removed, `=` appended, a part
///   cut short; not signed again (decoding, padding, the signature);
/// - `header`: one to three edits of the JOSE header's JSON (`alg`, `kid`, `crit`,
///   `b64`, `typ` set to values of every JSON type or removed, `x5c` entries dropped,
///   swapped, repeated, garbled or replaced, `x5c` itself of another type, a member
///   repeated), signed again with the leaf's key in most mutants (the checks after
///   the header are reached);
/// - `payload`: one or two edits of the payload's JSON (the fields the verifier reads:
///   identity, environment, dates, JWT claims, a notification's `data`), signed again;
/// - `certificate`: one element of `x5c[0]`, `x5c[1]` or `x5c[2]` edited
///   (`CertificateSetMutator`'s edits) or a byte of it flipped, signed again.
public struct JWSMutator: Sendable {
    public enum Family: String, Sendable, CaseIterable {
        case text, header, payload, certificate
    }

    /// Signs a signing input as the JWS's signer would (ES256, raw r ‖ s).
    public typealias Signer = @Sendable ([UInt8]) throws -> [UInt8]

    public let jws: String
    public let signer: Signer
    private let compact: CompactJWS
    private let header: JSONValue
    private let payload: JSONValue

    public init(jws: String, signer: @escaping Signer) throws {
        self.jws = jws
        self.signer = signer
        compact = try CompactJWS(jws)
        // A case may be broken on purpose (a payload that is no object): edits then start
        // from what there is.
        header = (try? JSONParser.parse(compact.header, dialect: .python)) ?? .object([])
        payload = (try? JSONParser.parse(compact.payload, dialect: .python)) ?? .object([])
    }

    /// One mutant of `family` and what was done to it.
    public func mutant(_ family: Family, random: inout DeterministicRandom) -> (jws: String, mutation: String) {
        switch family {
        case .text:
            return textMutant(random: &random)
        case .header:
            var edited = EditedObject(header)
            var edits: [String] = []
            for _ in 0..<random.int(in: 1...3) {
                if random.int(in: 0..<12) == 0 {
                    // A member repeated: Python keeps the last value, at the first position.
                    let (name, value) = Self.repeatedHeaderMember(random: &random)
                    edited.appended.append((name, value))
                    edits.append("header.\(name) repeated, last \(value)")
                } else {
                    edits.append(Self.editHeader(&edited.value, random: &random))
                }
            }
            let resign = random.int(in: 0..<10) < 7
            return (signed(header: edited.bytes, payload: compact.payload, resign: resign),
                    edits.joined(separator: "; ") + (resign ? " (signed again)" : " (old signature)"))
        case .payload:
            var edited = EditedObject(payload)
            var edits: [String] = []
            for _ in 0..<random.int(in: 1...2) { edits.append(Self.editPayload(&edited, random: &random)) }
            return (signed(header: compact.header, payload: edited.bytes, resign: true), edits.joined(separator: "; ") + " (signed again)")
        case .certificate:
            guard case .array(var chain)? = header["x5c"], !chain.isEmpty else { return textMutant(random: &random) }
            let index = random.int(in: 0..<chain.count)
            guard let text = chain[index].stringValue, let der = Data(base64Encoded: text).map(Array.init) else {
                return textMutant(random: &random)
            }
            var edited: [UInt8]
            var what: String
            if random.int(in: 0..<3) > 0, let (bytes, path, operation) = CertificateSetMutator.edit(der, random: &random) {
                edited = bytes
                what = "element \(path.map(String.init).joined(separator: ".")): \(operation.rawValue)"
            } else {
                edited = der
                let at = random.int(in: 0..<der.count)
                edited[at] ^= UInt8(random.int(in: 1...255))
                what = "byte \(at) flipped"
            }
            chain[index] = .string(Data(edited).base64EncodedString())
            var headerValue = header
            headerValue["x5c"] = .array(chain)
            return (signed(header: StoreKit2JSON.encode(headerValue), payload: compact.payload, resign: true),
                    "x5c[\(index)] \(what) (signed again)")
        }
    }

    private func signed(header: [UInt8], payload: [UInt8], resign: Bool) -> String {
        let signature = resign ? ((try? signer(CompactJWS.signingInput(header: header, payload: payload))) ?? compact.signature)
            : compact.signature
        return CompactJWS(header: header, payload: payload, signature: signature).serialized
    }

    /// A JSON object being edited: members set in place, and members written after the
    /// last one as text (a repeated name, or a number JSONEncoder cannot write: `NaN`,
    /// `1e999`, an integer beyond 64 bits), which Python reads as the member's value.
    private struct EditedObject {
        var value: JSONValue
        var appended: [(name: String, text: String)] = []

        init(_ value: JSONValue) { self.value = value }

        /// Sets `name` to the JSON `text`: in place when it survives re-encoding, else appended.
        mutating func set(_ name: String, _ text: String) {
            let parsed = JSONMutationValue.parse(text)
            if case .number(let number) = parsed, Int64(number) == nil, UInt64(number) == nil,
               !(Double(number)?.isFinite ?? false) || !number.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                appended.append((name, text))
            } else {
                value[name] = parsed
            }
        }

        var bytes: [UInt8] {
            let encoded = StoreKit2JSON.encode(value)
            guard !appended.isEmpty, case .object(let members) = value else { return encoded }
            let tail = appended.map { "\"\($0.name)\":\($0.text)" }.joined(separator: ",")
            return Array(encoded.dropLast()) + Array(((members.isEmpty ? "" : ",") + tail + "}").utf8)
        }
    }

    // MARK: Text

    private static let characters = Array("AZaz09-_+/=. \u{e9}".unicodeScalars)

    private func textMutant(random: inout DeterministicRandom) -> (jws: String, mutation: String) {
        var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        let part = random.int(in: 0..<parts.count)
        let names = ["header", "payload", "signature"]
        let name = part < names.count ? names[part] : "part \(part)"
        let character = Self.characters[random.int(in: 0..<Self.characters.count)]
        var mutation: String
        switch random.int(in: 0..<5) {
        case 0 where !parts[part].isEmpty:
            let at = random.int(in: 0..<parts[part].count)
            parts[part][at] = character
            mutation = "\(name) character \(at) set to '\(character)'"
        case 1:
            let at = random.int(in: 0...parts[part].count)
            parts[part].insert(character, at: at)
            mutation = "'\(character)' inserted into \(name) at \(at)"
        case 2 where !parts[part].isEmpty:
            let at = random.int(in: 0..<parts[part].count)
            parts[part].remove(at: at)
            mutation = "\(name) character \(at) removed"
        case 3:
            let padding = String(repeating: "=", count: random.int(in: 1...3))
            parts[part] += padding.unicodeScalars
            mutation = "'\(padding)' appended to \(name)"
        default:
            let length = random.int(in: 0...parts[part].count)
            parts[part] = Array(parts[part].prefix(length))
            mutation = "\(name) cut to \(length) characters"
        }
        var text = ""
        for (index, scalars) in parts.enumerated() {
            if index > 0 { text += "." }
            text.unicodeScalars.append(contentsOf: scalars)
        }
        return (text, mutation + " (old signature)")
    }

    // MARK: Header

    private static func value(_ text: String) -> JSONValue { JSONMutationValue.parse(text) }

    private static let headerValues: [String: [String]] = [
        "alg": [#""ES256""#, #""RS256""#, #""none""#, #""HS256""#, #""es256""#, #""ES384""#, "null", "5", "[]", #"["ES256"]"#],
        "kid": [#""Apple_Xcode_Key""#, #""x""#, #""""#, "null", "5", "true", "[]", "{}"],
        "crit": [#"["b64"]"#, #"["x"]"#, "[]", #""b64""#, "1", "null", #"["b64","b64"]"#, "[1]", #"["b64","x"]"#, "{}"],
        "b64": ["true", "false", "0", #""false""#, "null"],
        "typ": [#""JWT""#, "5", "null"],
        "x5u": [#""https://example.com""#, "5"],
    ]

    private static func repeatedHeaderMember(random: inout DeterministicRandom) -> (String, String) {
        let names = headerValues.keys.sorted() + ["x5c"]
        let name = names[random.int(in: 0..<names.count)]
        let values = headerValues[name] ?? ["[]", "null", #"["AAAA"]"#]
        return (name, values[random.int(in: 0..<values.count)])
    }

    /// One edit of `header`, described.
    private static func editHeader(_ header: inout JSONValue, random: inout DeterministicRandom) -> String {
        if random.int(in: 0..<2) == 0 { return editX5C(&header, random: &random) }
        let names = headerValues.keys.sorted()
        let name = names[random.int(in: 0..<names.count)]
        if random.int(in: 0..<6) == 0 {
            header[name] = nil
            return "header.\(name) removed"
        }
        let values = headerValues[name]!
        let text = values[random.int(in: 0..<values.count)]
        header[name] = value(text)
        return "header.\(name) = \(text)"
    }

    private static func editX5C(_ header: inout JSONValue, random: inout DeterministicRandom) -> String {
        guard case .array(var chain)? = header["x5c"], !chain.isEmpty else {
            header["x5c"] = value(#"["AAAA","AAAA","AAAA"]"#)
            return "header.x5c = three non-certificates"
        }
        let index = random.int(in: 0..<chain.count)
        let other = random.int(in: 0..<chain.count)
        let description: String
        switch random.int(in: 0..<11) {
        case 0:
            chain.remove(at: index)
            description = "x5c[\(index)] dropped"
        case 1:
            chain.swapAt(index, other)
            description = "x5c[\(index)] and x5c[\(other)] swapped"
        case 2:
            chain.insert(chain[index], at: index)
            description = "x5c[\(index)] repeated"
        case 3:
            chain.append(.string("AAAA"))
            description = "x5c gets a fourth entry"
        case 4, 5, 6:
            let (garbled, how) = garble(chain[index].stringValue ?? "", random: &random)
            chain[index] = .string(garbled)
            description = "x5c[\(index)] \(how)"
        case 7:
            let texts = ["5", "null", "[]", "{}", "true"]
            let text = texts[random.int(in: 0..<texts.count)]
            chain[index] = value(text)
            description = "x5c[\(index)] = \(text)"
        default:
            let texts = [#""abc""#, #""""#, #""AAAA""#, #"{"0":"A","1":"B","2":"C"}"#, "{}", "3", "true", "[]"]
            let text = texts[random.int(in: 0..<texts.count)]
            header["x5c"] = value(text)
            return "header.x5c = \(text)"
        }
        header["x5c"] = .array(chain)
        return description
    }

    /// A base64 certificate made wrong in one of the ways `b64decode` and `d2i_X509`
    /// tell apart: a character changed, URL-safe characters, white space, padding
    /// moved or added, cut short, a non-ASCII character, PEM armour.
    private static func garble(_ text: String, random: inout DeterministicRandom) -> (String, String) {
        var scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return ("=", "set to '='") }
        switch random.int(in: 0..<9) {
        case 0:
            let at = random.int(in: 0..<scalars.count)
            let character = characters[random.int(in: 0..<characters.count)]
            scalars[at] = character
            return (String(String.UnicodeScalarView(scalars)), "character \(at) set to '\(character)'")
        case 1:
            return (text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"), "in the URL-safe alphabet")
        case 2:
            let at = random.int(in: 0...scalars.count)
            scalars.insert(random.int(in: 0..<2) == 0 ? "\n" : " ", at: at)
            return (String(String.UnicodeScalarView(scalars)), "white space inserted at \(at)")
        case 3:
            let padding = String(repeating: "=", count: random.int(in: 1...3))
            return (text + padding, "'\(padding)' appended")
        case 4:
            return (String(text.drop { $0 == "=" }.reversed().drop { $0 == "=" }.reversed()), "padding removed")
        case 5:
            let length = random.int(in: 0..<scalars.count)
            return (String(String.UnicodeScalarView(scalars.prefix(length))), "cut to \(length) characters")
        case 6:
            let length = 4 * random.int(in: 0..<(scalars.count / 4))
            return (String(String.UnicodeScalarView(scalars.prefix(length))), "cut to \(length) characters (whole groups)")
        case 7:
            return ("-----BEGIN CERTIFICATE-----\n" + text + "\n-----END CERTIFICATE-----", "wrapped in PEM armour")
        default:
            let at = random.int(in: 0..<scalars.count)
            scalars.insert("\u{e9}", at: at)
            return (String(String.UnicodeScalarView(scalars)), "'\u{e9}' inserted at \(at)")
        }
    }

    // MARK: Payload

    private static let payloadValues: [String: [String]] = [
        "bundleId": [#""com.example.other""#, #""""#, "5", "null", "[]", "true"],
        "environment": [#""Sandbox""#, #""Production""#, #""Xcode""#, #""LocalTesting""#, #""sandbox""#, "1", "null", "[]"],
        "receiptType": [#""Sandbox""#, #""Production""#, #""Xcode""#, "null", "7"],
        "appAppleId": ["1234567890", "0", #""1234567890""#, "null", "1234567890.0", "1.23456789e9", "true", "12345678901234567890123"],
        "signedDate": ["0", "-1", "1e20", #""1700000000000""#, "1.5", "true", "null", #""x""#, "99999999999999999999", "NaN"],
        "receiptCreationDate": ["0", #""1700000000000""#, "null", "4102444800000"],
        "exp": ["0", "4102444800", #""4102444800""#, "1e999", "true", "null", #""x""#],
        "iat": ["0", "4102444800", "1.5", "null", #""1""#],
        "nbf": ["0", "4102444800", "[]"],
        "aud": [#""x""#, "[]", #""""#, #"["x"]"#, "0", "NaN"],
        "sub": ["5", #""x""#, "null"],
        "jti": ["5", #""x""#],
        "data": ["null", #""x""#, "{}", "[]", "5", #""bundleId""#, #"["bundleId"]"#],
        "price": [#""x""#, "[]", "1.5", #""12""#, "true"],
        "quantity": ["{}", #"" 3 ""#, "NaN"],
        "isUpgraded": [#""false""#, "0", "[]"],
        "eligibleWinBackOfferIds": ["5", #""abc""#, "[1,null]", #"{"a":1}"#],
        "type": ["5", "null", "[]"],
        "advancedCommerceInfo": [#"{"items":[null]}"#, #"{"items":"x"}"#, "7"],
        "summary": [#"{"bundleId":"com.example.other"}"#, "null", "{}"],
        "appData": [#"{"bundleId":"com.example.other","environment":"Sandbox"}"#, "{}"],
        "externalPurchaseToken": [#"{"externalPurchaseId":"SANDBOX-1"}"#, "{}"],
    ]

    private static let dataFields: [String: [String]] = [
        "bundleId": [#""com.example.other""#, "5", "null"],
        "environment": [#""Sandbox""#, #""Production""#, "null", "1"],
        "appAppleId": ["0", #""1234567890""#, "null", "1234567890.5"],
        "status": [#""1""#, "9", "null", #""x""#, "[]"],
    ]

    private static func editPayload(_ payload: inout EditedObject, random: inout DeterministicRandom) -> String {
        guard case .object = payload.value else { return "payload left a non-object" }
        switch random.int(in: 0..<20) {
        case 0:
            let texts = ["[]", #""x""#, "5", "null"]
            let text = texts[random.int(in: 0..<texts.count)]
            payload = EditedObject(value(text))
            return "payload replaced by \(text)"
        case 1...3 where payload.value["data"]?.objectValue != nil:
            let names = dataFields.keys.sorted()
            let name = names[random.int(in: 0..<names.count)]
            let values = dataFields[name]!
            let text = values[random.int(in: 0..<values.count)]
            var data = payload.value["data"]!
            data[name] = value(text)
            payload.value["data"] = data
            return "payload.data.\(name) = \(text)"
        default:
            let names = payloadValues.keys.sorted()
            let name = names[random.int(in: 0..<names.count)]
            if random.int(in: 0..<6) == 0, payload.value[name] != nil {
                payload.value[name] = nil
                return "payload.\(name) removed"
            }
            let values = payloadValues[name]!
            let text = values[random.int(in: 0..<values.count)]
            payload.set(name, text)
            return "payload.\(name) = \(text)"
        }
    }
}

/// The JSON literals of the mutations, parsed as Python's `json.loads` parses them.
enum JSONMutationValue {
    static func parse(_ text: String) -> JSONValue {
        // Each literal of the tables is valid JSON in the python dialect: parsing cannot fail.
        try! JSONParser.parse(Array(text.utf8), dialect: .python)
    }
}
