import StrictJSON

/// A scenario that cannot be read or cannot be run: what went wrong and where, as a
/// JSONPath into the script (`$.steps[2].body.offer.id`), so a user's own file points
/// at the member to fix.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The script file could not be read.
        case unreadable
        /// The script is not JSON (RFC 8259).
        case malformedJSON
        /// JSON, but not a scenario: a wrong type, a missing or unknown member, a bad body.
        case invalidScenario
        /// A `${name.member}` reference to no earlier step's `as`, or to a member that step did not produce.
        case unresolvedReference
        /// The store (through the control API or the Server API) refused a step.
        case stepRefused
        /// No scenario of that name in the catalogue.
        case unknownScenario
    }

    public let code: Code
    /// The file or scenario name the location is in.
    public let file: String
    /// A JSONPath into the script.
    public let location: String
    public let message: String

    public init(_ code: Code, file: String, location: String, _ message: String) {
        self.code = code
        self.file = file
        self.location = location
        self.message = message
    }

    init(_ error: JSONInputError) {
        let code: Code
        switch error.kind {
        case .unreadable: code = .unreadable
        case .malformedJSON: code = .malformedJSON
        case .invalid: code = .invalidScenario
        }
        self.init(code, file: error.file, location: error.location, error.reason)
    }

    public var description: String { "\(file): \(location): \(message)" }
}
