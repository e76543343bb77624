extension JWSKind {
    /// The kind a decoded payload looks like, by the fields only it has:
    /// `notificationType` (notification), `receiptType` (app transaction),
    /// `autoRenewStatus` or `autoRenewProductId` (renewal info), else a transaction.
    public static func detect(payloadKeys keys: some Collection<String>) -> JWSKind {
        if keys.contains("notificationType") { return .notification }
        if keys.contains("receiptType") { return .appTransaction }
        if keys.contains("autoRenewStatus") || keys.contains("autoRenewProductId") { return .renewalInfo }
        return .transaction
    }
}
