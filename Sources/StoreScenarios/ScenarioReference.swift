import Foundation
import LocalAppStore
import StrictJSON

/// `${name.member}` in a step's strings: an id an earlier step (`"as": "name"`) made,
/// since the store, not the script, chooses ids. Members are those of the action's
/// answer (`StoreActionResult`): `originalTransactionId`, `transactionId` (the first
/// of `transactionIds`), `transactionIds[N]`, `orderId`, `webOrderLineItemId`,
/// `requestIdentifier`.
enum ScenarioReference: Hashable {
    case named(String, member: String)
    /// `${…}` that is not `name.member`.
    case malformed(String)

    static let members = ["originalTransactionId", "transactionId", "transactionIds[N]", "orderId", "webOrderLineItemId", "requestIdentifier"]

    /// The references in `text`, in order.
    static func all(in text: String) -> [ScenarioReference] {
        pieces(of: text).compactMap { piece in
            if case .reference(let reference) = piece { return reference }
            return nil
        }
    }

    private enum Piece {
        case literal(String)
        case reference(ScenarioReference)
    }

    private static func pieces(of text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            pieces.append(.literal(String(rest[..<start.lowerBound])))
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                pieces.append(.reference(.malformed(String(rest[start.lowerBound...]))))
                return pieces
            }
            let inside = String(rest[start.upperBound..<end])
            let parts = inside.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, !parts[0].isEmpty, isMember(parts[1]) {
                pieces.append(.reference(.named(parts[0], member: parts[1])))
            } else {
                pieces.append(.reference(.malformed("${\(inside)}")))
            }
            rest = rest[rest.index(after: end)...]
        }
        pieces.append(.literal(String(rest)))
        return pieces
    }

    private static func isMember(_ text: String) -> Bool {
        if text != "transactionIds[N]" && members.contains(text) { return true }
        guard text.hasPrefix("transactionIds["), text.hasSuffix("]") else { return false }
        return Int(text.dropFirst("transactionIds[".count).dropLast()).map { $0 >= 0 } ?? false
    }

    /// `text` with each reference replaced by `resolve`'s answer.
    static func substitute(_ text: String, _ resolve: (ScenarioReference) throws(ScenarioError) -> String) throws(ScenarioError) -> String {
        var result = ""
        for piece in pieces(of: text) {
            switch piece {
            case .literal(let literal): result += literal
            case .reference(let reference): result += try resolve(reference)
            }
        }
        return result
    }

    /// `value` with every string's references replaced.
    static func substitute(_ value: JSONValue, _ resolve: (ScenarioReference) throws(ScenarioError) -> String) throws(ScenarioError) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(try substitute(text, resolve))
        case .array(let elements):
            var replaced: [JSONValue] = []
            for element in elements { replaced.append(try substitute(element, resolve)) }
            return .array(replaced)
        case .object(let members):
            var replaced: [JSONMember] = []
            for member in members { replaced.append(JSONMember(key: member.key, value: try substitute(member.value, resolve))) }
            return .object(replaced)
        case .null, .bool, .number:
            return value
        }
    }

    /// The same, for a resolver that cannot fail (the load-time check's placeholder).
    static func substitutingPlaceholders(in value: JSONValue, _ placeholder: (ScenarioReference) -> String) -> JSONValue {
        // The resolver throws nothing, so neither does the walk.
        try! substitute(value) { (reference: ScenarioReference) throws(ScenarioError) -> String in placeholder(reference) }
    }

    /// The member of an action's answer this reference names, or nil when it has none.
    static func value(of member: String, in result: StoreActionResult) -> String? {
        switch member {
        case "originalTransactionId": return result.originalTransactionId
        case "transactionId": return result.transactionIds.first
        case "orderId": return result.orderId
        case "webOrderLineItemId": return result.webOrderLineItemId
        case "requestIdentifier": return result.requestIdentifier
        default:
            guard let index = Int(member.dropFirst("transactionIds[".count).dropLast()), index < result.transactionIds.count else { return nil }
            return result.transactionIds[index]
        }
    }
}

extension JSONValue {
    /// The value as compact JSON with sorted keys (what a request body is, and what the
    /// scenario page shows): JSONEncoder keeps no member order, so unsorted keys came out
    /// in another order in each process. The script reader refuses numbers a double cannot
    /// hold (`Scenario.checkReferences`), the only values JSONEncoder refuses.
    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(self))
    }
}
