import BigNum

/// NIST P-256 (FIPS 186-4 D.1.2.3) on the project's BigNum: field and scalar
/// arithmetic modulo p and n with `MontgomeryContext`, and k·G in Jacobian
/// coordinates (a = −3 doubling). Only for the forge's deterministic ECDSA over
/// public test keys: the time taken depends on the scalar (not constant-time).
/// Every signature made with it is checked by swift-crypto before use.
enum P256Curve {
    static let p = hex("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF")
    static let n = hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    static let gx = hex("6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296")
    static let gy = hex("4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5")

    /// Arithmetic modulo one of the two primes, on 32-byte big-endian values.
    struct Modular: Sendable {
        let modulus: [UInt8]
        let context: BigNum.MontgomeryContext

        init(_ modulus: [UInt8]) {
            self.modulus = modulus
            // Both P-256 primes are odd 256-bit numbers: a valid Montgomery modulus.
            context = try! BigNum.MontgomeryContext(modulus: modulus)
        }

        // Operands are results of these functions or checked below the modulus: reduced.
        func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { try! context.add(a, b) }
        func sub(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { try! context.subtract(a, b) }
        func mul(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { try! context.multiply(a, b) }
        func reduce(_ a: [UInt8]) -> [UInt8] { context.reduce(a) }
        /// a^(m−2): the inverse, m being prime; a must not be 0.
        func inverse(_ a: [UInt8]) -> [UInt8] {
            var exponent = modulus
            exponent[31] -= 2  // both primes end in a byte ≥ 2
            return try! context.power(a, exponent: exponent)
        }
    }

    static let field = Modular(p)
    static let scalars = Modular(n)

    /// A point in Jacobian coordinates (X/Z², Y/Z³); Z = 0 is the point at infinity.
    struct Point {
        var x: [UInt8], y: [UInt8], z: [UInt8]
        var isInfinity: Bool { isZero(z) }
        static let infinity = Point(x: one, y: one, z: zero)
    }

    static let zero = [UInt8](repeating: 0, count: 32)
    static let one: [UInt8] = zero.dropLast() + [1]

    static func double(_ point: Point) -> Point {
        if point.isInfinity || isZero(point.y) { return .infinity }
        let f = field
        // dbl-2001-b (a = −3).
        let delta = f.mul(point.z, point.z)
        let gamma = f.mul(point.y, point.y)
        let beta = f.mul(point.x, gamma)
        let t = f.mul(f.sub(point.x, delta), f.add(point.x, delta))
        let alpha = f.add(f.add(t, t), t)
        let beta4 = f.add(f.add(beta, beta), f.add(beta, beta))
        let beta8 = f.add(beta4, beta4)
        let x3 = f.sub(f.mul(alpha, alpha), beta8)
        let yz = f.add(point.y, point.z)
        let z3 = f.sub(f.sub(f.mul(yz, yz), gamma), delta)
        let gamma2 = f.mul(gamma, gamma)
        let gamma2x8 = f.add(f.add(f.add(gamma2, gamma2), f.add(gamma2, gamma2)), f.add(f.add(gamma2, gamma2), f.add(gamma2, gamma2)))
        let y3 = f.sub(f.mul(alpha, f.sub(beta4, x3)), gamma2x8)
        return Point(x: x3, y: y3, z: z3)
    }

    static func add(_ a: Point, _ b: Point) -> Point {
        if a.isInfinity { return b }
        if b.isInfinity { return a }
        let f = field
        let z1z1 = f.mul(a.z, a.z), z2z2 = f.mul(b.z, b.z)
        let u1 = f.mul(a.x, z2z2), u2 = f.mul(b.x, z1z1)
        let s1 = f.mul(a.y, f.mul(b.z, z2z2)), s2 = f.mul(b.y, f.mul(a.z, z1z1))
        let h = f.sub(u2, u1), r = f.sub(s2, s1)
        if isZero(h) { return isZero(r) ? double(a) : .infinity }
        let hh = f.mul(h, h), hhh = f.mul(hh, h)
        let u1hh = f.mul(u1, hh)
        let x3 = f.sub(f.sub(f.mul(r, r), hhh), f.add(u1hh, u1hh))
        let y3 = f.sub(f.mul(r, f.sub(u1hh, x3)), f.mul(s1, hhh))
        let z3 = f.mul(h, f.mul(a.z, b.z))
        return Point(x: x3, y: y3, z: z3)
    }

    /// The affine x coordinate of k·G, or nil for the point at infinity.
    static func baseMultipleX(_ k: [UInt8]) -> [UInt8]? {
        let generator = Point(x: gx, y: gy, z: one)
        var result = Point.infinity
        for byte in k {
            for bit in (0..<8).reversed() {
                result = double(result)
                if byte >> UInt8(bit) & 1 == 1 { result = add(result, generator) }
            }
        }
        if result.isInfinity { return nil }
        let zInverse = field.inverse(result.z)
        return field.mul(result.x, field.mul(zInverse, zInverse))
    }

    static func isZero(_ value: [UInt8]) -> Bool { value.allSatisfy { $0 == 0 } }

    /// a < b for equal-length big-endian values.
    static func less(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x < y }
        return false
    }

    static func hex(_ text: String) -> [UInt8] {
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
