/// Escaping for the HTML pages of `forge check --html` and `forge report --html`
/// (and, through `JUnitReport.escape`, for JUnit XML).
package enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references: safe
    /// as element content and inside a quoted attribute value.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Untrusted `text` for a page: cut to `limit` scalars, controls made visible,
    /// then escaped. Every string that comes from a results file goes through here.
    package static func untrusted(_ text: String, limit: Int, multiline: Bool = false) -> String {
        escaped(UntrustedText.visible(UntrustedText.clipped(text, to: limit), multiline: multiline))
    }
}
