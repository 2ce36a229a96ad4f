import Foundation

/// /set: the settings of `Settings.table`, kept in the config file.
enum SettingsCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/set", "/set [KEY [VALUE...]]",
                    "list the settings, show one, or change one and save it in the config file (/help set lists the keys)",
                    login: false, args: 0...Int.max, run: set),
    ]

    static func set(_ inv: Invocation) {
        let client = inv.client
        guard let key = inv.args.first else {
            let rows = Settings.table.map { row(client, $0) }
            let width = Settings.table.map(\.key.count).max() ?? 0
            inv.succeed("settings", ["settings": rows, "path": client.config.settingsPath],
                        plain: Settings.table.map { "\($0.key.padding(toLength: width, withPad: " ", startingAt: 0)) = \($0.read(client.config))" }
                            .joined(separator: "\n") + "\n(in \(client.config.settingsPath); /help set says what each means)")
            return
        }
        guard let spec = Settings.spec(key) else {
            inv.fail("invalid_argument", "no setting '\(key)'; the settings are \(Settings.table.map(\.key).joined(separator: ", "))")
            return
        }
        guard inv.args.count > 1 else {
            inv.succeed("settings", ["settings": [row(client, spec)], "path": client.config.settingsPath],
                        plain: "\(spec.key) = \(spec.read(client.config))  (\(spec.allowed)): \(spec.help)")
            return
        }
        switch client.changeSetting(spec, to: inv.rest(from: 1)) {
        case .failure(let e): inv.fail(e)
        case .success(let v):
            inv.succeed("ok", ["key": spec.key, "value": v, "path": client.config.settingsPath],
                        plain: "\(spec.key) = \(v) (saved in \(client.config.settingsPath))")
        }
    }

    private static func row(_ client: Client, _ spec: SettingSpec) -> [String: Any] {
        ["key": spec.key, "value": spec.read(client.config), "default": spec.read(ClientConfiguration()),
         "allowed": spec.allowed, "help": spec.help]
    }

    /// `/help set`: every key, what it takes and does.
    static func helpText(width: Int?) -> [String] {
        var lines = ["/set KEY VALUE changes a setting now and saves it in the config file",
                     "($XDG_CONFIG_HOME/messageai/config, else ~/.config/messageai/config; --config FILE for another).",
                     "The file holds one \"key = value\" a line and may be edited by hand; # starts a comment.",
                     "Flags on the command line win over the file. The keys:"]
        let defaults = ClientConfiguration()
        for s in Settings.table {
            let text = "\(s.help). Values: \(s.allowed); default \(s.read(defaults).isEmpty ? "none" : s.read(defaults))."
            lines += WordWrap.hanging(s.key, labelWidth: 10, text, width: width ?? Int.max / 2)
        }
        return lines
    }
}
