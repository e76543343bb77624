import ReceiptForge
import XCTest

final class UntrustedTextTests: XCTestCase {
    func testClippingCountsScalarsAndSaysHowMuchWasCut() {
        XCTAssertEqual(UntrustedText.clipped("abcdef", to: 6), "abcdef")
        XCTAssertEqual(UntrustedText.clipped("abcdef", to: 4), "abcd… (2 more characters)")
        XCTAssertEqual(UntrustedText.clipped("abcde", to: 4), "abcd… (1 more character)")
        XCTAssertEqual(UntrustedText.clipped("e\u{301}\u{301}\u{301}", to: 2), "e\u{301}… (2 more characters)")
        XCTAssertEqual(UntrustedText.clipped("", to: 0), "")
    }

    func testControlsBecomeVisibleAndOrdinaryTextStays() {
        XCTAssertEqual(UntrustedText.visible("\u{1B}[2J\u{00}\u{7F}"), "␛[2J␀␡")
        XCTAssertEqual(UntrustedText.visible("a\nb\tc\r"), "a␊b␉c␍")
        XCTAssertEqual(UntrustedText.visible("a\nb\tc\r", multiline: true), "a\nb\tc␍")
        XCTAssertEqual(UntrustedText.visible("\u{9B}31m \u{202E}x\u{2069} \u{2028} " + CheckResultsSamples.nonCharacters),
                       "[U+009B]31m [U+202E]x[U+2069] [U+2028] [U+FFFE][U+10FFFF][U+FDD0]")
        XCTAssertEqual(UntrustedText.visible("Grüße ✓ 日本 \u{FFFD} 🙂"), "Grüße ✓ 日本 \u{FFFD} 🙂")
    }
}
