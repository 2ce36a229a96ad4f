import Foundation
import MessageAIAssistant
import MessageAIProtocol
import MessageAIStore

/// Extraction when several nodes share one PostgreSQL database (issue 26 stage C): every stored
/// message is queued as a job in the transaction that stores it (schema v11's trigger), and any
/// node with extraction on claims a batch of jobs for a lease (renewed while its engine runs),
/// then stores the items and removes the jobs it still holds in one commit
/// (PostgresStore+ExtractionJobs.swift). A node killed mid-batch loses nothing: its lease runs
/// out (10 s) and the next poll of any node takes the jobs. The node that committed a message
/// drains at once (the items show up as fast as on one node); every node also polls, for the
/// jobs of a node that died. SQLite (one process) keeps extracting after its own commits
/// (ChatServer+Extraction.swift).
///
/// The context a message is judged with is read from the store (the messages before it), not
/// the node's memory of recent lines: the message before may have been committed elsewhere.
extension ChatServer {
    /// Jobs per claimed batch: one transaction, one engine hop, one push per conversation.
    static let extractionJobBatch = 100
    /// How often a node looks for jobs nobody runs (a dead node's, once its lease ran out), in seconds. A message
    /// committed through a live node does not wait for this: that node drains after its commit.
    static let extractionJobPoll = 2.0

    /// At start (hub): tells the database whether to queue messages, then starts polling.
    func startExtractionJobs() {
        guard let assistant, let jobs = store.extractionJobs else { return }
        let queued = assistant.config.extract
        onHub { [self] in
            do { try await jobs.setExtractionQueued(queued) } catch {
                logger.error("assistant: cannot record whether messages are queued for extraction: \(error)")
            }
        }
        if queued { pollExtractionJobs() }
    }

    private func pollExtractionJobs() {
        guard !isShuttingDown else { return }
        drainExtractionJobs()
        queue.asyncAfter(deadline: .now() + Self.extractionJobPoll) { [weak self] in self?.pollExtractionJobs() }
    }

    /// Hub: runs batches until none is left free. One drain at a time; one asked for meanwhile
    /// runs once more after it (its commit's jobs may have come after the last claim).
    func drainExtractionJobs() {
        guard let assistant else { return }
        guard !assistant.drainingJobs else { assistant.jobsWanted = true; return }
        assistant.drainingJobs = true
        extractionSteps.run { [self] in
            repeat {
                assistant.jobsWanted = false
                while await runExtractionBatch(assistant) {}
            } while assistant.jobsWanted && !isShuttingDown
            assistant.drainingJobs = false
        }
    }

    /// One claimed batch (hub around the store's call); true when it was full (more may wait).
    private func runExtractionBatch(_ assistant: Assistant) async -> Bool {
        guard let jobs = store.extractionJobs, !isShuttingDown else { return false }
        let store = self.store, engine = assistant.local, thread = assistant.extractQueue
        let hold = assistant.config.jobHoldMillis
        let done: (jobs: Int, messages: [StoredMessage], stored: [AssistItemRecord])
        do {
            done = try await jobs.runExtractionJobs(limit: Self.extractionJobBatch, now: Clock.nowMillis()) { claimed in
                if hold > 0 { try await Task.sleep(for: .milliseconds(hold)) }
                return try await Self.jobItems(claimed.map(ChatMessage.init), store: store, engine: engine, thread: thread)
            }
        } catch {
            // The jobs stay queued: the next drain or poll takes them again.
            logger.error("assistant: an extraction batch failed and stays queued: \(error)")
            return false
        }
        await pushItems(done.stored, except: nil)
        queueForProvider(done.messages.map(ChatMessage.init))
        return done.jobs >= Self.extractionJobBatch
    }

    /// The items of a claimed batch. Runs in the store's call, off the hub: it reads the store
    /// and hands the engine's work to the extraction thread, and touches nothing of the hub's.
    private static func jobItems(_ messages: [ChatMessage], store: any Store, engine: LocalEngine,
                                 thread: ExtractionThread) async throws -> [NewAssistItem] {
        var members: [UInt64: [String]] = [:]
        var zones: [UInt64: String] = [:]
        var context: [UInt64: [ChatLine]] = [:]
        var work: [(ChatMessage, MessageToJudge, [String], String)] = []
        for m in messages {
            if zones[m.senderID] == nil { zones[m.senderID] = (try await store.user(id: m.senderID))?.timeZone ?? "" }
            if members[m.conversationID] == nil {
                members[m.conversationID] = try await store.members(conversationID: m.conversationID).map(\.username)
                context[m.conversationID] = try await store.messages(conversationID: m.conversationID, beforeSeq: m.seq,
                                                                     limit: Assistant.contextSize)
                    .filter { !$0.deleted }.map { ChatLine(from: $0.senderUsername.lowercased(), text: $0.text) }
            }
            let names = members[m.conversationID]!
            let line = ChatLine(from: m.senderUsername.lowercased(), text: m.text)
            let before = context[m.conversationID] ?? []
            context[m.conversationID] = Array((before + [line]).suffix(Assistant.contextSize))
            let to = names.filter { $0.lowercased() != line.from }.map { $0.lowercased() }
            work.append((m, MessageToJudge(from: line.from, to: to, text: m.text, context: before), names, zones[m.senderID]!))
        }
        let judged = work
        return await withCheckedContinuation { done in
            thread.async {
                done.resume(returning: judged.flatMap { m, judge, names, zone in
                    Assistant.items(from: engine.extract(judge), message: m, members: names, senderZone: zone)
                })
            }
        }
    }
}
