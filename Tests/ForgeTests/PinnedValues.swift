/// Values of the default run (seed 1, now 2026-06-01T00:00:00Z, the committed CA).
/// They change when the CA is regenerated or the payload layout changes: update them
/// then, on purpose.
enum PinnedValues {
    static let validDeviceUUID = "51C1C574-8752-417C-A9AE-DF3A2C42F06B"
    static let validReceiptSHA256 = "046bdc5be0c260b2c9faa49e778388ba4ea39ed1e216cd559a3fecdb47037374"
}
