@testable import Replay
import Testing
import TraceSynth

/// A ``KeyedList`` answers as a dictionary with the order its keys came in would, through its
/// short list, its indexed form, its holes and the way back.
@Suite struct KeyedListTests {
    /// The model: a dictionary, and the keys in the order they came.
    private struct Model {
        var values: [Int: Int] = [:]
        var order: [Int] = []

        mutating func update(_ value: Int, _ key: Int) -> Int? {
            if values[key] == nil { order.append(key) }
            return values.updateValue(value, forKey: key)
        }

        mutating func remove(_ key: Int) -> Int? {
            order.removeAll { $0 == key }
            return values.removeValue(forKey: key)
        }

        var elements: [(Int, Int)] { order.compactMap { key in values[key].map { (key, $0) } } }
    }

    @Test(arguments: [8, 40, 400])
    func answersAsAnOrderedDictionary(keys: Int) {
        var rng = SplitMix64(UInt64(keys))
        var list = KeyedList<Int, Int>()
        var model = Model()
        var largest = 0
        for step in 0 ..< 20_000 {
            let key = Int.random(in: 0 ..< keys, using: &rng)
            switch Int.random(in: 0 ..< 10, using: &rng) {
            case 0 ..< 4:
                #expect(list.updateValue(step, forKey: key) == model.update(step, key))
            case 4 ..< 7:
                #expect(list.removeValue(forKey: key) == model.remove(key))
            case 7:
                list.modify(key) { $0 = -step }
                if model.values[key] != nil { model.values[key] = -step }
            case 8:
                #expect(list[key] == model.values[key])
                #expect(list.contains(key) == (model.values[key] != nil))
            default:
                // Now and then empty, as a launch's end does.
                if Int.random(in: 0 ..< 50, using: &rng) == 0 {
                    list.removeAll(keepingCapacity: true)
                    model = Model()
                }
            }
            largest = max(largest, model.values.count)
            #expect(list.isEmpty == model.values.isEmpty)
            let elements = list.elements.map { ($0.key, $0.value) }
            #expect(elements.map(\.0) == model.elements.map(\.0))
            #expect(elements.map(\.1) == model.elements.map(\.1))
        }
        // The larger runs went past the short list.
        if keys > KeyedList<Int, Int>.indexedAbove { #expect(largest > KeyedList<Int, Int>.indexedAbove) }
    }

    @Test func aListOfKeysIsASetInOrder() {
        var keys = KeyedList<String, Void>()
        keys.insert("b")
        keys.insert("a")
        keys.insert("b")
        #expect(keys.elements.map(\.key) == ["b", "a"])
        let removed = keys.remove("b")
        let removedAgain = keys.remove("b")
        #expect(removed)
        #expect(!removedAgain)
        #expect(keys.contains("a"))
    }
}
