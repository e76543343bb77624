/// `forge check --known-failures FILE`: the differences a project accepts. One case a
/// line, `ID  REASON…` (the reason is required), `#` starts a comment:
///
/// ```
/// # we do not check device hashes on macOS
/// macos-device      device check is done by the OS on Mac
/// sha512-digest     our crypto library accepts any digest
/// ```
public struct KnownFailures: Sendable, Hashable {
    /// Case id → the project's reason.
    public var reasons: [String: String]

    public init(reasons: [String: String] = [:]) {
        self.reasons = reasons
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    /// Parses the file's text; `knownIDs` are the case ids of the fixture tree (an id
    /// not among them is an error, so a typo does not hide a failure).
    public init(text: String, file: String, knownIDs: Set<String>) throws(ParseError) {
        var reasons: [String: String] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { String($0).trimmingWhitespace() } ?? ""
            guard !line.isEmpty else { continue }
            let id = String(line.prefix { !$0.isWhitespace })
            let reason = String(line.dropFirst(id.count)).trimmingWhitespace()
            guard knownIDs.contains(id) else {
                throw ParseError(file: file, line: index + 1, reason: "'\(id)' is not a case of the fixture tree")
            }
            guard !reason.isEmpty else {
                throw ParseError(file: file, line: index + 1, reason: "'\(id)' has no reason: write why the difference is accepted")
            }
            guard reasons[id] == nil else {
                throw ParseError(file: file, line: index + 1, reason: "'\(id)' is listed twice")
            }
            reasons[id] = reason
        }
        self.reasons = reasons
    }
}
