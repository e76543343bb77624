/// `forge check --junit FILE`: JUnit XML as CI systems render it. One `testcase` per
/// case; `failure` for a wrong verdict (and a differing reason under
/// `--strict-reasons`), `error` for crash, hang and error, `skipped` for unsupported
/// cases and known failures.
public enum JUnitReport {
    public static func render(_ results: CheckResults, strictReasons: Bool) -> String {
        let failures = results.results.filter { $0.knownFailure == nil && ($0.outcome == .fail || ($0.outcome == .reasonDiffers && strictReasons)) }.count
        let errors = results.results.filter { $0.knownFailure == nil && [.crash, .hang, .error].contains($0.outcome) }.count
        let skipped = results.results.filter { $0.outcome == .skipped || $0.knownFailure != nil }.count
        let time = results.results.reduce(0) { $0 + $1.seconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"receipt-forge\" tests=\"\(results.results.count)\" failures=\"\(failures)\" "
            + "errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
        xml += "  <testsuite name=\"forge check: \(escape(results.harness))\" tests=\"\(results.results.count)\" "
            + "failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\" "
            + "timestamp=\"\(escape(results.startedAt))\">\n"
        for result in results.results {
            let classname = "receipt-forge." + (result.tags.first ?? "case")
            xml += "    <testcase classname=\"\(escape(classname))\" name=\"\(escape(result.id))\" time=\"\(seconds(result.seconds))\">\n"
            let expected = describe(result.expected)
            let actual = result.actual.map(describe) ?? "no verdict"
            let message = "expected \(expected), got \(actual)"
            if let known = result.knownFailure, result.outcome != .pass {
                xml += "      <skipped message=\"\(escape("known failure (\(result.outcome.rawValue)): \(known)"))\"/>\n"
            } else {
                switch result.outcome {
                case .pass:
                    break
                case .reasonDiffers:
                    if strictReasons {
                        xml += "      <failure type=\"reason-differs\" message=\"\(escape(message))\"/>\n"
                    } else {
                        xml += "      <system-out>\(escape("reason differs: " + message))</system-out>\n"
                    }
                case .fail:
                    xml += "      <failure type=\"fail\" message=\"\(escape(message))\">\(escape("importance: \(result.importance)"))</failure>\n"
                case .skipped:
                    xml += "      <skipped message=\"\(escape(result.detail ?? "the validator does not support this case"))\"/>\n"
                case .crash, .hang, .error:
                    xml += "      <error type=\"\(result.outcome.rawValue)\" message=\"\(escape(result.detail ?? result.outcome.rawValue))\"/>\n"
                }
            }
            if !result.stderrTail.isEmpty {
                xml += "      <system-err>\(escape(result.stderrTail))</system-err>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    package static func describe(_ verdict: CheckResult.Verdict) -> String {
        verdict.text
    }

    package static func seconds(_ value: Double) -> String {
        String(Double((value * 1000).rounded()) / 1000)
    }

    /// XML text and attribute escaping (the HTML pages' escaping, which XML reads the
    /// same way); characters XML 1.0 cannot hold become `?` first.
    public static func escape(_ text: String) -> String {
        var storable = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t", "\n", "\r": storable.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): storable.append("?")
            default: storable.append(scalar)
            }
        }
        return HTMLEscaping.escaped(String(storable))
    }
}
