// The forge's API speaks in the app description's types (`AppDescription`, `Platform`,
// `ProductCatalogue`): importing ReceiptForge brings them along. AppInput is no library
// product, so this is how a user's package names them (README's `## Use from Swift`).
@_exported import AppInput
