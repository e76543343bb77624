/// How each outcome is shown on the results pages and in `forge report`'s table:
/// a colour and also a symbol and a word, so the page does not rely on colour alone.
extension CheckOutcome {
    /// A symbol in the fonts Chromium and the common desktops ship (DejaVu has each;
    /// it has no ⌛, which Chromium drew as an empty box).
    public var symbol: String {
        switch self {
        case .pass: return "✓"
        case .reasonDiffers: return "≈"
        case .fail: return "✗"
        case .skipped: return "–"
        case .crash: return "✸"
        case .hang: return "◷"
        case .error: return "⚠"
        }
    }

    /// One sentence for the legend.
    public var meaning: String {
        switch self {
        case .pass: return "the expected verdict (and reason, when the validator gave one)"
        case .reasonDiffers: return "the right verdict with another reason; a failure only with --strict-reasons"
        case .fail: return "the wrong verdict"
        case .skipped: return "the validator does not support this case (it exited 2)"
        case .crash: return "the validator was killed by a signal"
        case .hang: return "still running at the timeout; its process group was killed"
        case .error: return "output or exit status outside the contract"
        }
    }

    /// The wrong verdict or no usable verdict: `fail`, `crash`, `hang`, `error`
    /// (counted as failures in the summaries, known failures included).
    public var isFailure: Bool {
        switch self {
        case .fail, .crash, .hang, .error: return true
        case .pass, .reasonDiffers, .skipped: return false
        }
    }

    /// The CSS class of a row or cell with this outcome (`o-reason-differs`).
    package var cssClass: String { "o-" + rawValue }

    /// Badge background, badge text and row tint. Badge text on its background has a
    /// contrast of at least 4.5:1 (WCAG AA).
    package var colours: (badge: String, text: String, tint: String) {
        switch self {
        case .pass: return ("#1e7b34", "#ffffff", "#e6f4e9")
        case .reasonDiffers: return ("#f2c037", "#3d2e00", "#fff5d4")
        case .fail: return ("#c62828", "#ffffff", "#fde2e2")
        case .skipped: return ("#6e6e6e", "#ffffff", "#efefef")
        case .crash: return ("#7a1010", "#ffffff", "#f1d9d9")
        case .hang: return ("#4b2a7b", "#ffffff", "#e9e2f4")
        case .error: return ("#6a1b4d", "#ffffff", "#f3e0ec")
        }
    }
}
