import BigNum

/// NIST P-256's group order n (FIPS 186-4 D.1.2.3) and arithmetic modulo it on the
/// project's BigNum (`MontgomeryContext`), for the forge's deterministic ECDSA over
/// public test keys (not constant-time). The point k·G itself comes from
/// swift-crypto (the public key of the scalar k); every signature made is checked by
/// swift-crypto before use.
package enum P256Scalars {
    package static let n = hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

    /// Arithmetic modulo a prime, on 32-byte big-endian values.
    package struct Modular: Sendable {
        let modulus: [UInt8]
        let context: BigNum.MontgomeryContext

        init(_ modulus: [UInt8]) {
            self.modulus = modulus
            // n is an odd 256-bit prime: a valid Montgomery modulus.
            context = try! BigNum.MontgomeryContext(modulus: modulus)
        }

        // Operands are results of these functions or checked below the modulus: reduced.
        func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { try! context.add(a, b) }
        func mul(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { try! context.multiply(a, b) }
        func reduce(_ a: [UInt8]) -> [UInt8] { context.reduce(a) }
        /// a^(m−2): the inverse, m being prime; a must not be 0.
        func inverse(_ a: [UInt8]) -> [UInt8] {
            var exponent = modulus
            exponent[31] -= 2  // n ends in 0x51
            return try! context.power(a, exponent: exponent)
        }
    }

    package static let scalars = Modular(n)

    package static func isZero(_ value: [UInt8]) -> Bool { value.allSatisfy { $0 == 0 } }

    /// a < b for equal-length big-endian values.
    package static func less(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x < y }
        return false
    }

    package static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
