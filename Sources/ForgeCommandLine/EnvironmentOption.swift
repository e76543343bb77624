import AppInput
import ArgumentParser

/// `--environment production|sandbox` of `forge scenario run` and `forge notify`.
package enum EnvironmentOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    case production, sandbox

    package var value: AppEnvironment { self == .production ? .production : .sandbox }
}
