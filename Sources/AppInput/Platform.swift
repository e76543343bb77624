/// The platform the app under test runs on: decides the device identifier's form.
public enum Platform: String, Sendable, Codable, CaseIterable {
    /// iOS/iPadOS/tvOS: `identifierForVendor`, 16 bytes.
    case ios
    /// macOS: the MAC address of the primary built-in interface, 6 bytes.
    case macos
}
