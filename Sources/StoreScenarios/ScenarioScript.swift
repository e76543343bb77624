import StoreControlAPI
import StoreNotifications
import StrictJSON

/// Reads a scenario script strictly: unknown members refused, every body checked
/// against its verb's request before anything runs, every reference checked against
/// the steps before it. Errors name the JSON location in the script.
extension Scenario {
    static let knownKeys: Set<String> = ["name", "summary", "customer", "steps", "expectedNotifications", "$schema"]
    static let stepKeys: Set<String> = ["control", "serverAPI", "requestTestNotification", "body", "as", "note"]
    static let serverAPIKeys: Set<String> = ["method", "path", "body"]

    /// The script in `bytes`, named `file` in errors.
    public init(json bytes: [UInt8], file: String) throws(ScenarioError) {
        let input: JSONInput
        do throws(JSONInputError) {
            input = try JSONInput.parse(bytes, file: file)
        } catch {
            throw ScenarioError(error)
        }
        try self.init(input: input)
    }

    /// The script in the file at `path`.
    public init(contentsOfFile path: String) throws(ScenarioError) {
        let input: JSONInput
        do throws(JSONInputError) {
            input = try JSONInput.load(contentsOfFile: path)
        } catch {
            throw ScenarioError(error)
        }
        try self.init(input: input)
    }

    init(input: JSONInput) throws(ScenarioError) {
        do throws(JSONInputError) {
            let object = try input.object(knownKeys: Self.knownKeys)
            name = try object.required("name").name()
            summary = try object.required("summary").string()
            customer = try object.required("customer").name()
            var steps: [ScenarioStep] = []
            var bindings: Set<String> = []
            let stepInputs = try object.required("steps").array()
            guard !stepInputs.isEmpty else { throw try object.required("steps").failure("a scenario has at least one step") }
            for stepInput in stepInputs {
                let step = try Self.step(stepInput, bindings: bindings)
                if let binding = step.binding {
                    guard bindings.insert(binding).inserted else {
                        throw try stepInput.object(knownKeys: nil).required("as").failure("an earlier step is already named '\(binding)'")
                    }
                }
                steps.append(step)
            }
            self.steps = steps
            if let expected = object.optional("expectedNotifications") {
                expectedNotifications = try expected.array().map { element throws(JSONInputError) in
                    let text = try element.string()
                    guard let kind = NotificationKind(text: text) else {
                        throw element.failure("'\(text)' is not TYPE or TYPE/SUBTYPE of a notification the forge sends")
                    }
                    return kind
                }
            } else {
                expectedNotifications = nil
            }
        } catch {
            throw ScenarioError(error)
        }
    }

    private static func step(_ input: JSONInput, bindings: Set<String>) throws(JSONInputError) -> ScenarioStep {
        let object = try input.object(knownKeys: stepKeys)
        let kinds = ["control", "serverAPI", "requestTestNotification"].filter(object.contains)
        guard kinds.count == 1 else {
            throw input.failure(kinds.isEmpty ? "a step has one of control, serverAPI, requestTestNotification"
                                : "a step has only one of control, serverAPI, requestTestNotification, not \(kinds.joined(separator: " and "))")
        }
        let binding = try object.optional("as")?.name()
        if binding != nil, kinds[0] != "control" {
            throw try object.required("as").failure("only a control step answers with ids to name")
        }
        let note = try object.optional("note")?.string()
        let action: ScenarioStep.Action
        switch kinds[0] {
        case "control":
            let verbInput = try object.required("control")
            let verb = try verbInput.choice(ControlVerb.allCases.filter(\.isScenarioAction).map { ($0.rawValue, $0) }, naming: "control verb")
            let body = object.optional("body") ?? JSONInput(value: .object([]), path: input.path.appending(key: "body"), file: input.file)
            try checkReferences(body, bindings: bindings)
            try checkControlBody(verb, body)
            action = .control(verb: verb.rawValue, body: body.value)
        case "serverAPI":
            guard !object.contains("body") else {
                throw try object.required("body").failure("a serverAPI step takes its body inside serverAPI")
            }
            let request = try object.required("serverAPI").object(knownKeys: serverAPIKeys)
            let method = try request.required("method").choice(["GET", "POST", "PUT", "PATCH", "DELETE"].map { ($0, $0) }, naming: "method")
            let path = try request.required("path").string()
            guard path.hasPrefix("/inApps/") else {
                throw try request.required("path").failure("the path starts with /inApps/ (the scenario's environment picks the store)")
            }
            try checkReferences(request.required("path"), bindings: bindings)
            let body = request.optional("body")
            if let body { try checkReferences(body, bindings: bindings) }
            action = .serverAPI(method: method, path: path, body: body?.value)
        default:
            for key in ["body"] where object.contains(key) {
                throw try object.required(key).failure("requestTestNotification takes no body")
            }
            guard case .object(let members) = try object.required("requestTestNotification").value, members.isEmpty else {
                throw try object.required("requestTestNotification").failure("expected {}")
            }
            action = .requestTestNotification
        }
        return ScenarioStep(action: action, binding: binding, note: note, location: input.path.description)
    }

    /// Every `${name.member}` in strings of `input` names an earlier step's `as` and a member it
    /// can have, and every number in it is finite as a double.
    private static func checkReferences(_ input: JSONInput, bindings: Set<String>) throws(JSONInputError) {
        switch input.value {
        case .string(let text):
            for reference in ScenarioReference.all(in: text) {
                switch reference {
                case .malformed(let text):
                    throw input.failure("'\(text)' is not a reference: write ${name.member} with a member of \(ScenarioReference.members.joined(separator: ", "))")
                case .named(let name, _) where !bindings.contains(name):
                    throw input.failure("no earlier step is named '\(name)' (as: …)")
                case .named: break
                }
            }
        case .array:
            for element in try input.array() { try checkReferences(element, bindings: bindings) }
        case .object(let members):
            let object = try input.object(knownKeys: nil)
            for member in members {
                if let value = object.optional(member.key) { try checkReferences(value, bindings: bindings) }
            }
        case .number(let text):
            // The step's JSON is sent on as JSON (a request body): a number no double holds
            // (1e400) has no JSON form to send, and would stop the run where it is written.
            guard let number = Double(text), number.isFinite else {
                throw input.failure("\(text) is beyond the range of a double: no request can carry it")
            }
        case .null, .bool:
            break
        }
    }

    /// The body decodes as the verb's request (references stand in as a placeholder id);
    /// a refusal names the member inside the step's `body`.
    private static func checkControlBody(_ verb: ControlVerb, _ body: JSONInput) throws(JSONInputError) {
        let bytes = ScenarioReference.substitutingPlaceholders(in: body.value) { _ in "0" }.encoded
        do throws(ControlError) {
            _ = try ControlAction(verb, body: bytes)
        } catch {
            let location = body.path.description + (error.field.hasPrefix("$") ? String(error.field.dropFirst()) : "")
            throw JSONInputError(.invalid, file: body.file, location: location, error.message)
        }
    }
}

extension ControlVerb {
    /// Verbs a scenario step may take: actions, but not a reset (the transcript's
    /// notification ids would repeat) nor the reads a transcript records by itself.
    var isScenarioAction: Bool {
        switch self {
        case .state, .receipt, .resetToDefaultState: return false
        default: return true
        }
    }
}
