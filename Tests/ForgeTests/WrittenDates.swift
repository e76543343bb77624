import BER
import Foundation
import Receipt

extension ReceiptAttributeSet {
    /// The date attributes as written: type and text ("" for an empty date), in order.
    func writtenDates() throws -> [(type: Int64, text: String)] {
        try attributes.filter { Self.knownValueKinds[$0.type] == .date }.map { attribute in
            var reader = BERReader(attribute.value, rules: .ber)
            return (attribute.type, String(decoding: try reader.readStringBytes(.ia5String), as: UTF8.self))
        }
    }

    /// The types of the date attributes written with fractional seconds.
    func typesWithFractionalSeconds() throws -> Set<Int64> {
        Set(try writtenDates().filter { $0.text.range(of: #"T\d\d:\d\d:\d\d\."#, options: .regularExpression) != nil }.map(\.type))
    }
}
