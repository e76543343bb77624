import AppInput
import Foundation

/// `forge serve --notify-url`: `URL` (production), `production=URL` or `sandbox=URL`,
/// at most one per environment, each an absolute http or https URL.
package enum NotifyURLs {

    /// The URL of each environment the specs name.
    package static func parse(_ specs: [String]) throws(NotifyURLError) -> [AppEnvironment: String] {
        var urls: [AppEnvironment: String] = [:]
        for spec in specs {
            var environment = AppEnvironment.production
            var url = spec
            for candidate in [AppEnvironment.production, .sandbox] where spec.hasPrefix("\(candidate.rawValue.lowercased())=") {
                environment = candidate
                url = String(spec.dropFirst(candidate.rawValue.count + 1))
            }
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
                throw NotifyURLError(.notAnHTTPURL, spec: spec, reason: "not an http:// or https:// URL with a host (write URL, production=URL or sandbox=URL)")
            }
            guard urls[environment] == nil else {
                throw NotifyURLError(.secondURLForEnvironment, spec: spec, reason: "a second URL for \(environment.rawValue.lowercased()) (the App Store sends each "
                              + "environment's notifications to one URL; first: \(urls[environment]!))")
            }
            urls[environment] = url
        }
        return urls
    }
}

/// Why a `--notify-url` cannot be used.
package struct NotifyURLError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable {
        /// Not an absolute http or https URL with a host.
        case notAnHTTPURL
        /// A second URL for an environment that already has one.
        case secondURLForEnvironment
    }

    package let code: Code
    package let spec: String
    package let reason: String

    package init(_ code: Code, spec: String, reason: String) {
        self.code = code
        self.spec = spec
        self.reason = reason
    }

    package var description: String { "--notify-url '\(spec)': \(reason)" }
}
