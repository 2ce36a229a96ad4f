import ArgumentParser
import Foundation
import MessageAIAssistant

/// The assistant's evaluation and benchmark tool. `eval` reads ASSISTANT.md's JSON lines and
/// prints one prediction per line; `bench` prints p50/p99 of the local engine's two jobs.
struct Assist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-assist",
        abstract: "Run the MessageAI assistant's engine on evaluation files, or benchmark it.",
        subcommands: [Eval.self, Bench.self])
}

enum EngineChoice: String, ExpressibleByArgument {
    case local
    var engine: AssistantEngine { LocalEngine() }
}

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one prediction JSON line per input line.")

    @Argument(help: "A JSON-lines file of messages to judge and threads to summarise (- for stdin).")
    var file: String

    @Option(help: "The engine: local (the provider engine is not built yet).")
    var engine: EngineChoice = .local

    func run() throws {
        let text: String
        if file == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
            text = String(decoding: data, as: UTF8.self)
        }
        let e = engine.engine
        var failures = 0
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do {
                print(EvaluationFormat.jsonLine(try EvaluationFormat.predict(String(line), engine: e)))
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("line \(n + 1): \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(2) }
    }
}

Assist.main()
