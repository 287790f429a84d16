import Replay
import Testing
import TraceModel

/// Texts keep their first number as the table grows, and a ``TextTableFeed`` numbers texts as
/// the ``TextTable`` it feeds does.
@Suite struct TextTableTests {
    private static let texts: [String] = (0 ..< 3_000).map { number in
        switch number % 4 {
        case 0: "com.example.task.\(number)"
        case 1: String(number)
        case 2: "ünïcode-\(number)-😀"
        default: String(repeating: "x", count: number % 40)
        }
    }

    @Test func numbersAreStableAndExactAcrossGrowth() {
        let table = TextTable()
        #expect(table.id("") == .empty)
        var numbers: [String: TextID] = [:]
        for text in Self.texts {
            let id = table.id(text)
            if let earlier = numbers[text] { #expect(id == earlier) } else { numbers[text] = id }
        }
        for (text, id) in numbers {
            #expect(table.id(text) == id)
            #expect(table[id] == text)
        }
        #expect(table.count == numbers.count + (numbers[""] == nil ? 1 : 0))
    }

    @Test func aFeedNumbersTextsAsItsTableDoes() {
        var feed = TextTableFeed()
        let fed = Self.texts.map { feed.id($0) }
        let table = TextTable()
        table.append(fedTexts: feed.takeNewTexts())
        #expect(Self.texts.map { table.id($0) } == fed)
    }
}
