import BER
import FuzzTargets
import TestSupport
import XCTest

/// The `ber` target's typed round trip (`BERTypedRoundTrip`): what it accepts, and that
/// each property fires, with its signature, on a walk that is broken on purpose.
final class BERTypedRoundTripTests: XCTestCase {
    /// A DER SEQUENCE holding one element of every type the walk has a typed reader for,
    /// plus a SET, a context-specific element and a high tag number.
    static let derInput: [UInt8] = {
        var writer = BERWriter()
        writer.appendSequence { s in
            s.appendBoolean(true)
            s.appendInteger(-129)
            s.appendUnsignedInteger(magnitude: [0x80] + [UInt8](repeating: 0x11, count: 9))  // 10 octets: no Int64
            s.appendPrimitive(.integer, contents: [0x80] + [UInt8](repeating: 0, count: 9))  // large negative
            s.appendInteger(3, tag: .enumerated)
            s.appendBitString(BitString(bytes: [0xF0][...], unusedBits: 4))
            s.appendOctetString([1, 2, 3])
            s.appendNull()
            s.appendObjectIdentifier(.sha256)
            s.appendUTF8String("é")
            s.appendPrintableString("Receipt Forge")
            s.appendIA5String("a@b")
            s.appendIA5String("visible", tag: .visibleString)
            s.appendTime(ASN1Time(year: 2024, month: 2, day: 29, hour: 12))
            s.appendGeneralizedTime(ASN1Time(year: 2024, month: 5, day: 1, nanoseconds: 500_000_000))
            s.appendTime(ASN1Time(year: 2050, month: 1, day: 1))
            s.appendSet(encodedElements: [[0x02, 0x01, 0x02], [0x02, 0x01, 0x01]], order: .asWritten)
            s.appendConstructed(.context(0)) { $0.appendNull() }
            s.appendPrimitive(BERTag(.private, 1000, constructed: false), contents: [9])
        }
        return writer.bytes
    }()

    func testDERInputIsWrittenBackByteForByte() throws {
        let input = Self.derInput
        XCTAssertNoThrow(try BERNode.parse(input, rules: BERFuzz.derRules))
        XCTAssertEqual(try BERTypedRoundTrip.rewrite(input, rules: BERFuzz.derRules), input)
        XCTAssertNil(BERTypedRoundTrip.check(input, derAccepted: true))
    }

    /// Indefinite lengths, a segmented OCTET STRING, a BOOLEAN 01, a padded INTEGER, a
    /// UTCTime without seconds, a fraction with a trailing zero and an unsorted SET:
    /// written again in canonical form, sorted, and a fixed point from there.
    func testBERInputReachesAFixedPoint() throws {
        let input = bytes(hex: "3080" + "010101" + "0203000001" + "2480040201020401030000"
                              + "170b323430323239313230305a" + "181232303234303530313030303030302e35305a"
                              + "3106020102020101" + "0000")
        XCTAssertThrowsError(try BERNode.parse(input, rules: BERFuzz.derRules))
        XCTAssertNoThrow(try BERNode.parse(input, rules: BERFuzz.berRules))
        XCTAssertNil(BERTypedRoundTrip.check(input, derAccepted: false))
        let written = try BERTypedRoundTrip.rewrite(input, rules: BERFuzz.berRules)
        XCTAssertEqual(written, bytes(hex: "3039" + "0101ff" + "020101" + "240704020102040103"
                                           + "170d3234303232393132303030305a" + "181132303234303530313030303030302e355a"
                                           + "3106020101020102"))
        XCTAssertEqual(try BERTypedRoundTrip.rewrite(written, rules: BERTypedRoundTrip.sortedBERRules), written)
    }

    /// What DER refuses the typed DER walk refuses, and its error says where, on which path.
    func testTypedDERWalkRefusesWithAPath() {
        let input = bytes(hex: "3080" + "3003" + "020101" + "0000")
        XCTAssertThrowsError(try BERTypedRoundTrip.rewrite(input, rules: BERFuzz.derRules)) { error in
            guard let error = error as? BERError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .indefiniteLengthNotAllowed)
            XCTAssertEqual(error.offset, 1)  // the length octet 0x80
            XCTAssertNil(BERTypedRoundTrip.errorFinding(error, inputCount: input.count))
        }
        let nested = bytes(hex: "3004" + "3002" + "0201")  // INTEGER cut short inside two SEQUENCEs
        XCTAssertThrowsError(try BERTypedRoundTrip.rewrite(nested, rules: BERFuzz.berRules)) { error in
            guard let error = error as? BERError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .lengthExceedsInput)
            XCTAssertEqual(error.offset, 4)
            XCTAssertEqual(error.pathDescription, "SEQUENCE[0].SEQUENCE[0].INTEGER")
            XCTAssertTrue(error.description.hasPrefix("lengthExceedsInput at byte 4 in SEQUENCE[0].SEQUENCE[0].INTEGER: "),
                          error.description)
            XCTAssertNil(BERTypedRoundTrip.errorFinding(error, inputCount: nested.count))
        }
    }

    func testBrokenWalksAreCaught() {
        let der = Self.derInput
        let ber = bytes(hex: "3080020101" + "0000")
        let flipsLastByte: BERTypedRoundTrip.Rewrite = { input, _ in input.dropLast() + [input.last! ^ 1] }
        XCTAssertEqual(BERTypedRoundTrip.check(der, derAccepted: true, rewrite: flipsLastByte)?.signature,
                       "ber-typed-der-difference")
        let acceptsAll: BERTypedRoundTrip.Rewrite = { input, _ in input }
        XCTAssertEqual(BERTypedRoundTrip.check(ber, derAccepted: false, rewrite: acceptsAll)?.detail,
                       "the typed DER walk accepts what the DER parse refuses")
        let refusesBER: BERTypedRoundTrip.Rewrite = { input, rules throws(BERError) in
            guard rules.mode == .der else { throw BERError(.truncated, at: 0, "broken on purpose") }
            return input
        }
        XCTAssertEqual(BERTypedRoundTrip.check(der, derAccepted: true, rewrite: refusesBER)?.signature,
                       "ber-typed-roundtrip-difference")
        let growsEachTime: BERTypedRoundTrip.Rewrite = { input, rules throws(BERError) in
            rules.mode == .der ? input : input + [0]
        }
        XCTAssertEqual(BERTypedRoundTrip.check(der, derAccepted: true, rewrite: growsEachTime)?.signature,
                       "ber-typed-roundtrip-difference")
    }

    func testErrorFindings() {
        let outside = BERError(.truncated, at: 11, "needs 2 bytes, 1 left")
        XCTAssertEqual(BERTypedRoundTrip.errorFinding(outside, inputCount: 10)?.signature, "ber-error-offset-outside-input")
        XCTAssertNil(BERTypedRoundTrip.errorFinding(outside, inputCount: 11))
    }

    /// The dump's share (`BERFuzz.takesDump`, `FuzzShare`): small inputs only, about one
    /// in `dumpShare`, the same answer for the same bytes, and a different one when a byte changes.
    func testTheDumpTakesItsShareOfSmallInputs() {
        // 4000 distinct inputs of 1...dumpLimit bytes, spread by a multiplicative hash.
        let inputs = (0..<4000).map { i in
            (0...(i % BERFuzz.dumpLimit)).map { j in UInt8(truncatingIfNeeded: (i &* 2_654_435_761 &+ j &* 40_503) >> 11) }
        }
        let taken = inputs.filter(BERFuzz.takesDump).count
        let expected = inputs.count / Int(BERFuzz.dumpShare)
        XCTAssertTrue((expected * 3 / 4...expected * 5 / 4).contains(taken), "\(taken) of 4000 take the dump, not about \(expected)")
        XCTAssertEqual(inputs.map(BERFuzz.takesDump), inputs.map(BERFuzz.takesDump))
        XCTAssertFalse(BERFuzz.takesDump([UInt8](repeating: 0, count: BERFuzz.dumpLimit + 1)))
        let flips = inputs.prefix(400).filter { input in
            var changed = input
            changed[0] ^= 1
            return BERFuzz.takesDump(changed) != BERFuzz.takesDump(input)
        }.count
        // A changed byte redraws: the choice differs for about 2 p (1 - p) of them.
        XCTAssertGreaterThan(flips, 400 / Int(BERFuzz.dumpShare) / 2, "one changed byte changes the choice")
        XCTAssertTrue(FuzzShare.takes([1, 2, 3], oneIn: 1))
    }

    func testDumpTextHasALinePerElement() {
        var dump = BERDump(Self.derInput, rules: .ber)
        XCTAssertNil(BERTypedRoundTrip.dumpTextFinding(dump))
        XCTAssertEqual(dump.text.split(separator: "\n").count, 23)  // the SEQUENCE, 19 children, 2 in the SET, 1 in [0]
        dump.nodes[0].children[0].value = "two\nlines"
        XCTAssertEqual(BERTypedRoundTrip.dumpTextFinding(dump)?.signature, "ber-dump-text-difference")
    }
}
