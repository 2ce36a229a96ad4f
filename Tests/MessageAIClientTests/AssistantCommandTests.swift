import XCTest

/// /check, /summary, /actions, /decisions: the local engine on the client's cache, against a real
/// server and real client processes, online and with the server stopped.
final class AssistantCommandTests: ServerBackedTestCase {
    override class var directoryName: String { "assist" }

    /// Three people in a group: an ask, a commitment, a decision, a done report and a question.
    private func writeThread() throws {
        try clients.register("alice", "bob", "carol")
        XCTAssertEqual(try clients.run("alice", ["/group create launch bob carol",
                                                 "The 2.3 hotfix branch is cut and CI is green.",
                                                 "Bob, could you tag it and post the release notes by 5pm?",
                                                 "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("bob", ["/open launch", "Tagged. I'll post the release notes after standup.",
                                               "Decision: we'll go with the retry change for 2.3.", "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("carol", ["/open launch", "Is staging still on the old certificate from March?",
                                                 "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("alice", ["/open launch", "/wait-messages 5"]).status, 0)
    }

    /// Online the server's items answer (an ask is open until someone marks it done); with the
    /// server stopped the cached items do, in plain text.
    func testSummaryActionsAndDecisionsOnlineThenWithTheServerStopped() throws {
        try writeThread()
        let r = try clients.run("alice", ["/open launch", "/summary", "/actions", "/actions mine", "/decisions"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        let lines = jsonLines(r.out)
        let summary = try XCTUnwrap(lines.first { $0["type"] as? String == "summary" }, r.out)
        XCTAssertEqual(summary["messages"] as? Int, 5)
        XCTAssertEqual(summary["engine"] as? String, "local")
        XCTAssertEqual(summary["source"] as? String, "server")
        XCTAssertEqual(summary["open_questions"] as? [String], ["Is staging still on the old certificate from March?"])
        XCTAssertTrue((summary["summary"] as? String ?? "").contains("retry change"), "the decision is in the summary")

        let actions = lines.filter { $0["type"] as? String == "actions" }
        XCTAssertEqual(actions.count, 2)
        let open = try XCTUnwrap(actions.first?["actions"] as? [[String: Any]])
        XCTAssertEqual(open.map { $0["what"] as? String }, ["post the release notes", "tag the 2.3 hotfix branch"],
                       "bob's 'I'll post the release notes' is the same item as alice's ask: \(open)")
        XCTAssertEqual(Set(open.map { $0["who"] as? String }), ["bob"])
        XCTAssertEqual(open.first?["due"] as? String, "5pm")
        XCTAssertEqual((actions.last?["actions"] as? [Any])?.count, 0, "nothing is alice's")

        let decisions = try XCTUnwrap(lines.first { $0["type"] as? String == "decisions" }?["decisions"] as? [[String: Any]])
        XCTAssertEqual(decisions.map { $0["from"] as? String }, ["bob"])
        XCTAssertEqual(decisions.first?["decision"] as? String, "we'll go with the retry change for 2.3")

        // Bob reported the tag done in words; he marks it done, which every member sees.
        let tag = try XCTUnwrap(open.last?["item_id"] as? Int)
        let b = try clients.run("bob", ["/open launch", "/done \(tag)", "/actions mine", "/decisions"])
        XCTAssertEqual(b.status, 0, b.err)
        // "5pm" is placed on the sender's calendar (issue 28): the next 17:00 after the message.
        XCTAssertNotNil(b.out.range(of: #"done: #\#(tag) \[launch\] bob: tag the 2.3 hotfix branch \(due \w{3} \d{1,2} \w{3} 17:00\) \[done by bob\]"#,
                                    options: .regularExpression), b.out)

        // The same answers from the cache alone, in plain text.
        server.stop()
        let offline = try clients.run("bob", ["/open launch", "/actions mine", "/decisions", "/summary 2"])
        XCTAssertEqual(offline.status, 0, offline.err)
        XCTAssertNotNil(offline.out.range(of: #"bob: post the release notes \(due \w{3} \d{1,2} \w{3} 17:00\)"#, options: .regularExpression),
                        offline.out)
        XCTAssertFalse(offline.out.contains("tag the 2.3 hotfix branch"), "done: \(offline.out)")
        XCTAssertTrue(offline.out.contains("bob: we'll go with the retry change for 2.3"), offline.out)
        XCTAssertTrue(offline.out.contains("(offline: as last synced)"), offline.out)
        XCTAssertTrue(offline.out.contains("summary of [launch], 2 messages"), offline.out)
    }

    func testCheckGivesReasonsUsingTheConversationAsContext() throws {
        try writeThread()
        let r = try clients.run("alice", ["/open launch", "/check Can someone revert that sometime?", "/check Thanks, Bob!",
                                          "/check WHO PUSHED THIS TO MAIN", "/check Carol, please rotate the staging certificate by Friday."])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("clarity: 'sometime' leaves the time open"), r.out)
        XCTAssertTrue(r.out.contains("tone: 'WHO PUSHED THIS TO MAIN' is in capitals"), r.out)
        XCTAssertEqual(r.out.components(separatedBy: "looks clear and polite").count - 1, 2, "the thanks and the named ask: \(r.out)")
        XCTAssertTrue(r.out.contains("action: carol: rotate the staging certificate (due Friday)"), r.out)
    }

    func testCheckWithoutAnOpenConversationJudgesTheDraftAlone() throws {
        try clients.register("alice")
        let r = try clients.run("alice", ["/check Did you see those numbers?"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        let check = try XCTUnwrap(jsonLines(r.out).first { $0["type"] as? String == "check" }, r.out)
        XCTAssertEqual(check["clarity_flag"] as? Bool, true)
        XCTAssertEqual(check["tone_flag"] as? Bool, false)
        XCTAssertTrue(((check["clarity"] as? [[String: Any]])?.first?["reason"] as? String ?? "").contains("those numbers"), r.out)
    }

    /// Issue 24: with no conversation open, an ask's owner is nobody in particular; it printed
    /// `action: : revert that`.
    func testCheckWithoutAnOpenConversationNamesNoEmptyOwner() throws {
        try clients.register("alice")
        let r = try clients.run("alice", ["/check Can you revert that commit from this morning?"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": :"), r.out)
        XCTAssertTrue(r.out.contains("action: revert that commit"), r.out)
    }

    func testSummaryUnreadCoversWhatArrivedSinceTheLastVisit() throws {
        try writeThread()
        XCTAssertEqual(try clients.run("carol", ["/open launch", "Never mind, I checked: staging is on the new one.", "/wait sent"]).status, 0)
        let r = try clients.run("alice", ["/open launch", "/summary unread", "/summary unread", "/summary 0"], json: true)
        let summaries = jsonLines(r.out).filter { $0["type"] as? String == "summary" }
        XCTAssertEqual(summaries.first?["messages"] as? Int, 1, r.out)
        XCTAssertEqual(summaries.first?["open_questions"] as? [String], [])
        XCTAssertTrue(r.err.contains("usage: /summary [N") || r.out.contains("usage: /summary [N"), "a bad N is a usage error: \(r.out) \(r.err)")
    }

    func testSummarySinceATime() throws {
        try writeThread()
        let r = try clients.run("alice", ["/open launch", "/summary since 1h", "/summary since 2999-01-01", "/summary since soon"], json: true)
        let summaries = jsonLines(r.out).filter { $0["type"] as? String == "summary" }
        XCTAssertEqual(summaries.map { $0["messages"] as? Int }, [5, 0], r.out)
        XCTAssertTrue((r.out + r.err).contains("TIME: 09:00, today, yesterday, 2h"), "a TIME it cannot read is a usage error: \(r.out) \(r.err)")
        XCTAssertNotEqual(r.status, 0)
    }
}
