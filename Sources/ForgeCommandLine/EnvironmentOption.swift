import AppInput
import ArgumentParser

/// `--environment production|sandbox` of `forge scenario run` and `forge notify`.
public enum EnvironmentOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    case production, sandbox

    public var value: AppEnvironment { self == .production ? .production : .sandbox }
}
