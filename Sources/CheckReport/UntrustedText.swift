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

    /// `text` with every character that could steer a terminal or a renderer written
    /// as an escape in plain ASCII, the way Python's `repr` does (Unicode's Control
    /// Pictures, `␛`, are missing from common fonts and showed as empty boxes): `\n`,
    /// `\t`, `\r`; other C0 controls, DEL and C1 controls as `\x1B`; bidirectional
    /// embeddings, overrides, isolates and marks, line and paragraph separators and
    /// noncharacters as `\u202E` (`\U0010FFFF` above U+FFFF). With `multiline`, line feeds
    /// and tabs are kept as they are (standard error).
    public static func visible(_ text: String, multiline: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x09 where multiline, 0x0A where multiline:
                result.append(scalar)
            case 0x09:
                result.append(contentsOf: "\\t".unicodeScalars)
            case 0x0A:
                result.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D:
                result.append(contentsOf: "\\r".unicodeScalars)
            case 0x00...0x1F, 0x7F...0x9F:
                result.append(contentsOf: escape(value, "\\x", digits: 2).unicodeScalars)
            case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFDD0...0xFDEF:
                result.append(contentsOf: escape(value, "\\u", digits: 4).unicodeScalars)
            case _ where value & 0xFFFE == 0xFFFE:
                result.append(contentsOf: (value > 0xFFFF ? escape(value, "\\U", digits: 8)
                                                          : escape(value, "\\u", digits: 4)).unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `\x1B`, `\u202E`, `\U0010FFFF`
    package static func escape(_ value: UInt32, _ prefix: String, digits: Int) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return prefix + String(repeating: "0", count: max(0, digits - hex.count)) + hex
    }
}
