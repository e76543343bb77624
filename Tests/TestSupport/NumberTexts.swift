import ForgeSupport

/// JSON number texts drawn across every magnitude a user can write: integers of 1 to
/// 400 digits, decimals with exponents from -500 to 500, either sign, and the edges
/// (`-0`, `1e-400`, `1e400`, 2^63 and 2^64 around), for the property tests of the readers
/// that take numbers from untrusted input (issue 35, "No trap on user input").
public enum NumberTexts {
    public static let edges = ["0", "-0", "1e-400", "1e400", "-1e400", "1e300", "-1e300", "9223372036854775807",
                               "9223372036854775808", "-9223372036854775809", "18446744073709551616", "0.5", "-0.0"]

    /// `count` texts after the edges, the same for the same seed.
    public static func sample(count: Int, seed: UInt64) -> [String] {
        var random = DeterministicRandom(seed: seed)
        func digits(_ n: Int) -> String {
            String((0..<n).map { index in Character(String(index == 0 ? 1 + random.next() % 9 : random.next() % 10)) })
        }
        var texts = edges
        for _ in 0..<count {
            let sign = random.next() % 3 == 0 ? "-" : ""
            switch random.next() % 3 {
            case 0:
                texts.append(sign + digits(1 + Int(random.next() % 400)))
            case 1:
                let exponent = Int(random.next() % 1_001) - 500
                texts.append(sign + digits(1 + Int(random.next() % 3)) + "." + digits(1 + Int(random.next() % 6)) + "e\(exponent)")
            default:
                texts.append(sign + digits(1 + Int(random.next() % 12)))
            }
        }
        return texts
    }
}
