import ArgumentParser
import LifelineKit

/// `--app` and `--app-version`, shared by `check`, `timeline`, `report` and `query` (which binds
/// them to `:app` and `:app_version`): the launches of one app, or of one version (a launch
/// belongs to the app and version of its first event).
struct AppOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only launches of this app (the logs' `app`: its bundle id).", valueName: "bundle-id"))
    var app: String?

    @Option(
        name: .customLong("app-version"),
        help: ArgumentHelp("Only launches of this app version (of whichever app logs it, unless --app is given).", valueName: "version"))
    var appVersion: String?

    var selection: AppSelection { AppSelection(app: app, version: appVersion) }

    /// ` --app ID --app-version V` as given, for a command printed for the user to run next.
    var arguments: String {
        (app.map { " --app \(ShellWord.quoted($0))" } ?? "") + (appVersion.map { " --app-version \(ShellWord.quoted($0))" } ?? "")
    }

    /// An empty bundle id or version could only be a mistake (a variable that was not set).
    func validate() throws {
        try CommandFailure.reporting {
            if app?.isEmpty == true { throw CommandFailure.usage("--app needs a bundle id, such as --app com.example.news") }
            if appVersion?.isEmpty == true { throw CommandFailure.usage("--app-version needs a version, such as --app-version 5.12.0") }
        }
    }
}

extension DatabaseOption {
    /// The store holds events, but no launch of the app or version (on the devices asked for,
    /// in the window).
    func nothingOf(_ apps: AppSelection, devices: [String] = [], inWindow: Bool = false) -> CommandFailure {
        let on = devices.isEmpty ? "" : " on device \(devices.map(ShownValue.shown).joined(separator: ", "))"
        guard !inWindow else {
            return .nothingToCheck("no events of the launches of \(apps)\(on) in \(path) in that window")
        }
        return .nothingToCheck(
            "no launches of \(apps)\(on) in \(path); `lifeline query apps\(argument)` lists the apps and versions it holds")
    }
}
