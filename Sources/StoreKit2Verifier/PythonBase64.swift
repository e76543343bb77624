/// Python's `base64.b64decode(text, validate=True)` as CPython 3.11 runs it
/// (`binascii.a2b_base64` in strict mode), which Apple's library applies to `x5c[0]` and
/// `x5c[1]` before `load_certificate`: the standard alphabet only (no URL-safe
/// characters, no white space, no non-ASCII); no leading `=`; once a `=` has been seen
/// only `=` may follow; a group that padding completes ends the input; a final group of
/// one character, or an incomplete group without padding, is an error. Non-zero bits
/// left over by the last character are accepted, and so are `=` after a complete group
/// (`AAAA==` decodes as `AAAA`). nil where Python raises.
///
/// Later CPython versions refuse some of what 3.11 accepts; the oracle venv pins 3.11,
/// the Python of the library this verifier agrees with.
package enum PythonBase64 {
    package static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        if input.first == UInt8(ascii: "=") { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var position = 0  // characters of the current group of four seen
        var left: UInt8 = 0
        var pads = 0
        var paddingStarted = false
        for (index, character) in input.enumerated() {
            if character == UInt8(ascii: "=") {
                paddingStarted = true
                if position >= 2 {
                    pads += 1
                    if position + pads >= 4 {
                        // The padding completes the group: nothing may follow it.
                        return index + 1 < input.count ? nil : output
                    }
                }
                continue
            }
            guard let value = Self.value(character), !paddingStarted else { return nil }
            pads = 0
            switch position {
            case 0:
                left = value
            case 1:
                output.append(left << 2 | value >> 4)
                left = value & 0x0F
            case 2:
                output.append(left << 4 | value >> 2)
                left = value & 0x03
            default:
                output.append(left << 6 | value)
            }
            position = (position + 1) % 4
        }
        return position == 0 ? output : nil
    }

    private static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
