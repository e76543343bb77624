/// Which JSON the parser accepts.
package enum JSONDialect: Sendable, Hashable {
    /// RFC 8259 and nothing more: UTF-8 (a leading byte order mark is skipped), no
    /// `NaN` or `Infinity`, unpaired surrogate escapes refused, duplicate member names
    /// kept for the reader to refuse by name, 128 levels of nesting. For everything a
    /// user writes (app files, `.storekit` files, verifyReceipt request bodies) and
    /// everything the forge reads back (manifests, case files, results).
    case rfc8259

    /// What Python's `json.loads` accepts from bytes, for the StoreKit 2 verifier only:
    /// Apple's app-store-server-library decodes every JWS header and payload with it
    /// (through PyJWT), and a payload Python decodes must get the status Apple's
    /// `SignedDataVerifier` gives it, not a refusal Apple never makes. Each departure
    /// from `rfc8259`, as Python 3.11 behaves:
    /// - the encoding is detected as `json.detect_encoding` does: a UTF-32, UTF-16 or
    ///   UTF-8 byte order mark, else the pattern of zero bytes in the first four (UTF-16
    ///   and UTF-32 in either byte order), else UTF-8; the bytes are decoded with
    ///   `surrogatepass`, so encoded surrogates are read, not refused;
    /// - `NaN`, `Infinity` and `-Infinity` are numbers (`JSONValue.number` holds that text);
    /// - a repeated member name keeps its first position and takes its last value, as
    ///   Python's `dict` does: the parser returns each name once;
    /// - an unpaired surrogate (`\ud800`, or encoded) is read, as U+FFFD: a Swift string
    ///   cannot hold it. Python's string then equals no configured bundle id or
    ///   environment, and U+FFFD equals none either unless the configuration itself
    ///   holds U+FFFD at that place;
    /// - an integer literal of more than 4,300 digits is refused, as Python refuses to
    ///   convert it (`sys.int_info.default_max_str_digits`); fractions and exponents
    ///   have no such limit (Python reads them as floats: `1e999` is infinity);
    /// - nesting is allowed to 512 levels. Python's limit is its recursion limit (1,000
    ///   frames) less the frames of whoever calls it, about 990 levels for a bare
    ///   `json.loads` and fewer inside a web server, so no fixed number matches it.
    ///   512 is Foundation's `JSONSerialization` limit; App Store payloads nest three
    ///   levels.
    /// Syntax errors are the same as `rfc8259`'s otherwise (Python refuses trailing
    /// commas, comments, control characters in strings, single quotes and leading zeros
    /// too); their offsets count bytes of the input as UTF-8.
    case python

    /// Arrays and objects nested deeper than this are refused. The parser needs no call
    /// stack per level, but releasing a value does: the deepest document of either
    /// dialect is parsed and released within 512 KiB of stack (`JSONParserTests`).
    package var maximumDepth: Int {
        switch self {
        case .rfc8259: return 128
        case .python: return 512
        }
    }
}
