/// Why a JSON input file (an Xcode `.storekit` configuration, an `--app` file) was
/// refused: the file, where in its JSON the problem lies, and what it is.
///
/// ```
/// Shop.storekit: $.products[1].type: unsupported product type 'Family' (expected Consumable, …)
/// ```
///
/// Every kind is bad input (the command line exits 65, `EX_DATAERR`); `kind` tells
/// them apart for callers and tests, so nothing needs to match message text.
public struct JSONInputError: Error, CustomStringConvertible, Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be read: missing, a directory, not permitted, or larger
        /// than `maximumInputFileSize`.
        case unreadable
        /// The bytes are not JSON (RFC 8259); the reason gives the line and column.
        case malformedJSON
        /// JSON, but not what the format accepts: an unknown field, a wrong type, a
        /// value out of range, a product type the forge does not support.
        case invalid
    }

    public let kind: Kind
    /// The file as named by the user (or resolved from the file that refers to it).
    public let file: String
    /// A JSONPath to the offending value, e.g. `$.subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod`;
    /// `$` for the whole document.
    public let location: String
    public let reason: String

    package init(_ kind: Kind, file: String, location: String = "$", _ reason: String) {
        self.kind = kind
        self.file = file
        self.location = location
        self.reason = reason
    }

    public var description: String {
        // "Shop.storekit: cannot read: no such file" needs no `$`; a file named inside
        // another file (`storekit` in an app file) is reported at that field.
        kind == .unreadable && location == "$" ? "\(file): \(reason)" : "\(file): \(location): \(reason)"
    }
}
