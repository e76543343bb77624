import ReceiptForge
import XCTest
import CheckReport

final class UntrustedTextTests: XCTestCase {
    func testClippingCountsScalarsAndSaysHowMuchWasCut() {
        XCTAssertEqual(UntrustedText.clipped("abcdef", to: 6), "abcdef")
        XCTAssertEqual(UntrustedText.clipped("abcdef", to: 4), "abcd… (2 more characters)")
        XCTAssertEqual(UntrustedText.clipped("abcde", to: 4), "abcd… (1 more character)")
        XCTAssertEqual(UntrustedText.clipped("e\u{301}\u{301}\u{301}", to: 2), "e\u{301}… (2 more characters)")
        XCTAssertEqual(UntrustedText.clipped("", to: 0), "")
    }

    func testControlsBecomeVisibleAndOrdinaryTextStays() {
        XCTAssertEqual(UntrustedText.visible("\u{1B}[2J\u{00}\u{7F}"), "\\x1B[2J\\x00\\x7F")
        XCTAssertEqual(UntrustedText.visible("a\nb\tc\r"), #"a\nb\tc\r"#)
        XCTAssertEqual(UntrustedText.visible("a\nb\tc\r", multiline: true), "a\nb\tc\\r")
        XCTAssertEqual(UntrustedText.visible("\u{9B}31m \u{202E}x\u{2069} \u{2028} " + CheckResultsSamples.nonCharacters),
                       #"\x9B31m \u202Ex\u2069 \u2028 \uFFFE\U0010FFFF\uFDD0"#)
        XCTAssertEqual(UntrustedText.visible("Grüße ✓ 日本 \u{FFFD} 🙂"), "Grüße ✓ 日本 \u{FFFD} 🙂")
    }
}
