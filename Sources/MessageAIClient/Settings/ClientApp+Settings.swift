import Foundation

extension ClientApp {
    /// Applies the settings file to `config` before the flags; a line that cannot be used is
    /// reported on stderr and skipped (the rest of the file still applies).
    public static func loadSettings(_ config: inout ClientConfiguration) {
        do {
            let file = try SettingsFile(path: config.settingsPath)
            for problem in file.apply(to: &config) { Output.plainWrite("messageai: \(problem)\n", .err) }
        } catch {
            Output.plainWrite("messageai: cannot read \(config.settingsPath): \(error); using the defaults\n", .err)
        }
    }
}

extension Client {
    /// `/set KEY VALUE`: applies the value to the running client and saves it in the file.
    /// Returns the normalised value, or an error saying what is allowed.
    func changeSetting(_ spec: SettingSpec, to value: String) -> Result<String, ClientError> {
        guard let v = spec.normalise(value) else {
            return .failure(ClientError("invalid_argument", "\(spec.key) must be \(spec.allowed)"))
        }
        do {
            var file = try SettingsFile(path: config.settingsPath)
            file.set(spec.key, v)
            try file.save()
        } catch {
            return .failure(ClientError("storage", "cannot write \(config.settingsPath): \(error)"))
        }
        spec.apply(&config, v)
        settingsChanged()
        return .success(v)
    }

    /// What depends on settings outside `config` itself follows a change.
    func settingsChanged() {
        notifier.command = config.notifyCommand
        notifier.bell = config.bell
        output.colour = Palette.enabled(config.color, json: config.json)
        output.timestampFormat = config.timestampFormat
        draftCheck = config.draftCheck ?? DraftCheckMode.standard(interactive: config.interactive)
        previewMode = ImagePreview.mode(setting: config.preview, json: config.json)
        sendTimeZone()
        onChange()
    }
}
