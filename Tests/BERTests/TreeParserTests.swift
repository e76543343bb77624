import BER
import TestSupport
import XCTest

/// `BERNode.parse` reads a tree into one table without recursion (`BERTreeParser`):
/// it reads all of an element's children before visiting the first, so an error in
/// a later child's header is deferred until the elder siblings' subtrees are done.
/// These tests pin that the error thrown is still the one a recursive descent meets
/// first, and that table-backed children behave like an array of nodes.
final class TreeParserTests: XCTestCase {
    private func error(_ hex: String, _ rules: BERRules) -> BERError? {
        do throws(BERError) {
            _ = try BERNode.parse(bytes(hex: hex), rules: rules)
            return nil
        } catch {
            return error
        }
    }

    /// SEQUENCE { BOOLEAN 05, 02 85 }: the descent checks the BOOLEAN (DER: 00 or
    /// FF) before it reads the truncated INTEGER header after it.
    func testAnElderSiblingsContentsErrorComesBeforeAYoungerSiblingsHeaderError() {
        let der = error("3005010105" + "0285", .der)
        XCTAssertEqual(der?.code, .invalidBoolean)
        XCTAssertEqual(der?.offset, 2)
        // BER accepts 05 as TRUE, so the header error is the first.
        let ber = error("3005010105" + "0285", .ber)
        XCTAssertEqual(ber?.code, .truncated)
        XCTAssertEqual(ber?.offset, 7, "where the five missing length octets would start")
    }

    /// SEQUENCE { SEQUENCE { INTEGER 00 01 }, 02 85 }: the elder sibling's whole
    /// subtree comes first, so DER's non-minimal INTEGER two levels down wins.
    func testAnErrorDeepInAnElderSiblingComesFirst() {
        let der = error("3009" + "3004" + "02020001" + "0285" + "00", .der)
        XCTAssertEqual(der?.code, .nonMinimalInteger)
        XCTAssertEqual(der?.offset, 4)
    }

    /// SEQUENCE { SEQUENCE { NULL, 02 85 }, BOOLEAN 05 }: the inner deferred error is
    /// due when the inner SEQUENCE is done, before the outer BOOLEAN is checked.
    func testADeferredErrorIsThrownBeforeTheNextSiblingOfItsParent() {
        let der = error("3009" + "3004" + "0500" + "0285" + "010105", .der)
        XCTAssertEqual(der?.code, .truncated)
        XCTAssertEqual(der?.offset, 8, "after the inner 02 85")
    }

    /// SEQUENCE { SEQUENCE { NULL, 02 85 }, 02 85 }: both levels defer an error; the
    /// inner one is met first (the outer one, after the inner SEQUENCE, never is).
    func testTheInnerOfTwoDeferredErrorsIsThrown() {
        let error = error("3008" + "3004" + "0500" + "0285" + "0285", .ber)
        XCTAssertEqual(error?.code, .truncated)
        XCTAssertEqual(error?.offset, 8)
    }

    /// With nothing before it, the deferred header error is the error.
    func testADeferredErrorIsThrownWhenNothingComesBeforeIt() {
        let error = error("3004" + "0500" + "0285", .der)
        XCTAssertEqual(error?.code, .truncated)
        XCTAssertEqual(error?.offset, 6)
        XCTAssertEqual(error?.reason, "needs 5 bytes, 0 left")
    }

    func testChildrenReadFromTheTableEqualAHandBuiltTree() throws {
        let tree = try BERNode.parse(bytes(hex: "3080" + "020105" + "3003" + "0101FF" + "0400" + "0000"), rules: .ber)
        let byHand = BERNode(tag: .sequence, value: .constructed([
            BERNode(tag: .integer, value: .primitive([5][...])),
            BERNode(tag: .sequence, value: .constructed([BERNode(tag: .boolean, value: .primitive([0xFF][...]))])),
            BERNode(tag: .octetString, value: .primitive([][...])),
        ]))
        XCTAssertEqual(tree, byHand)
        XCTAssertEqual(tree.hashValue, byHand.hashValue)
        XCTAssertEqual(tree.children.count, 3)
        XCTAssertEqual(tree.children[1].children.count, 1)
        XCTAssertEqual(tree.children[1].children[0].value, .primitive([0xFF][...]))
        XCTAssertEqual(tree.children.map(\.tag), [.integer, .sequence, .octetString])
        // Where each node came from: offsets into the input, depth from 1.
        XCTAssertEqual(tree.children[1].children[0].source?.offset, 7)
        XCTAssertEqual(tree.children[1].children[0].source?.depth, 3)
        XCTAssertNil(tree.source?.length, "indefinite length")
        XCTAssertTrue(tree.children[2].children.isEmpty, "a primitive node has no children")
        // A list changed by hand differs.
        var changed = Array(tree.children)
        changed[0] = BERNode(tag: .integer, value: .primitive([6][...]))
        XCTAssertNotEqual(BERNode(tag: .sequence, value: .constructed(BERNodeList(changed))), tree)
    }

    func testConcatenatedStringsKeepTheirValueInTheTable() throws {
        // OCTET STRING, constructed, indefinite: segments 01 02 and 03.
        let input = bytes(hex: "2480" + "04020102" + "040103" + "0000")
        let tree = try BERNode.parse(input, rules: .ber, concatenatingStrings: true)
        XCTAssertEqual(tree.tag, .octetString)
        XCTAssertEqual(tree.value, .primitive([1, 2, 3][...]))
        let segmented = try BERNode.parse(input, rules: .ber)
        XCTAssertEqual(segmented.children.map(\.value), [.primitive([1, 2][...]), .primitive([3][...])])
    }

    /// Deep nesting up to the rules' limit parses without recursion, and the tree
    /// is as deep as the input.
    func testDeepNestingParsesIteratively() throws {
        let depth = 60
        var input: [UInt8] = [0x05, 0x00]
        for _ in 1..<depth { input = [0x30, 0x80] + input + [0x00, 0x00] }
        var node = try BERNode.parse(input, rules: BERRules(.ber, maximumDepth: depth))
        var levels = 1
        while let child = node.children.first {
            node = child
            levels += 1
        }
        XCTAssertEqual(levels, depth)
        XCTAssertEqual(node.tag, .null)
        XCTAssertThrowsError(try BERNode.parse(input, rules: BERRules(.ber, maximumDepth: depth - 1)))
    }
}
