import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An https webhook on 127.0.0.1 that answers 200 to every POST, its certificate issued
/// by a test CA no system trusts (what `forge serve --notify-ca` is for).
///
/// The certificates (P-256, valid for a century) were made once with OpenSSL:
/// `openssl req -x509 -new -key ca.key -days 36500 -subj "/CN=Receipt Forge test webhook CA"
/// -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign`, and
/// a leaf for `IP:127.0.0.1, DNS:localhost` (`serverAuth`) signed by it with `openssl x509 -req`.
final class TLSWebhook: Sendable {
    static let caPEM = """
-----BEGIN CERTIFICATE-----
MIIBuDCCAV2gAwIBAgIUUc55jpMy2PgKAJ/gC0A7XBYawoAwCgYIKoZIzj0EAwIw
KDEmMCQGA1UEAwwdUmVjZWlwdCBGb3JnZSB0ZXN0IHdlYmhvb2sgQ0EwIBcNMjYx
MTI3MDU0ODM4WhgPMjEyNjExMDMwNTQ4MzhaMCgxJjAkBgNVBAMMHVJlY2VpcHQg
Rm9yZ2UgdGVzdCB3ZWJob29rIENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
oPm96pGlesjE7QfsyQKIl/uYc7/aJvHucF2Jnw8Beb+AL5lUAG/l+b6T03RDjOcY
Ztgf8aFe1q2tOhwbVHE9xKNjMGEwHQYDVR0OBBYEFDiXU5LYAs18aglFrfC9kTct
9R6zMB8GA1UdIwQYMBaAFDiXU5LYAs18aglFrfC9kTct9R6zMA8GA1UdEwEB/wQF
MAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMCA0kAMEYCIQDgH1Vq3n/5
SqCmaPyFwiYCZd3hn3Tm3K1SvymNSCDMPAIhANGfKLnndE6R1UccBSJ9Mi+w0II0
9DrpvjnI2oat1PaO
-----END CERTIFICATE-----
"""

    static let leafPEM = """
-----BEGIN CERTIFICATE-----
MIIB0jCCAXmgAwIBAgIUPRWHq5aE13hELKi0TfQ1cmsbOUQwCgYIKoZIzj0EAwIw
KDEmMCQGA1UEAwwdUmVjZWlwdCBGb3JnZSB0ZXN0IHdlYmhvb2sgQ0EwIBcNMjYx
MTI3MDU0ODM4WhgPMjEyNjExMDMwNTQ4MzhaMBQxEjAQBgNVBAMMCTEyNy4wLjAu
MTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABFF8OXUbXiT2LeEhG1vQh8nFZ3u9
SvaMsMc2CEKj3JO5tZxYwY1ranUYwfrbgu+egaQTNpNig5HEXi0n0oayoe2jgZIw
gY8wGgYDVR0RBBMwEYcEfwAAAYIJbG9jYWxob3N0MAwGA1UdEwEB/wQCMAAwDgYD
VR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMB0GA1UdDgQWBBRQIo9f
jc3nJwqx2pdDYP66yrJnDzAfBgNVHSMEGDAWgBQ4l1OS2ALNfGoJRa3wvZE3LfUe
szAKBggqhkjOPQQDAgNHADBEAiAf5Z+RLCnbk7MU1CTaU9K9YN2tZDg1046O1WtW
w0wNXQIgDsJQqk0ful+eaNi9ySkmatJ8wpJAwXgvajifGLl+x+g=
-----END CERTIFICATE-----
"""

    static let leafKeyPEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgLEH1yxGpIZiVgw5i
iO3EwuXhmqajF9WJestkDXaP2bWhRANCAARRfDl1G14k9i3hIRtb0IfJxWd7vUr2
jLDHNghCo9yTubWcWMGNa2p1GMH624LvnoGkEzaTYoORxF4tJ9KGsqHt
-----END PRIVATE KEY-----
"""

    let channel: any Channel

    init() async throws {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(Self.leafPEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(Self.leafKeyPEM.utf8), format: .pem)))
        configuration.minimumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: configuration)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Answer())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    var url: String { "https://127.0.0.1:\(channel.localAddress?.port ?? 0)/hook" }

    func close() async { try? await channel.close() }

    /// 200 with an empty body to each request, once its body has arrived.
    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
