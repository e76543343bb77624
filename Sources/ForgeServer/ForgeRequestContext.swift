import Hummingbird
import Logging
import NIOCore

/// Hummingbird's per-request context, keeping the connection's channel so an answer can
/// drop it (the `close` fault, a client too slow to send its body, an oversized body).
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
struct ForgeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
