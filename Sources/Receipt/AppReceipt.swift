import BER

/// The decoded payload of an app receipt: a typed view over its attributes.
///
/// `attributes` is the source of truth, in payload order, with every value's raw
/// bytes: unknown types, attribute versions, duplicates and Xcode's unsorted order
/// all survive decode → encode, and the device hash can use the raw DER value of
/// attribute 2. The typed properties read and write those attributes; setting one to
/// nil removes it. See RECEIPT-FORMAT.md for what each type means.
public struct AppReceipt: ReceiptAttributeSet {
    /// Every attribute of the payload, in the order received (or to be written); the typed properties read and write these.
    public var attributes: [ReceiptAttribute]

    /// A receipt made of `attributes`, kept as given.
    public init(attributes: [ReceiptAttribute] = []) {
        self.attributes = attributes
    }

    /// Attribute type numbers (undocumented ones named after what they hold).
    public enum Field {
        /// 0: the environment the receipt was issued in.
        public static let environment: Int64 = 0
        /// 1: the app's App Store item identifier (0 in sandbox).
        public static let appItemID: Int64 = 1
        /// 2: the bundle identifier; its raw DER value feeds the device hash.
        public static let bundleIdentifier: Int64 = 2
        /// 3: the app version (`CFBundleVersion` on iOS, `CFBundleShortVersionString` on macOS).
        public static let appVersion: Int64 = 3
        /// 4: the opaque value, raw bytes that feed the device hash.
        public static let opaqueValue: Int64 = 4
        /// 5: the SHA-1 device hash, raw bytes.
        public static let sha1Hash: Int64 = 5
        /// An undocumented date, empty in sandbox receipts.
        public static let undocumentedDate8: Int64 = 8
        /// 10: the app's age rating, an IA5String.
        public static let ageRating: Int64 = 10
        /// 12: when the receipt was created.
        public static let creationDate: Int64 = 12
        /// 17: one in-app purchase record; the attribute repeats, one per purchase.
        public static let inAppPurchase: Int64 = 17
        /// 18: when the app was first bought.
        public static let originalPurchaseDate: Int64 = 18
        /// 19: the version of the app first bought.
        public static let originalApplicationVersion: Int64 = 19
        /// 21: when the receipt expires (Volume Purchase Program receipts only).
        public static let expirationDate: Int64 = 21
    }

    /// What each known attribute type's value holds, checked when a payload is decoded.
    public static let knownValueKinds: [Int64: AttributeValueKind] = [
        Field.environment: .utf8String, Field.appItemID: .integer, Field.bundleIdentifier: .utf8String,
        Field.appVersion: .utf8String, Field.opaqueValue: .raw, Field.sha1Hash: .raw,
        Field.undocumentedDate8: .date, Field.ageRating: .ia5String, Field.creationDate: .date,
        Field.inAppPurchase: .inAppPurchase, Field.originalPurchaseDate: .date,
        Field.originalApplicationVersion: .utf8String, Field.expirationDate: .date,
    ]
    /// `knownValueKinds` as the decoder looks it up, built once.
    public static let valueKindTable = AttributeValueKindTable(knownValueKinds)

    /// Attribute 0: `Production`, `ProductionSandbox`, `Xcode` (`ProductionVPP` reported).
    public var environment: String? {
        get { string(Field.environment, tag: .utf8String) }
        set { replace(Field.environment, with: newValue.map { .utf8String(Field.environment, $0) }) }
    }

    /// Attribute 1: the App Store item id (0 in sandbox).
    public var appItemID: Int64? {
        get { integer(Field.appItemID) }
        set { replace(Field.appItemID, with: newValue.map { .integer(Field.appItemID, $0) }) }
    }

    /// Attribute 2: the bundle identifier.
    public var bundleIdentifier: String? {
        get { string(Field.bundleIdentifier, tag: .utf8String) }
        set { replace(Field.bundleIdentifier, with: newValue.map { .utf8String(Field.bundleIdentifier, $0) }) }
    }

    /// The whole raw value of attribute 2 (the DER UTF8String: tag, length, bytes),
    /// which the device hash covers.
    public var bundleIdentifierValue: [UInt8]? { attribute(Field.bundleIdentifier)?.value }

    /// Attribute 3: CFBundleVersion (iOS) or CFBundleShortVersionString (macOS).
    public var appVersion: String? {
        get { string(Field.appVersion, tag: .utf8String) }
        set { replace(Field.appVersion, with: newValue.map { .utf8String(Field.appVersion, $0) }) }
    }

    /// Attribute 4: the opaque value (raw; 16 bytes at version 2, 8 in Xcode receipts).
    public var opaqueValue: [UInt8]? {
        get { attribute(Field.opaqueValue)?.value }
        set { replace(Field.opaqueValue, with: newValue.map { .raw(Field.opaqueValue, $0, version: 2) }) }
    }

    /// Attribute 5: the SHA-1 device hash (raw 20 bytes).
    public var sha1Hash: [UInt8]? {
        get { attribute(Field.sha1Hash)?.value }
        set { replace(Field.sha1Hash, with: newValue.map { .raw(Field.sha1Hash, $0) }) }
    }

    /// Attribute 8: an undocumented date (empty in sandbox receipts).
    public var undocumentedDate8: ReceiptDate? {
        get { date(Field.undocumentedDate8) }
        set { replace(Field.undocumentedDate8, with: newValue.map { .date(Field.undocumentedDate8, $0) }) }
    }

    /// Attribute 10: the age rating, e.g. `4+`.
    public var ageRating: String? {
        get { string(Field.ageRating, tag: .ia5String) }
        set { replace(Field.ageRating, with: newValue.map { .ia5String(Field.ageRating, $0) }) }
    }

    /// Attribute 12: when the receipt was created. The chain is validated at this date.
    public var creationDate: ReceiptDate? {
        get { date(Field.creationDate) }
        set { replace(Field.creationDate, with: newValue.map { .date(Field.creationDate, $0) }) }
    }

    /// Attribute 18: the original purchase date.
    public var originalPurchaseDate: ReceiptDate? {
        get { date(Field.originalPurchaseDate) }
        set { replace(Field.originalPurchaseDate, with: newValue.map { .date(Field.originalPurchaseDate, $0) }) }
    }

    /// Attribute 19: the version originally purchased (absent in Xcode receipts).
    public var originalApplicationVersion: String? {
        get { string(Field.originalApplicationVersion, tag: .utf8String) }
        set {
            replace(Field.originalApplicationVersion,
                    with: newValue.map { .utf8String(Field.originalApplicationVersion, $0) })
        }
    }

    /// Attribute 21: the receipt expiration date (Volume Purchase Program only); nil:
    /// never expires. The one check made against the current time.
    public var expirationDate: ReceiptDate? {
        get { date(Field.expirationDate) }
        set { replace(Field.expirationDate, with: newValue.map { .date(Field.expirationDate, $0) }) }
    }

    /// Attributes 17, in order. Setting replaces them all (appended after the others).
    public var inAppPurchases: [InAppPurchase] {
        get {
            attributes.compactMap { attribute in
                attribute.type == Field.inAppPurchase ? try? InAppPurchase(decoding: attribute.value) : nil
            }
        }
        set {
            attributes.removeAll { $0.type == Field.inAppPurchase }
            attributes += newValue.map { ReceiptAttribute(type: Field.inAppPurchase, value: $0.encoded(order: .sorted)) }
        }
    }

    /// How many in-app purchase records (attributes 17) there are, without decoding them.
    public var inAppPurchaseCount: Int { attributes.lazy.filter { $0.type == Field.inAppPurchase }.count }
}
