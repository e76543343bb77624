/// Text that comes from a validator's run (case ids, reasons, the harness command,
/// standard error): shown to people, never trusted. `forge report` and the HTML pages
/// pass every such string through here before it reaches a terminal or a page, so a
/// hostile harness cannot move the cursor, reorder text or make a page megabytes long.
public enum UntrustedText {
    /// At most `limit` Unicode scalars of `text`, followed by `… (N more characters)`
    /// when it is longer. Counted in scalars, not characters: one base letter with a
    /// million combining marks is one character, but is still cut.
    public static func clipped(_ text: String, to limit: Int) -> String {
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var kept = 0
        while kept < limit, end != scalars.endIndex {
            scalars.formIndex(after: &end)
            kept += 1
        }
        guard end != scalars.endIndex else { return text }
        let dropped = scalars[end...].count
        return String(scalars[..<end]) + "… (\(dropped) more character\(dropped == 1 ? "" : "s"))"
    }

    /// `text` with every character that could steer a terminal or a renderer made
    /// visible: C0 controls become their Control Pictures (U+2400…: `␀`, `␛`, `␍`), DEL
    /// `␡`; C1 controls, bidirectional embeddings, overrides and isolates, line and
    /// paragraph separators and noncharacters become `[U+XXXX]`. With `multiline`, line
    /// feeds and tabs are kept (standard error); otherwise they become `␊` and `␉` too.
    public static func visible(_ text: String, multiline: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x09, 0x0A:
                result.append(multiline ? scalar : Unicode.Scalar(0x2400 + value)!)
            case 0x00...0x1F:
                result.append(Unicode.Scalar(0x2400 + value)!)
            case 0x7F:
                result.append("\u{2421}")
            case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C,
                 0xFDD0...0xFDEF:
                result.append(contentsOf: codePoint(value).unicodeScalars)
            case _ where value & 0xFFFE == 0xFFFE:
                result.append(contentsOf: codePoint(value).unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `[U+202E]`
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "[U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
    }
}
