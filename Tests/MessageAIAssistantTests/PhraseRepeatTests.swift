@testable import MessageAIAssistant
import XCTest

/// A bug seen in the product: an item read "tell the two prospects the two prospects SSO lands in
/// Q2". The "that" after the object joins a clause; it was taken for a pronoun and replaced by the
/// object just before it. Look-alikes: a "that" that does point back, a relative "that", and a
/// "that" right after the verb. Sentences made up here, none from a labelled set.
final class PhraseRepeatTests: XCTestCase {
    func whats(_ text: String, context: [(String, String)] = [], from: String = "omar", to: [String] = ["maya"]) -> [String] {
        judge(text, to: to, context: context, from: from).actions.map(\.what)
    }

    /// No phrase holds the same run of two or more words twice in a row.
    func repeats(_ what: String) -> Bool {
        let w = what.lowercased().split(separator: " ")
        guard w.count >= 4 else { return false }
        for n in 2...(w.count / 2) {
            for i in 0...(w.count - 2 * n) where w[i..<(i + n)] == w[(i + n)..<(i + 2 * n)] { return true }
        }
        return false
    }

    func testThatJoiningAClauseIsKeptAsWritten() {
        let items = whats("No objection, I'll tell the two prospects that SSO lands in Q2.")
        XCTAssertEqual(items, ["tell the two prospects that SSO lands in Q2"])
        let teams = whats("Carlos, please tell the two feature teams that they move to 3.3.", from: "mei", to: ["carlos", "nora"])
        XCTAssertEqual(teams.count, 1)
        XCTAssertFalse(teams.contains(where: repeats), "\(teams)")
        XCTAssertTrue(teams.first?.hasPrefix("tell the two feature teams that") == true, "\(teams)")
    }

    func testARelativeThatIsNoReference() {
        let items = whats("Can you fix the login bug that logs people out on Safari?")
        XCTAssertFalse(items.contains(where: repeats), "\(items)")
        XCTAssertTrue(items.first?.hasPrefix("fix the login bug") == true, "\(items)")
    }

    func testAThatWhichPointsBackIsStillResolved() {
        // "that" right after the verb, ending the clause: the context's thing, as before.
        let items = whats("Could you fix that by Friday?", context: [("maya", "The export button crashes the app on iPad.")])
        XCTAssertEqual(items.count, 1)
        XCTAssertFalse(items.first?.contains("that") ?? true, "\(items)")
        XCTAssertFalse(items.contains(where: repeats), "\(items)")
    }

    func testThePhraseCheckSeesARepeat() {
        XCTAssertTrue(repeats("tell the two prospects the two prospects SSO lands in Q2"))
        XCTAssertFalse(repeats("tell the two prospects that SSO lands in Q2"))
        XCTAssertFalse(repeats("move the fraud call to the async queue"))
    }
}
