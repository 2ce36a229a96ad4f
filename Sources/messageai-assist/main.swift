import ArgumentParser
import Foundation
import MessageAIAssistant
import MessageAIAssistantProvider

/// The assistant's evaluation and benchmark tool. `eval` reads ASSISTANT.md's JSON lines and
/// prints one prediction per line; `bench` prints p50/p99 of the local engine's two jobs.
struct Assist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-assist",
        abstract: "Run the MessageAI assistant's engine on evaluation files, or benchmark it.",
        subcommands: [Eval.self, Bench.self])
}

enum EngineChoice: String, ExpressibleByArgument {
    case local, provider
}

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one prediction JSON line per input line.")

    @Argument(help: "A JSON-lines file of messages to judge and threads to summarise (- for stdin).")
    var file: String

    @Option(help: "The engine: local (rules, no network) or provider (a language model; see the provider options).")
    var engine: EngineChoice = .local

    @OptionGroup(title: "Provider options")
    var provider: ProviderOptions

    func run() throws {
        let text: String
        if file == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
            text = String(decoding: data, as: UTF8.self)
        }
        let e: AssistantEngine = engine == .provider ? try provider.engine() : LocalEngine()
        var failures = 0
        var tally = AnswerTally()
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do {
                var prediction: [String: Any]
                switch try EvaluationFormat.parse(String(line)) {
                case .message(let id, let m):
                    let j = e.judge(m)
                    tally.note(j.engine)
                    prediction = EvaluationFormat.addDueTimes(to: EvaluationFormat.prediction(id: id, j), from: String(line))
                    prediction["engine_fallback"] = j.engine.fallbackReason
                case .thread(let id, let t):
                    let s = e.summarize(t)
                    tally.note(s.engine)
                    prediction = EvaluationFormat.prediction(id: id, s)
                    prediction["engine_fallback"] = s.engine.fallbackReason
                }
                print(EvaluationFormat.jsonLine(prediction))
                fflush(stdout)
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("line \(n + 1): \(error)\n".utf8))
            }
        }
        if engine == .provider { FileHandle.standardError.write(Data((tally.report + "\n").utf8)) }
        if failures > 0 { throw ExitCode(2) }
    }
}

Assist.main()
